import type { CallToolResult, ContentBlock } from '../../protocol/tools';
import type { ImagePart } from '../messaging/images';
import {
  checkImages,
  markUndecodable,
  type ImageCandidate,
  type ImageDecoder,
} from './image-content';
import { wrapUntrusted, type RandomBytes, type UntrustedSource } from './untrusted-text';

/**
 * What the model reads for an MCP tool result. The host has already sanitized, redacted, capped
 * and wrapped every text block (design D9); the other server strings it relays unwrapped
 * (resource text, link names, structured content) are wrapped here, in one block per result.
 * Image blocks go through the image gate (image-content.ts): each one that passes is named in the
 * text ("[image 1 (image/png, 3 KB)]") and travels beside it as an image part, for providers
 * that accept images (issue 14); each one that fails is a line saying why. Audio and binary
 * resources are described, not sent.
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
      return undefined;
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

/** What the model is sent of a result: its text, and the images the text names. */
export interface ResultContent {
  readonly content: string;
  readonly images: ImagePart[];
}

export async function callResultContent(
  result: CallToolResult,
  source: UntrustedSource,
  options: { readonly random?: RandomBytes; readonly decodeImage?: ImageDecoder } = {},
): Promise<ResultContent> {
  const { random, decodeImage: decode } = options;
  const pieces: string[] = [];
  const extra: string[] = [];
  const candidates: ImageCandidate[] = result.content.flatMap((block) =>
    block.type === 'image' ? [{ mimeType: block.mimeType, data: block.data }] : [],
  );
  const checked = checkImages(await markUndecodable(candidates, decode));
  let image = 0;
  for (const block of result.content) {
    if (block.type === 'text') pieces.push(block.text);
    else if (block.type === 'image') {
      // The line carries the server's declared type: server text, so it goes in the wrapped block.
      const line = checked.lines[image++];
      if (line !== undefined) extra.push(line);
    } else {
      const text = unwrappedText(block);
      if (text !== undefined) extra.push(text);
    }
  }
  if (result.structuredContent !== undefined && pieces.length === 0) {
    extra.push(JSON.stringify(result.structuredContent, null, 2));
  }
  if (extra.length > 0) pieces.push(wrapUntrusted(extra.join('\n\n'), source, random));
  const content = pieces.length === 0 ? '(The tool returned no content.)' : pieces.join('\n\n');
  return { content, images: checked.images };
}
