import { MAX_HOST_TO_BROWSER_FRAME_BYTES } from '../../protocol/limits';
import type { CallToolResult, ContentBlock } from '../../protocol/tools';
import { capText } from '../../protocol/untrusted/cap';
import { safeJson, safeText } from '../../protocol/untrusted/gate';
import { HostError } from '../shared/host-error';

/**
 * Everything a tool result goes through before it leaves the host: every string is sanitized and
 * then has secrets redacted (design D9; redaction after sanitizing, so an escape sequence or a
 * zero-width character inside a token cannot hide it, and before capping, so a token cut in half
 * is still recognised), then the result is made to fit one host -> browser frame (Chromium drops the port at
 * 1,048,577 bytes, design section 4). Oversized binary blocks are replaced by a note, then text is
 * capped with a visible marker; only a result that still cannot fit fails, with one typed error.
 */

/** Room left for the JSON-RPC envelope around the result (`{"jsonrpc":"2.0","id":...}`). */
const ENVELOPE_RESERVE_BYTES = 4_096;

export const RESULT_BUDGET_BYTES = MAX_HOST_TO_BROWSER_FRAME_BYTES - ENVELOPE_RESERVE_BYTES;

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/** JSON writes one UTF-16 unit as at most 6 bytes (`\u001f`); UTF-8 needs at most 3. */
const MAX_JSON_BYTES_PER_UNIT = 6;
/** `{"content":[],"isError":true}` with room to spare. */
const RESULT_FRAME_BYTES = 64;

/**
 * An upper bound on the UTF-8 bytes of `JSON.stringify(value)`, from string lengths alone, for
 * strings and plain objects of them (content blocks are nothing else); undefined for any other
 * value. Never below the exact size (the dangerous direction: an oversized frame would get past
 * the gate, to be refused by the frame encoder); a result far inside the budget, nearly every
 * one, skips a serialization.
 */
export function jsonBytesUpperBound(value: unknown): number | undefined {
  if (typeof value === 'string') return value.length * MAX_JSON_BYTES_PER_UNIT + 2;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  let bytes = 2; // {}
  for (const [key, member] of Object.entries(value)) {
    const inner = jsonBytesUpperBound(member);
    if (inner === undefined) return undefined;
    bytes += key.length * MAX_JSON_BYTES_PER_UNIT + 4 + inner; // "key": and a comma
  }
  return bytes;
}

/** jsonBytesUpperBound of a result with `content` and no structuredContent. */
function contentUpperBound(content: readonly ContentBlock[]): number | undefined {
  let bytes = RESULT_FRAME_BYTES;
  for (const block of content) {
    const inner = jsonBytesUpperBound(block);
    if (inner === undefined) return undefined;
    bytes += inner + 1;
  }
  return bytes;
}

function sanitizeBlock(block: ContentBlock): ContentBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: safeText(block.text) };
    case 'image':
    case 'audio':
      return { ...block, mimeType: safeText(block.mimeType) };
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: safeText(block.uri),
        name: safeText(block.name),
        ...(block.description === undefined ? {} : { description: safeText(block.description) }),
        ...(block.mimeType === undefined ? {} : { mimeType: safeText(block.mimeType) }),
      };
    case 'resource': {
      const r = block.resource;
      const common = {
        uri: safeText(r.uri),
        ...(r.mimeType === undefined ? {} : { mimeType: safeText(r.mimeType) }),
      };
      return 'text' in r
        ? { type: 'resource', resource: { ...common, text: safeText(r.text) } }
        : { type: 'resource', resource: { ...common, blob: r.blob } };
    }
  }
}

function binarySize(block: ContentBlock): number {
  switch (block.type) {
    case 'image':
    case 'audio':
      return block.data.length;
    case 'resource':
      return 'blob' in block.resource ? block.resource.blob.length : 0;
    case 'text':
    case 'resource_link':
      return 0;
  }
}

function omittedNote(block: ContentBlock, bytes: number): ContentBlock {
  const kind = block.type === 'resource' ? 'binary resource' : block.type;
  const mb = ((bytes * 3) / 4 / 1_048_576).toFixed(1);
  return {
    type: 'text',
    text: `[Switchyard: omitted a ${mb} MB ${kind} block: too large for one browser message]`,
  };
}

/** The text a block carries: a text block's, or an embedded text resource's (capped alike). */
function textIn(block: ContentBlock): string | undefined {
  if (block.type === 'text') return block.text;
  if (block.type === 'resource' && 'text' in block.resource) return block.resource.text;
  return undefined;
}

function withText(block: ContentBlock, text: string): ContentBlock {
  if (block.type === 'text') return { type: 'text', text };
  if (block.type === 'resource' && 'text' in block.resource) {
    return { ...block, resource: { ...block.resource, text } };
  }
  return block;
}

/** Room kept per text block for the untrusted-data wrapper added after fitting. */
const WRAP_RESERVE_BYTES = 512;

/**
 * Sanitizes a result, fits it into one frame and, when `wrap` is given, wraps each text block for
 * the model (after fitting, so a cap can never cut a closing delimiter off). Throws
 * HostError('result-too-large').
 */
export function gateCallResult(
  result: CallToolResult,
  budgetBytes = RESULT_BUDGET_BYTES,
  wrap?: (text: string) => string,
): CallToolResult {
  if (wrap === undefined) return fitCallResult(result, budgetBytes);
  // Every block may come out of the fitting as text (a note standing in for an image too large),
  // and one more may be added (the note that structuredContent was left out): each is wrapped.
  const wrapped = result.content.length + (result.structuredContent === undefined ? 0 : 1);
  const fitted = fitCallResult(result, budgetBytes - wrapped * WRAP_RESERVE_BYTES);
  return {
    ...fitted,
    content: fitted.content.map((block) =>
      block.type === 'text' ? { type: 'text', text: wrap(block.text) } : block,
    ),
  };
}

function fitCallResult(result: CallToolResult, budgetBytes: number): CallToolResult {
  let content = result.content.map(sanitizeBlock);
  let structured =
    result.structuredContent === undefined ? undefined : safeJson(result.structuredContent);
  const assemble = (): CallToolResult => {
    const out: CallToolResult = { content };
    if (typeof structured === 'object' && structured !== null && !Array.isArray(structured)) {
      out.structuredContent = Object.fromEntries(Object.entries(structured));
    }
    if (result.isError === true) out.isError = true;
    return out;
  };
  const whole = assemble();
  if (structured === undefined && (contentUpperBound(content) ?? Infinity) <= budgetBytes) {
    return whole;
  }
  let size = jsonBytes(whole);
  if (size <= budgetBytes) return whole;

  // 1. structuredContent duplicates the text content for the model (MCP 2025-06-18 5.2.6).
  if (structured !== undefined) {
    structured = undefined;
    content = [
      ...content,
      { type: 'text', text: '[Switchyard: structuredContent omitted: too large]' },
    ];
    size = jsonBytes(assemble());
    if (size <= budgetBytes) return assemble();
  }

  // 2. Binary blocks, largest first, become notes.
  const bySize = content
    .map((block, index) => ({ index, bytes: binarySize(block) }))
    .filter((b) => b.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
  for (const { index, bytes } of bySize) {
    if (size <= budgetBytes) break;
    const block = content[index];
    if (!block) continue;
    content = content.map((b, i) => (i === index ? omittedNote(block, bytes) : b));
    size = jsonBytes(assemble());
  }
  if (size <= budgetBytes) return assemble();

  // 3. Text: cap each text-bearing block in proportion to its share of the bytes over budget.
  const overhead = jsonBytes({
    ...assemble(),
    content: content.map(() => ({ type: 'text', text: '' })),
  });
  const textBudget = Math.max(0, budgetBytes - overhead - content.length * 200);
  const textBytes = content.map((b) => {
    const text = textIn(b);
    return text === undefined ? 0 : jsonBytes(text);
  });
  const totalText = textBytes.reduce((a, b) => a + b, 0);
  content = content.map((block, i) => {
    const text = textIn(block);
    if (text === undefined) return block;
    const bytes = textBytes[i] ?? 0;
    const share = totalText === 0 ? 0 : Math.floor((textBudget * bytes) / totalText);
    // JSON escaping and UTF-8 make bytes per character vary: scale the char cap by this block's ratio.
    const bytesPerChar = text.length === 0 ? 1 : bytes / text.length;
    const maxChars = Math.max(200, Math.floor(share / Math.max(1, bytesPerChar)));
    return withText(block, capText(text, maxChars).text);
  });
  const capped = assemble();
  size = jsonBytes(capped);
  if (size <= budgetBytes) return capped;
  throw new HostError(
    'result-too-large',
    `The tool result is ${size} bytes after capping, over the ${budgetBytes}-byte browser message limit.`,
    { bytes: size, limit: budgetBytes },
  );
}
