import { z } from 'zod';
import { isAppUri } from '../../protocol/apps';
import { nestedDeeperThan } from '../../protocol/guards';

/**
 * One tool as a server described it, validated on its own so a malformed tool is skipped while its
 * siblings register (a strict parse of the whole `tools/list` result would lose every tool of the
 * server over one bad schema). Strings here are still untrusted: the registry sanitizes them.
 */

/** Caps that bound what one server's listing can make the host hold. */
export const MAX_TOOL_NAME_CHARS = 256;
export const MAX_TOOLS_PER_SERVER = 1_000;
export const MAX_LIST_PAGES = 100;
/**
 * Longest `nextCursor` followed. A cursor is an opaque token (real servers send a few dozen
 * characters); the host sends it back with the next page's request and keeps the ones seen to stop
 * a server that loops. Without a cap, a server could make it hold a hundred cursors of 16 MiB.
 */
export const MAX_CURSOR_CHARS = 4_096;

/**
 * What to do with a listing's `nextCursor`, for every paged listing alike: `last` when there is
 * none or it was seen before (a server that loops), `too-long` past MAX_CURSOR_CHARS (neither
 * sent back nor kept), else `follow`, and it is recorded in `seen`.
 */
export function followCursor(
  cursor: string | undefined,
  seen: Set<string>,
): 'last' | 'too-long' | 'follow' {
  if (cursor === undefined || seen.has(cursor)) return 'last';
  if (cursor.length > MAX_CURSOR_CHARS) return 'too-long';
  seen.add(cursor);
  return 'follow';
}
/**
 * Deepest nesting of one tool's definition (objects and arrays, the tool itself being level 1).
 * The host hashes definitions (pins, the listing's change check), compares and serializes them
 * with recursive walks; a hostile listing nested thousands deep would overflow the stack in one
 * of them and take the host down with every server. Twice the arguments' limit: each level of a
 * JSON Schema is two levels of JSON (`properties`, then the property).
 */
export const MAX_TOOL_DEFINITION_DEPTH = 128;
/**
 * Largest tool definition, as JSON characters. Only the description is cut (2,000 characters);
 * a title or schema strings as long as a server likes would make one tool's page of the listing
 * pass the 1 MiB the browser takes in a frame, and the agent would get no tools from any server.
 * The largest schemas of real servers are a few tens of KB; past this one, a tool would cost
 * the model tens of thousands of tokens every turn anyway.
 */
export const MAX_TOOL_DEFINITION_CHARS = 64 * 1024;

const ObjectSchema = z.record(z.string(), z.unknown());

const RawToolSchema = z.object({
  name: z.string().min(1).max(MAX_TOOL_NAME_CHARS),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.looseObject({ type: z.literal('object') }),
  annotations: ObjectSchema.optional(),
  // Read leniently by appUiOf: a malformed `_meta` costs the tool its app, not its listing.
  _meta: z.unknown().optional(),
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
  /** The tool's MCP App (`_meta.ui`), when its definition declares one. */
  readonly ui?: ToolAppMeta;
}

/**
 * What a tool's `_meta.ui` says (MCP Apps): the `ui://` page shown with its results, and who may
 * call it. Visibility only ever narrows: absent or malformed means both the model and the app.
 */
export interface ToolAppMeta {
  readonly resourceUri: string | undefined;
  readonly model: boolean;
  readonly app: boolean;
}

function objectOrUndefined(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * Reads `_meta.ui` (and the older flat `_meta["ui/resourceUri"]`, which hosts must still read).
 * A URI that is not a plain `ui://` one is dropped; a visibility list that is not a list of
 * strings is ignored (the default: both). Undefined when the tool declares nothing of it.
 */
export function appUiOf(meta: unknown): ToolAppMeta | undefined {
  const root = objectOrUndefined(meta);
  if (root === undefined) return undefined;
  const ui = objectOrUndefined(root['ui']);
  const modern = ui?.['resourceUri'];
  const legacy = root['ui/resourceUri'];
  const uri = typeof modern === 'string' ? modern : typeof legacy === 'string' ? legacy : undefined;
  const visibility = ui?.['visibility'];
  const listed =
    Array.isArray(visibility) && visibility.every((v) => typeof v === 'string')
      ? visibility
      : undefined;
  if (uri === undefined && listed === undefined) return undefined;
  return {
    resourceUri: uri !== undefined && isAppUri(uri) ? uri : undefined,
    model: listed === undefined || listed.includes('model'),
    app: listed === undefined || listed.includes('app'),
  };
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
  const rawName = (): string =>
    typeof value === 'object' && value !== null && 'name' in value && typeof value.name === 'string'
      ? value.name.slice(0, MAX_TOOL_NAME_CHARS)
      : '(unnamed)';
  // First, and without recursion: nothing below may walk a value this deep.
  if (nestedDeeperThan(value, MAX_TOOL_DEFINITION_DEPTH)) {
    return {
      ok: false,
      name: rawName(),
      problem: `tool: nested deeper than ${String(MAX_TOOL_DEFINITION_DEPTH)} levels`,
    };
  }
  const chars = JSON.stringify(value).length;
  if (chars > MAX_TOOL_DEFINITION_CHARS) {
    return {
      ok: false,
      name: rawName(),
      problem: `tool: its definition is ${String(chars)} characters of JSON, more than the ${String(MAX_TOOL_DEFINITION_CHARS)} a tool may have`,
    };
  }
  const parsed = RawToolSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'tool';
    return { ok: false, name: rawName(), problem: `${where}: ${issue?.message ?? 'invalid'}` };
  }
  const { name, title, description, inputSchema, annotations, _meta } = parsed.data;
  const annotationTitle = annotations?.['title'];
  const ui = appUiOf(_meta);
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
      ...(ui === undefined ? {} : { ui }),
    },
  };
}

/** The lenient shape of one `tools/list` page: tools are validated one by one afterwards. */
export const ListToolsPageSchema = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});
