import type { CallToolResult, ContentBlock } from '../../protocol/tools';
import { wrapUntrusted, type RandomBytes, type UntrustedSource } from './untrusted-text';

/**
 * What the model reads for an MCP tool result. The host has already sanitized, redacted, capped
 * and wrapped every text block (design D9); the other server strings it relays unwrapped
 * (resource text, link names, structured content) are wrapped here, in one block per result.
 * Binary blocks are described, not sent: multimodal results come later.
 */

function approximateBytes(base64: string): string {
  const bytes = Math.floor((base64.length * 3) / 4);
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}

/** Text of a block that the host did not wrap, or undefined for a (host-wrapped) text block. */
function unwrappedText(block: ContentBlock): string | undefined {
  switch (block.type) {
    case 'text':
      return undefined;
    case 'image':
    case 'audio':
      return `[${block.type} (${block.mimeType}, ${approximateBytes(block.data)}) not shown to the model]`;
    case 'resource_link':
      return `[resource link] ${block.name} <${block.uri}>${block.description === undefined ? '' : `: ${block.description}`}`;
    case 'resource':
      return 'text' in block.resource
        ? `[resource ${block.resource.uri}]\n${block.resource.text}`
        : `[binary resource ${block.resource.uri} (${approximateBytes(block.resource.blob)}) not shown to the model]`;
  }
}

export function callResultText(
  result: CallToolResult,
  source: UntrustedSource,
  random?: RandomBytes,
): string {
  const pieces: string[] = [];
  const extra: string[] = [];
  for (const block of result.content) {
    if (block.type === 'text') pieces.push(block.text);
    else {
      const text = unwrappedText(block);
      if (text !== undefined) extra.push(text);
    }
  }
  if (result.structuredContent !== undefined && pieces.length === 0) {
    extra.push(JSON.stringify(result.structuredContent, null, 2));
  }
  if (extra.length > 0) pieces.push(wrapUntrusted(extra.join('\n\n'), source, random));
  if (pieces.length === 0) return '(The tool returned no content.)';
  return pieces.join('\n\n');
}
