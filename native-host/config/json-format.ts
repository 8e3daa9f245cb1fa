/**
 * How positions and paths from json-scan.ts are shown to people: line and column as an editor
 * counts them, key paths as they are written, and characters named so that an invisible one
 * cannot hide in a message.
 */

/** One step into a JSON value: an object key or an array index. */
export type JsonPathSegment = string | number;
export type JsonPath = readonly JsonPathSegment[];

/**
 * 1-based line and column of a UTF-16 offset. Lines break at LF, CRLF (one break) and a lone CR;
 * columns count Unicode code points, so "é" or an emoji before the error counts as one column,
 * as a reader counts them.
 */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  return positionsIn(text)(offset);
}

/**
 * `lineColumn` for many offsets into one text: the text is read once, on the first lookup, and
 * each lookup then costs a binary search (a single lookup costs what a scan from the start
 * would). A file with thousands of warnings (one per repeated key) cost a scan from the start
 * for each before: seconds to minutes for a hostile 1 MiB workspace file, before the host could
 * answer the browser.
 */
export function positionsIn(text: string): (offset: number) => { line: number; column: number } {
  let index: { lineStarts: number[]; uncounted: number[] } | undefined;
  return (offset) => {
    index ??= indexLines(text);
    const end = Math.min(Math.max(offset, 0), text.length);
    const line = countAtMost(index.lineStarts, end);
    const start = index.lineStarts[line - 1] ?? 0;
    const skipped = countBelow(index.uncounted, end) - countBelow(index.uncounted, start);
    return { line, column: 1 + end - start - skipped };
  };
}

/** Where lines start, and the offsets that add no column (the CR of a CRLF, a pair's 2nd half). */
function indexLines(text: string): { lineStarts: number[]; uncounted: number[] } {
  const lineStarts = [0];
  const uncounted: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0a || (code === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      lineStarts.push(i + 1);
    } else if (code === 0x0d) {
      uncounted.push(i);
    } else if (code >= 0xdc00 && code <= 0xdfff && isHighSurrogate(text.charCodeAt(i - 1))) {
      uncounted.push(i);
    }
  }
  return { lineStarts, uncounted };
}

/** How many of the sorted `values` are at most `limit`. */
function countAtMost(values: readonly number[], limit: number): number {
  return countBelow(values, limit + 1);
}

/** How many of the sorted `values` are below `limit`. */
function countBelow(values: readonly number[], limit: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((values[middle] ?? 0) < limit) low = middle + 1;
    else high = middle;
  }
  return low;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Formats a path the way people write it: `mcpServers.github.args[2]`. Keys that are not plain
 * words are quoted (`mcpServers["my server"]`) so the text stays unambiguous.
 */
export function formatJsonPath(path: JsonPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z0-9_$-]+$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${quote(segment)}]`;
  }
  return out;
}

/** JSON-quotes `key`, also escaping what JSON.stringify leaves raw but a terminal would act on
 * or hide: bidi overrides, zero-width and other invisible characters. */
function quote(key: string): string {
  return JSON.stringify(key).replace(/[\p{C}\p{Zl}\p{Zp}]/gu, (char) => {
    const hex = codePoint(char.codePointAt(0) ?? 0).slice(2);
    return hex.length === 4 ? `\\u${hex}` : `\\u{${hex}}`;
  });
}

/** A character for a message: itself when visible, else its code point. */
export function describeChar(char: string): string {
  // Invisible characters (a pasted non-breaking space, a zero-width joiner) are named by code.
  return /^[^\p{C}\p{Z}]$/u.test(char)
    ? `'${char}'`
    : `character ${codePoint(char.codePointAt(0) ?? 0)}`;
}

/** `U+00A0` style, at least four hex digits. */
export function codePoint(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Most warnings one file reports; past it, the last one says how many more there were. A file
 * that repeats a key ten thousand times would otherwise fill the hello's frame past what the
 * browser accepts, and every log, with the same line.
 */
export const MAX_WARNINGS_PER_FILE = 50;

/** `warnings` (of one file, in file order) cut to MAX_WARNINGS_PER_FILE, the last one saying so. */
export function capWarnings<W extends { readonly message: string }>(warnings: readonly W[]): W[] {
  if (warnings.length <= MAX_WARNINGS_PER_FILE) return [...warnings];
  const kept = warnings.slice(0, MAX_WARNINGS_PER_FILE);
  const last = kept[kept.length - 1];
  if (last === undefined) return kept;
  const more = warnings.length - MAX_WARNINGS_PER_FILE;
  kept[kept.length - 1] = {
    ...last,
    message: `${last.message} (and ${String(more)} more ${more === 1 ? 'warning' : 'warnings'} in this file, not listed: fix these first)`,
  };
  return kept;
}
