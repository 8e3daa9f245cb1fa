import { z } from 'zod';

/**
 * One tool as a server described it, validated on its own so a malformed tool is skipped while its
 * siblings register (a strict parse of the whole `tools/list` result would lose every tool of the
 * server over one bad schema). Strings here are still untrusted: the registry sanitizes them.
 */

/** Caps that bound what one server's listing can make the host hold. */
export const MAX_TOOL_NAME_CHARS = 256;
export const MAX_TOOLS_PER_SERVER = 1_000;
export const MAX_LIST_PAGES = 100;

const ObjectSchema = z.record(z.string(), z.unknown());

const RawToolSchema = z.object({
  name: z.string().min(1).max(MAX_TOOL_NAME_CHARS),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.looseObject({ type: z.literal('object') }),
  annotations: ObjectSchema.optional(),
});

/**
 * A server's claim about a tool. Each hint is `true`, `false`, `undefined` (absent) or
 * `'malformed'` (present but not a boolean): policy treats a malformed destructive hint as
 * destructive (design D8: annotations may only tighten).
 */
export type Hint = boolean | 'malformed' | undefined;

export interface ToolHints {
  readonly title: string | undefined;
  readonly readOnlyHint: Hint;
  readonly destructiveHint: Hint;
  readonly idempotentHint: Hint;
  readonly openWorldHint: Hint;
}

/**
 * One validated tool. Never modified once parsed: a new listing makes new objects, so caches may
 * key on the object (the tool gate caches each definition's pin hash).
 */
export interface ToolDefinition {
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly hints: ToolHints;
}

export type ToolParse =
  { ok: true; tool: ToolDefinition } | { ok: false; name: string; problem: string };

function hint(annotations: Record<string, unknown> | undefined, key: string): Hint {
  if (annotations === undefined || !(key in annotations)) return undefined;
  const value = annotations[key];
  if (value === undefined) return undefined;
  return typeof value === 'boolean' ? value : 'malformed';
}

/** Validates one entry of a `tools/list` result. Never throws. */
export function parseToolDefinition(value: unknown): ToolParse {
  const parsed = RawToolSchema.safeParse(value);
  if (!parsed.success) {
    const rawName =
      typeof value === 'object' &&
      value !== null &&
      'name' in value &&
      typeof value.name === 'string'
        ? value.name.slice(0, MAX_TOOL_NAME_CHARS)
        : '(unnamed)';
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'tool';
    return { ok: false, name: rawName, problem: `${where}: ${issue?.message ?? 'invalid'}` };
  }
  const { name, title, description, inputSchema, annotations } = parsed.data;
  const annotationTitle = annotations?.['title'];
  return {
    ok: true,
    tool: {
      name,
      title: title ?? (typeof annotationTitle === 'string' ? annotationTitle : undefined),
      description: description ?? '',
      inputSchema,
      hints: {
        title: typeof annotationTitle === 'string' ? annotationTitle : undefined,
        readOnlyHint: hint(annotations, 'readOnlyHint'),
        destructiveHint: hint(annotations, 'destructiveHint'),
        idempotentHint: hint(annotations, 'idempotentHint'),
        openWorldHint: hint(annotations, 'openWorldHint'),
      },
    },
  };
}

/** The lenient shape of one `tools/list` page: tools are validated one by one afterwards. */
export const ListToolsPageSchema = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});
