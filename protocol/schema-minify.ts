/**
 * The model-facing form of a tool's input schema (issue 15, decision 0021): the same schema with
 * what no provider we send it to reads, or what says nothing the rest does not, left out. Every
 * property name, type, enum value, required flag, bound, format, pattern, default, example,
 * `$ref`, nested shape and description stays, at the same place and with the same value.
 *
 * Left out, and only at schema positions (never a property *named* `title` or `$schema`, never
 * inside `enum`, `const`, `default` or `examples`, which are data):
 * - `$schema` and `$comment`: the dialect URI and notes for schema authors. OpenAI and Anthropic
 *   take the schema as JSON Schema whatever `$schema` says; `$comment` is by the spec not for users.
 * - `title` when it only repeats a name: the property's (`file_path` / "File Path"), the `$defs`
 *   entry's, or at the root the tool's (`read_file` / "read_fileArguments"); or when it equals the
 *   schema's own description. Blank titles and blank descriptions too.
 * - `additionalProperties: false` on an object that lists its `properties` and no
 *   `patternProperties`: the model sees every key it may send; neither provider needs the keyword
 *   outside its opt-in strict mode, which Switchyard does not use; the server still validates.
 *   `additionalProperties: true` and `{}` are the default and go too.
 * - `required: []`, the default.
 * - Redundant `type` unions: `["string"]` is `"string"`, duplicates go, and `"integer"` next to
 *   `"number"` adds nothing (every integer is a number).
 *
 * Total: never throws (a value that cannot be read is returned as it came), and bounded: at most
 * `MAX_MINIFY_NODES` schema objects are rewritten and none deeper than `MAX_MINIFY_DEPTH`; past
 * either bound the rest is kept as it is, unwalked, so a cyclic or enormous value costs bounded
 * work and loses nothing. `$ref` is never followed, so `$ref` cycles cost nothing either.
 */

/** Deepest schema object rewritten; deeper ones are kept as they are. */
export const MAX_MINIFY_DEPTH = 64;
/** Schema objects rewritten at most; the rest are kept as they are. */
export const MAX_MINIFY_NODES = 10_000;

export interface MinifyOptions {
  /** The tool's name, so a root `title` that only repeats it is left out. */
  readonly toolName?: string;
}

/** Keywords whose value is one schema. */
const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  'additionalItems',
  'additionalProperties',
  'contains',
  'contentSchema',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
/** Keywords whose value is a list of schemas (`items` too, in its draft-07 tuple form). */
const SCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set([
  'allOf',
  'anyOf',
  'items',
  'oneOf',
  'prefixItems',
]);
/** Keywords whose value maps names to schemas, and whether a `title` may repeat the name. */
const SCHEMA_MAP_KEYWORDS: ReadonlyMap<string, boolean> = new Map([
  ['$defs', true],
  ['definitions', true],
  ['dependencies', false],
  ['dependentSchemas', false],
  ['patternProperties', false],
  ['properties', true],
]);
/** Suffixes schema generators add to a tool's name for the root title (FastMCP: `Arguments`). */
const ROOT_TITLE_SUFFIXES = ['', 'args', 'arguments', 'input', 'params', 'parameters', 'request'];

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isBlank(value: unknown): boolean {
  return typeof value === 'string' && value.trim() === '';
}

/** A name as a title generator spells it, reduced to letters and digits: "File Path" = file_path. */
function comparable(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** The `type` union without redundant members, or undefined to keep it as it is. */
function simplifiedType(value: unknown): unknown {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const members: unknown[] = value;
  if (!members.every((m): m is string => typeof m === 'string')) return undefined;
  const unique = [...new Set(members)].filter(
    (m) => !(m === 'integer' && members.includes('number')),
  );
  return unique.length === 1 ? unique[0] : unique;
}

class Minifier {
  private nodes = 0;

  /** `schema` minified; `names` are what a `title` may repeat and still say nothing. */
  schema(schema: unknown, names: readonly string[], depth: number): unknown {
    if (!isObject(schema)) return schema;
    if (depth > MAX_MINIFY_DEPTH || this.nodes >= MAX_MINIFY_NODES) return schema;
    this.nodes += 1;
    const out: Array<[string, unknown]> = [];
    for (const [key, value] of Object.entries(schema)) {
      // Decided on the minified value, so `additionalProperties: {"$comment": "x"}` goes in one
      // pass (minifying is idempotent).
      const shown = this.child(key, value, depth);
      if (!this.dropped(schema, key, shown, names)) out.push([key, shown]);
    }
    // fromEntries defines own properties, so a "__proto__" key stays data instead of a prototype.
    return Object.fromEntries(out);
  }

  private child(key: string, value: unknown, depth: number): unknown {
    if (key === 'type') return simplifiedType(value) ?? value;
    const titled = SCHEMA_MAP_KEYWORDS.get(key);
    if (titled !== undefined && isObject(value)) {
      return Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [
          name,
          this.schema(sub, titled ? [name] : [], depth + 1),
        ]),
      );
    }
    if (SCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value)) {
      const list: unknown[] = value;
      return list.map((sub) => this.schema(sub, [], depth + 1));
    }
    if (SCHEMA_KEYWORDS.has(key)) return this.schema(value, [], depth + 1);
    return value;
  }

  private dropped(schema: JsonObject, key: string, value: unknown, names: readonly string[]) {
    switch (key) {
      case '$schema':
      case '$comment':
        return typeof value === 'string';
      case 'title':
        return (
          typeof value === 'string' &&
          (isBlank(value) ||
            names.some((name) => comparable(name) === comparable(value)) ||
            value.trim() ===
              (typeof schema['description'] === 'string' ? schema['description'] : '').trim())
        );
      case 'description':
        return isBlank(value);
      case 'additionalProperties':
        return (
          value === true ||
          (isObject(value) && Object.keys(value).length === 0) ||
          (value === false && isObject(schema['properties']) && !('patternProperties' in schema))
        );
      case 'required':
        return Array.isArray(value) && value.length === 0;
      default:
        return false;
    }
  }
}

/**
 * `schema` (a tool's `inputSchema`, already through the untrusted-text gate) in its model-facing
 * form: a new value, the input untouched. See the module comment for what goes and why.
 */
export function minifySchema(
  schema: Record<string, unknown>,
  options: MinifyOptions = {},
): Record<string, unknown> {
  const tool = options.toolName;
  const rootNames =
    tool === undefined || comparable(tool) === ''
      ? []
      : ROOT_TITLE_SUFFIXES.map((suffix) => tool + suffix);
  try {
    const minified = new Minifier().schema(schema, rootNames, 1);
    return isObject(minified) ? minified : schema;
  } catch {
    // A throwing getter or a proxy: not JSON off the wire, so not worth minifying.
    return schema;
  }
}
