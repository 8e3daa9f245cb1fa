import { cutText, visibleParts, type VisiblePart } from './visible-text';

/**
 * Pretty JSON as tokens for JsonView: 2-space indentation, keys in the order they came, and every
 * string shown whole, with its newlines, tabs, edge spaces and invisible characters as visible
 * markers (visible-text.ts). Quotes and backslashes inside strings stay escaped as in JSON, so a
 * string cannot draw fake structure; a newline inside a string is a `↵` marker followed by a real
 * line break, so a file's content reads as lines. Nothing is dropped: `collapseTokens` cuts a long
 * listing to a prefix and says how many characters it left out.
 */

export type JsonToken =
  | { readonly kind: 'punct' | 'number' | 'literal' | 'indent'; readonly text: string }
  | { readonly kind: 'break' }
  /** Part of a string value or an object key (quotes included as text). */
  | { readonly kind: 'chars'; readonly role: 'key' | 'string'; readonly text: string }
  | {
      readonly kind: 'marker';
      readonly role: 'key' | 'string';
      readonly part: Extract<VisiblePart, { kind: 'marker' }>;
    };

const INDENT = '  ';
/** Deeper than this, the rest is shown as compact JSON text (a model can nest arrays arbitrarily). */
export const MAX_JSON_DEPTH = 64;

function escapeForJson(text: string): string {
  return text.replace(/[\\"]/g, (char) => `\\${char}`);
}

function stringTokens(value: string, role: 'key' | 'string'): JsonToken[] {
  const tokens: JsonToken[] = [{ kind: 'chars', role, text: '"' }];
  for (const part of visibleParts(value, { whitespace: true, edgeSpaces: true })) {
    tokens.push(
      part.kind === 'text'
        ? { kind: 'chars', role, text: escapeForJson(part.text) }
        : { kind: 'marker', role, part },
    );
  }
  tokens.push({ kind: 'chars', role, text: '"' });
  return tokens;
}

function compact(value: unknown): string {
  try {
    // undefined for values JSON cannot hold.
    const text = JSON.stringify(value) as string | undefined;
    return text ?? String(value);
  } catch {
    return String(value);
  }
}

function scalarTokens(value: unknown): JsonToken[] | undefined {
  if (value === null) return [{ kind: 'literal', text: 'null' }];
  switch (typeof value) {
    case 'string':
      return stringTokens(value, 'string');
    case 'number':
      return [
        { kind: 'number', text: Number.isFinite(value) ? JSON.stringify(value) : String(value) },
      ];
    case 'bigint':
      return [{ kind: 'number', text: value.toString() }];
    case 'boolean':
      return [{ kind: 'literal', text: String(value) }];
    case 'undefined':
      return [{ kind: 'literal', text: 'undefined' }];
    case 'function':
    case 'symbol':
      return [{ kind: 'literal', text: String(value) }];
    case 'object':
      return undefined;
  }
  return undefined;
}

function pushTokens(value: unknown, depth: number, out: JsonToken[]): void {
  const scalar = scalarTokens(value);
  if (scalar !== undefined) {
    out.push(...scalar);
    return;
  }
  if (depth >= MAX_JSON_DEPTH) {
    out.push({ kind: 'chars', role: 'string', text: compact(value) });
    return;
  }
  const isArray = Array.isArray(value);
  // Only non-null objects get here (scalarTokens answered everything else).
  const entries: [string | null, unknown][] = isArray
    ? (value as unknown[]).map((item) => [null, item])
    : Object.entries(value as object);
  const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) {
    out.push({ kind: 'punct', text: `${open}${close}` });
    return;
  }
  out.push({ kind: 'punct', text: open }, { kind: 'break' });
  entries.forEach(([key, item], index) => {
    out.push({ kind: 'indent', text: INDENT.repeat(depth + 1) });
    if (key !== null) out.push(...stringTokens(key, 'key'), { kind: 'punct', text: ': ' });
    pushTokens(item, depth + 1, out);
    if (index < entries.length - 1) out.push({ kind: 'punct', text: ',' });
    out.push({ kind: 'break' });
  });
  out.push({ kind: 'indent', text: INDENT.repeat(depth) }, { kind: 'punct', text: close });
}

/** The tokens of `value` pretty-printed. */
export function jsonTokens(value: unknown): JsonToken[] {
  const out: JsonToken[] = [];
  pushTokens(value, 0, out);
  return out;
}

/** Characters a token stands for (a marker counts the characters it replaces). */
export function tokenChars(token: JsonToken): number {
  switch (token.kind) {
    case 'break':
      return 1;
    case 'marker':
      return token.part.source.length;
    case 'punct':
    case 'number':
    case 'literal':
    case 'indent':
    case 'chars':
      return token.text.length;
  }
}

export function totalChars(tokens: readonly JsonToken[]): number {
  return tokens.reduce((sum, token) => sum + tokenChars(token), 0);
}

/**
 * The tokens that fit in `limit` characters (the last text token cut to fit, never inside a
 * surrogate pair) and how many characters were left out.
 */
export function collapseTokens(
  tokens: readonly JsonToken[],
  limit: number,
): { readonly shown: readonly JsonToken[]; readonly hidden: number } {
  const total = totalChars(tokens);
  if (total <= limit) return { shown: tokens, hidden: 0 };
  const shown: JsonToken[] = [];
  let used = 0;
  for (const token of tokens) {
    const size = tokenChars(token);
    if (used + size <= limit) {
      shown.push(token);
      used += size;
      continue;
    }
    if (token.kind === 'chars') {
      const { shown: text } = cutText(token.text, limit - used);
      if (text !== '') {
        shown.push({ ...token, text });
        used += text.length;
      }
    }
    break;
  }
  return { shown, hidden: total - used };
}
