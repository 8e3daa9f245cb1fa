import { z } from 'zod';
import { ContentBlockSchema, type CallToolResult, type ContentBlock } from '../../protocol/tools';

/**
 * Converts a server's `tools/call` answer into the protocol's CallToolResult without trusting its
 * shape: each content block is validated on its own, an unknown block becomes a visible note
 * instead of failing the call, and a non-boolean `isError` counts as an error.
 */

/** Deliberately lenient: the host validates the pieces itself. */
export const RawCallToolResultSchema = z.looseObject({
  content: z.array(z.unknown()).optional(),
  structuredContent: z.unknown().optional(),
  isError: z.unknown().optional(),
  /** Pre-2024-11-05 servers answered `{ toolResult }`. */
  toolResult: z.unknown().optional(),
});
const StructuredContentSchema = z.record(z.string(), z.unknown()).optional();

export type RawCallToolResult = z.infer<typeof RawCallToolResultSchema>;

function describeBlock(value: unknown): string {
  if (typeof value === 'object' && value !== null && 'type' in value) {
    const type = value.type;
    if (typeof type === 'string') return `'${type.slice(0, 40)}'`;
  }
  return 'a malformed';
}

/**
 * A text block, checked and copied as ContentBlockSchema's text branch would (`type` and `text`,
 * nothing else kept) without going through the schema: nearly every block of nearly every
 * result is one. Undefined for anything else, which the schema then decides.
 */
function plainText(block: unknown): ContentBlock | undefined {
  if (typeof block !== 'object' || block === null || Array.isArray(block)) return undefined;
  if (!('type' in block) || block.type !== 'text' || !('text' in block)) return undefined;
  return typeof block.text === 'string' ? { type: 'text', text: block.text } : undefined;
}

export function normalizeCallResult(raw: RawCallToolResult): CallToolResult {
  const content: ContentBlock[] = [];
  for (const block of raw.content ?? []) {
    const text = plainText(block);
    if (text !== undefined) {
      content.push(text);
      continue;
    }
    const parsed = ContentBlockSchema.safeParse(block);
    if (parsed.success) content.push(parsed.data);
    else
      content.push({
        type: 'text',
        text: `[Switchyard: omitted ${describeBlock(block)} content block the host cannot relay]`,
      });
  }
  if (raw.content === undefined && raw.toolResult !== undefined) {
    content.push({ type: 'text', text: JSON.stringify(raw.toolResult) });
  }
  const result: CallToolResult = { content };
  const structured = StructuredContentSchema.safeParse(raw.structuredContent);
  if (structured.success && structured.data !== undefined)
    result.structuredContent = structured.data;
  if (raw.isError !== undefined && raw.isError !== false) result.isError = true;
  return result;
}
