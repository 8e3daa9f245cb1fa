/**
 * A strict JSON parser (RFC 8259) that remembers where every value sits, so config errors can name
 * a line and column. JSON.parse reports positions only inside its message text, and that text
 * differs between Node versions, so it cannot be relied on.
 *
 * Offsets are UTF-16 indexes into the text; `lineColumn` turns them into what an editor shows.
 */

import { codePoint, describeChar, type JsonPath } from './json-format';

/** Deepest nesting accepted. Config files are shallow; the cap keeps a hostile file from
 * exhausting the stack of this recursive parser. */
export const MAX_JSON_DEPTH = 64;

/** Where one value sits in the text. `keyOffset` is set for object members (the opening quote). */
export interface JsonLocation {
  readonly valueOffset: number;
  readonly keyOffset?: number;
}

/** A key that appears twice in one object; as with JSON.parse, the later value wins. */
export interface JsonDuplicateKey {
  readonly path: JsonPath;
  readonly keyOffset: number;
}

export interface ScannedJson {
  /** The parsed value, identical to what JSON.parse returns for the same text. */
  readonly value: unknown;
  readonly duplicates: readonly JsonDuplicateKey[];
  /** Location of the value at `path`, or undefined when the text has no such value. */
  locate(path: JsonPath): JsonLocation | undefined;
}

/** The text is not JSON. `offset` is where the parser stopped; `reason` says what was wrong
 * and, where a fix is obvious, what to do. */
export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
  readonly offset: number;
  readonly reason: string;

  constructor(offset: number, reason: string) {
    super(reason);
    this.offset = offset;
    this.reason = reason;
  }
}

/**
 * Parses `text` as strict JSON (no comments, no trailing commas, no single quotes), recording
 * the location of every value. Throws JsonSyntaxError on the first error, or when nesting is
 * deeper than `maxDepth`.
 */
export function scanJson(text: string, maxDepth: number = MAX_JSON_DEPTH): ScannedJson {
  return new Scanner(text, maxDepth).run();
}

const ESCAPES: ReadonlyMap<string, string> = new Map([
  ['"', '"'],
  ['\\', '\\'],
  ['/', '/'],
  ['b', '\b'],
  ['f', '\f'],
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
]);

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const WORD = /[A-Za-z_$][A-Za-z0-9_$]*/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;

class Scanner {
  private pos = 0;
  private readonly locations = new Map<string, JsonLocation>();
  private readonly duplicates: JsonDuplicateKey[] = [];
  private readonly text: string;
  private readonly maxDepth: number;

  constructor(text: string, maxDepth: number) {
    this.text = text;
    this.maxDepth = maxDepth;
  }

  run(): ScannedJson {
    this.skipWhitespace();
    const value = this.value([], 0, undefined);
    this.skipWhitespace();
    if (this.pos < this.text.length) {
      throw this.unexpected('after the end of the JSON value');
    }
    const locations = this.locations;
    return {
      value,
      duplicates: this.duplicates,
      locate: (path) => locations.get(pathKey(path)),
    };
  }

  private value(path: JsonPath, depth: number, keyOffset: number | undefined): unknown {
    const start = this.pos;
    this.locations.set(
      pathKey(path),
      keyOffset === undefined ? { valueOffset: start } : { valueOffset: start, keyOffset },
    );
    const char = this.text[this.pos];
    switch (char) {
      case '{':
        return this.object(path, depth + 1);
      case '[':
        return this.array(path, depth + 1);
      case '"':
        return this.string();
      case undefined:
        throw this.fail(start, 'unexpected end of file: a value is missing');
      default:
        if (char === '-' || (char >= '0' && char <= '9')) return this.number();
        return this.literal();
    }
  }

  private object(path: JsonPath, depth: number): Record<string, unknown> {
    if (depth > this.maxDepth) {
      throw this.fail(this.pos, `nested deeper than ${this.maxDepth} levels`);
    }
    this.pos++; // '{'
    const result: Record<string, unknown> = {};
    const seen = new Set<string>();
    this.skipWhitespace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return result;
    }
    for (;;) {
      const keyOffset = this.pos;
      if (this.text[this.pos] !== '"') {
        throw this.unexpected('where a property name in double quotes was expected');
      }
      const key = this.string();
      this.skipWhitespace();
      if (this.text[this.pos] !== ':') {
        throw this.unexpected(`after the property name "${key}"; a ':' is missing`);
      }
      this.pos++;
      this.skipWhitespace();
      const memberPath = [...path, key];
      if (seen.has(key)) this.duplicates.push({ path: memberPath, keyOffset });
      seen.add(key);
      // defineProperty, not assignment: a "__proto__" key must become an own property, as it
      // does with JSON.parse, instead of replacing the object's prototype.
      Object.defineProperty(result, key, {
        value: this.value(memberPath, depth, keyOffset),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipWhitespace();
      const commaOffset = this.pos;
      const next = this.text[this.pos];
      if (next === '}') {
        this.pos++;
        return result;
      }
      if (next !== ',') {
        throw next === '"'
          ? this.fail(this.pos, "a ',' is missing between two properties")
          : this.unexpected("after a property value; expected ',' or '}'");
      }
      this.pos++;
      this.skipWhitespace();
      if (this.text[this.pos] === '}') {
        throw this.fail(commaOffset, "trailing comma before '}': remove the last ','");
      }
    }
  }

  private array(path: JsonPath, depth: number): unknown[] {
    if (depth > this.maxDepth) {
      throw this.fail(this.pos, `nested deeper than ${this.maxDepth} levels`);
    }
    this.pos++; // '['
    const result: unknown[] = [];
    this.skipWhitespace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return result;
    }
    for (;;) {
      result.push(this.value([...path, result.length], depth, undefined));
      this.skipWhitespace();
      const commaOffset = this.pos;
      const next = this.text[this.pos];
      if (next === ']') {
        this.pos++;
        return result;
      }
      if (next !== ',') {
        throw this.unexpected("after an array element; expected ',' or ']'");
      }
      this.pos++;
      this.skipWhitespace();
      if (this.text[this.pos] === ']') {
        throw this.fail(commaOffset, "trailing comma before ']': remove the last ','");
      }
    }
  }

  private string(): string {
    const open = this.pos;
    this.pos++; // opening quote
    let result = '';
    let runStart = this.pos;
    for (;;) {
      const code = this.text.charCodeAt(this.pos);
      if (Number.isNaN(code)) {
        throw this.fail(open, "this string is never closed: a '\"' is missing");
      }
      if (code === 0x22) break;
      if (code < 0x20) {
        throw this.fail(
          this.pos,
          code === 0x0a || code === 0x0d
            ? "line break inside a string: close the string with '\"' or write the break as \\n"
            : `control character ${codePoint(code)} inside a string: write it as a \\u escape`,
        );
      }
      if (code !== 0x5c) {
        this.pos++;
        continue;
      }
      result += this.text.slice(runStart, this.pos);
      const escapeOffset = this.pos;
      const letter = this.text[this.pos + 1];
      if (letter === 'u') {
        const hex = this.text.slice(this.pos + 2, this.pos + 6);
        if (!HEX4.test(hex)) {
          throw this.fail(escapeOffset, '\\u must be followed by four hexadecimal digits');
        }
        result += String.fromCharCode(parseInt(hex, 16));
        this.pos += 6;
      } else {
        if (letter === undefined) {
          throw this.fail(open, "this string is never closed: a '\"' is missing");
        }
        const decoded = ESCAPES.get(letter);
        if (decoded === undefined) {
          throw this.fail(
            escapeOffset,
            `invalid escape '\\${letter}' in a string: write a backslash as \\\\`,
          );
        }
        result += decoded;
        this.pos += 2;
      }
      runStart = this.pos;
    }
    result += this.text.slice(runStart, this.pos);
    this.pos++; // closing quote
    return result;
  }

  private number(): number {
    const start = this.pos;
    NUMBER.lastIndex = start;
    const match = NUMBER.exec(this.text);
    if (match === null) {
      throw this.fail(start, "invalid number: '-' must be followed by a digit");
    }
    this.pos = start + match[0].length;
    const next = this.text[this.pos];
    if (next !== undefined && next >= '0' && next <= '9') {
      throw this.fail(start, 'numbers cannot have leading zeros');
    }
    if (next === '.' || next === 'e' || next === 'E') {
      throw this.fail(start, 'invalid number: a digit must follow the decimal point or exponent');
    }
    return Number(match[0]);
  }

  private literal(): boolean | null {
    const start = this.pos;
    WORD.lastIndex = start;
    const word = WORD.exec(this.text)?.[0];
    if (word === undefined) throw this.unexpected('where a value was expected');
    this.pos += word.length;
    switch (word) {
      case 'true':
        return true;
      case 'false':
        return false;
      case 'null':
        return null;
      case 'NaN':
      case 'Infinity':
      case 'undefined':
        throw this.fail(start, `${word} is not a JSON value: use null or a number`);
      default:
        throw this.fail(start, `unexpected word '${word}': strings must be in double quotes`);
    }
  }

  private skipWhitespace(): void {
    for (;;) {
      const code = this.text.charCodeAt(this.pos);
      if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return;
      this.pos++;
    }
  }

  /** An error at the current position that names the character found there. */
  private unexpected(context: string): JsonSyntaxError {
    const code = this.text.codePointAt(this.pos);
    if (code === undefined) return this.fail(this.pos, `unexpected end of file ${context}`);
    const char = String.fromCodePoint(code);
    const next = this.text[this.pos + 1];
    if (char === '/' && (next === '/' || next === '*')) {
      return this.fail(
        this.pos,
        'comments are not allowed: this file is strict JSON, not JSONC; remove the comment',
      );
    }
    if (char === "'") {
      return this.fail(this.pos, 'strings and property names must use double quotes, not single');
    }
    WORD.lastIndex = this.pos;
    const word = WORD.exec(this.text)?.[0];
    if (word !== undefined && context.startsWith('where a property name')) {
      return this.fail(this.pos, `property name '${word}' must be in double quotes`);
    }
    return this.fail(this.pos, `unexpected ${describeChar(char)} ${context}`);
  }

  private fail(offset: number, reason: string): JsonSyntaxError {
    return new JsonSyntaxError(offset, reason);
  }
}

/** The Map key of a path. JSON of the segment array is injective: "0" and 0 stay distinct. */
function pathKey(path: JsonPath): string {
  return JSON.stringify(path);
}
