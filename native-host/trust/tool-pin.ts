import { canonicalHash, canonicalJson } from '../shared/canonical-json';

/**
 * Tool-definition pinning (design.md D7, the rug-pull defence): when a tool is first approved or
 * allow-listed, the host keeps a hash of its definition; a server that later rewrites the
 * description or widens the schema of an allow-listed tool has its entry suspended until the user
 * approves the new definition, with the difference shown.
 *
 * What counts as a change:
 * - Object key order (in the schema, the annotations, anywhere) never does: hashes are over
 *   canonical JSON. Neither does the order of tools in `tools/list`: each tool is pinned by its
 *   raw name on its own. That is what D7's "reordering a list is not a change" covers.
 * - Array order inside a definition does. Some arrays are sets (`required`), but others are not
 *   (`prefixItems`, the order of `enum` or `examples` a model reads as preference), and a rule
 *   that guessed which is which wrongly would let a real change keep its pin, the dangerous
 *   direction. A reordered `required` costs one extra prompt.
 * - Text is compared exactly: a trailing space or another Unicode normalization is a change.
 * - `title: undefined` and no title are the same; `title: ""` is not.
 *
 * Pin the definition as the server sent it (before sanitizing or capping for display), so a
 * change hidden beyond a display cap is still a change.
 */

/** Bump when the hashed object changes shape; every stored pin then reports a change. */
export const TOOL_PIN_VERSION = 1;

/** The parts of a tool definition that are pinned. Other fields (`outputSchema`, ...) are not. */
export interface PinnableTool {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: unknown;
  readonly annotations?: unknown;
}

/**
 * Lower-case hex SHA-256 (64 chars) of the canonical JSON of
 * `{ v, name, title, description, inputSchema, annotations }` (absent members omitted). Extra
 * properties of `tool` are ignored. Throws TypeError when the schema or annotations hold something
 * JSON cannot (a function, BigInt, NaN, a cycle); a server's JSON never does.
 */
export function toolDefinitionHash(tool: PinnableTool): string {
  return canonicalHash({
    v: TOOL_PIN_VERSION,
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: tool.annotations,
  });
}

type ToolField = 'title' | 'description' | 'inputSchema' | 'annotations';

/**
 * One changed part of a tool definition, as display text: `title` and `description` as is,
 * `inputSchema` and `annotations` as JSON indented by two spaces with keys sorted, and `(none)`
 * for an absent part. Server text: sanitize it (D9) before showing it.
 */
export interface ToolChange {
  field: ToolField;
  before: string;
  after: string;
}

const FIELDS: readonly ToolField[] = ['title', 'description', 'inputSchema', 'annotations'];
const NONE = '(none)';

/**
 * The parts that differ between two definitions of the same tool, in the order title,
 * description, inputSchema, annotations. Empty exactly when their hashes are equal. Throws
 * RangeError when the names differ: pins are looked up by name, so comparing two different tools
 * is a caller's mistake.
 */
export function diffToolDefinition(before: PinnableTool, after: PinnableTool): ToolChange[] {
  if (before.name !== after.name) {
    throw new RangeError(
      `diffToolDefinition compares one tool's definitions, got ${JSON.stringify(before.name)} and ${JSON.stringify(after.name)}`,
    );
  }
  const changes: ToolChange[] = [];
  for (const field of FIELDS) {
    const a: unknown = before[field];
    const b: unknown = after[field];
    // Wrapped in an object so an absent part compares as canonicalHash sees it (omitted).
    if (canonicalJson({ a }) === canonicalJson({ a: b })) continue;
    changes.push({ field, before: display(field, a), after: display(field, b) });
  }
  return changes;
}

function display(field: ToolField, value: unknown): string {
  if (value === undefined) return NONE;
  if ((field === 'title' || field === 'description') && typeof value === 'string') return value;
  return prettyJson(JSON.parse(canonicalJson(value)), '');
}

/** JSON with two-space indent and keys in canonical order (JSON.stringify would put integer-like
 * keys first). The input is plain parsed JSON. */
function prettyJson(value: unknown, indent: string): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    const items: unknown[] = value;
    if (items.length === 0) return '[]';
    return `[\n${items.map((item) => inner + prettyJson(item, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length === 0) return '{}';
  const lines = entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${prettyJson(v, inner)}`);
  return `{\n${lines.join(',\n')}\n${indent}}`;
}
