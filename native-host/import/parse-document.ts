import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { TomlError, parse as parseToml } from 'smol-toml';
import { lineColumn } from '../config/json-format';
import { ConfigError } from '../config/load';

/**
 * Parsing other clients' configuration files. A file that does not parse is rejected whole with
 * a located ConfigError: guessing what a broken file meant could import the wrong command.
 *
 * JSON files are read as JSONC (comments and trailing commas allowed): VS Code, Zed and Windsurf
 * allow them, and accepting them elsewhere costs nothing, since a file is only ever read here.
 */

/** Deepest nesting accepted. Client configs are shallow; the cap keeps a hostile file from
 * exhausting the stack. */
export const MAX_DOCUMENT_DEPTH = 64;

const NESTED = `nested deeper than ${MAX_DOCUMENT_DEPTH} levels; this is not a client configuration file`;

/** Removes a leading UTF-8 byte order mark; rejects an empty document. */
function body(text: string, file: string): string {
  const stripped = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (stripped.trim() === '') throw new ConfigError({ file, detail: 'the file is empty' });
  return stripped;
}

/**
 * Parses JSON or JSONC. Strict JSON (the common case, and the large `~/.claude.json`) goes
 * through JSON.parse, which is fast and keeps a `"__proto__"` key as a plain property; anything
 * else through jsonc-parser, whose first error gives the line and column.
 */
export function parseJsonDocument(text: string, file: string): unknown {
  const source = body(text, file);
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    if (error instanceof RangeError) throw new ConfigError({ file, detail: NESTED });
    return parseJsonc(source, file);
  }
  checkDepth(value, file);
  return value;
}

function parseJsonc(source: string, file: string): unknown {
  const errors: ParseError[] = [];
  let tree: Node | undefined;
  try {
    tree = parseTree(source, errors, { allowTrailingComma: true, disallowComments: false });
  } catch (error) {
    if (error instanceof RangeError) throw new ConfigError({ file, detail: NESTED });
    throw error;
  }
  const first = errors[0];
  if (first !== undefined || tree === undefined) {
    const offset = first?.offset ?? 0;
    const what = first === undefined ? 'no JSON value' : describe(printParseErrorCode(first.error));
    throw new ConfigError({
      file,
      ...lineColumn(source, offset),
      detail: `${what}. The file is not valid JSON, so nothing was imported from it; fix it in its own app and try again`,
    });
  }
  return toValue(tree, 0, file);
}

/** jsonc-parser's error codes in words. */
function describe(code: ReturnType<typeof printParseErrorCode>): string {
  switch (code) {
    case 'CloseBraceExpected':
      return "a '}' is missing (the file may be cut off)";
    case 'CloseBracketExpected':
      return "a ']' is missing (the file may be cut off)";
    case 'CommaExpected':
      return "a ',' is missing";
    case 'ColonExpected':
      return "a ':' is missing after a property name";
    case 'PropertyNameExpected':
      return 'a property name in double quotes was expected';
    case 'ValueExpected':
      return 'a value was expected';
    case 'EndOfFileExpected':
      return 'unexpected text after the end of the JSON value';
    case 'UnexpectedEndOfString':
      return 'a string is not closed';
    case 'UnexpectedEndOfComment':
      return "a '/*' comment is not closed";
    case 'UnexpectedEndOfNumber':
    case 'InvalidNumberFormat':
      return 'a number is malformed';
    case 'InvalidUnicode':
    case 'InvalidEscapeCharacter':
      return 'a string has an invalid escape sequence';
    case 'InvalidCharacter':
      return 'a string contains a control character';
    case 'InvalidCommentToken':
    case 'InvalidSymbol':
    case '<unknown ParseErrorCode>':
      return 'unexpected character';
  }
}

/** Builds the value of a jsonc-parser node. Members are defined, not assigned, so a
 * `"__proto__"` key becomes a plain property (as with JSON.parse) instead of a prototype. */
function toValue(node: Node, depth: number, file: string): unknown {
  if (depth > MAX_DOCUMENT_DEPTH) throw new ConfigError({ file, detail: NESTED });
  switch (node.type) {
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        const name: unknown = key?.value;
        if (typeof name !== 'string' || value === undefined) continue;
        Object.defineProperty(result, name, {
          value: toValue(value, depth + 1, file),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return result;
    }
    case 'array':
      return (node.children ?? []).map((child) => toValue(child, depth + 1, file));
    case 'property':
      return undefined; // never reached: properties are read through their object
    case 'string':
    case 'number':
    case 'boolean':
    case 'null': {
      const value: unknown = node.value;
      return value;
    }
  }
}

/** JSON.parse has no depth limit of its own that we control; walk what it built. */
function checkDepth(value: unknown, file: string): void {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item.value !== 'object' || item.value === null) continue;
    if (item.depth > MAX_DOCUMENT_DEPTH) throw new ConfigError({ file, detail: NESTED });
    for (const child of Object.values(item.value)) {
      stack.push({ value: child, depth: item.depth + 1 });
    }
  }
}

/** Parses TOML (Codex's config.toml). Errors carry the line and column. */
export function parseTomlDocument(text: string, file: string): unknown {
  const source = body(text, file);
  try {
    return parseToml(source, { maxDepth: MAX_DOCUMENT_DEPTH, unsafeKeyBehaviour: 'keep' });
  } catch (error) {
    if (error instanceof TomlError) {
      // The message repeats the offending line after a blank line: keep only the first line.
      const reason = (error.message.split('\n')[0] ?? 'invalid TOML').replace(
        /^Invalid TOML document: /,
        '',
      );
      throw new ConfigError({
        file,
        line: error.line,
        column: error.column,
        detail: `${reason}. The file is not valid TOML, so nothing was imported from it; fix it and try again`,
      });
    }
    if (error instanceof RangeError) throw new ConfigError({ file, detail: NESTED });
    throw error;
  }
}
