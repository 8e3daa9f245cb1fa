/**
 * A quote-aware command-line splitter that is not a shell (design D6: the host never runs one).
 * The popup's "add a server" field and anything else that turns one line of text into a program
 * and its arguments use it, so `npx -y @modelcontextprotocol/server-filesystem "/Users/me/My
 * Documents"` becomes four arguments and nothing in the text is interpreted:
 *
 * - Whitespace separates arguments; runs of it count once.
 * - `'...'` is literal: no escapes at all inside single quotes.
 * - `"..."` is literal except `\"` (a quote) and `\\` (a backslash); any other backslash stays.
 * - Outside quotes a backslash escapes a quote, a backslash or whitespace, and is literal before
 *   anything else, so `C:\Users\me` survives unquoted (but `\\server\share` becomes
 *   `\server\share`: quote UNC paths, `'\\server\share'`).
 * - Quoted and unquoted pieces that touch join into one argument (`--dir="a b"`); `""` is an
 *   empty argument.
 * - Nothing expands: `$HOME`, `${VAR}`, `~`, `*`, `;`, `|`, `&&` and backticks stay as written.
 * - A quote left open is an error naming where it opened; a NUL character (which no program can
 *   receive) is an error naming where it is. Every other character, Unicode included, is kept.
 *
 * Pure; imports nothing, so the extension and the host split a line the same way.
 */

export type ParsedCommandLine =
  | { readonly ok: true; readonly argv: string[] }
  | {
      readonly ok: false;
      /** What is wrong and how to fix it, naming the position (1-based, in characters). */
      readonly error: string;
      /** Offset of the fault in `text`, in UTF-16 code units (for a text field's selection). */
      readonly index: number;
    };

const WHITESPACE = /\s/u;

/** 1-based position of a UTF-16 offset, counted in code points as a reader counts characters. */
function position(text: string, index: number): number {
  return Array.from(text.slice(0, index)).length + 1;
}

/** Splits `text` into arguments as described above; never throws. */
export function parseCommandLine(text: string): ParsedCommandLine {
  const argv: string[] = [];
  let current = '';
  /** True once the argument being built exists, even if empty (`""`). */
  let started = false;
  let i = 0;
  const fail = (error: string, index: number): ParsedCommandLine => ({ ok: false, error, index });

  while (i < text.length) {
    const c = text.charAt(i);
    if (c === '\u0000') return nulError(text, i);
    if (WHITESPACE.test(c)) {
      if (started) argv.push(current);
      current = '';
      started = false;
      i += 1;
      continue;
    }
    started = true;
    if (c === "'") {
      const close = text.indexOf("'", i + 1);
      if (close === -1) {
        return fail(
          `The single quote at position ${position(text, i)} is never closed; add a closing ' or remove it.`,
          i,
        );
      }
      const body = text.slice(i + 1, close);
      const nul = body.indexOf('\u0000');
      if (nul !== -1) return nulError(text, i + 1 + nul);
      current += body;
      i = close + 1;
      continue;
    }
    if (c === '"') {
      const open = i;
      i += 1;
      let closed = false;
      while (i < text.length) {
        const d = text.charAt(i);
        if (d === '\u0000') return nulError(text, i);
        if (d === '"') {
          closed = true;
          i += 1;
          break;
        }
        const next = text.charAt(i + 1);
        if (d === '\\' && (next === '"' || next === '\\')) {
          current += next;
          i += 2;
          continue;
        }
        current += d;
        i += 1;
      }
      if (!closed) {
        return fail(
          `The double quote at position ${position(text, open)} is never closed; add a closing " (write \\" for a quote inside quotes).`,
          open,
        );
      }
      continue;
    }
    if (c === '\\' && i + 1 < text.length) {
      const next = text.charAt(i + 1);
      if (next === '"' || next === "'" || next === '\\' || WHITESPACE.test(next)) {
        current += next;
        i += 2;
        continue;
      }
    }
    // Anything else, a lone backslash included, is literal. Surrogate pairs are copied unit by
    // unit, in order, so they stay intact.
    current += c;
    i += 1;
  }
  if (started) argv.push(current);
  return { ok: true, argv };
}

function nulError(text: string, index: number): ParsedCommandLine {
  return {
    ok: false,
    error: `The command line contains a NUL character at position ${position(text, index)}, which no program can receive; remove it.`,
    index,
  };
}

/** An argument that reads back as itself without quotes. */
function isBare(arg: string): boolean {
  if (arg === '') return false;
  for (let i = 0; i < arg.length; i += 1) {
    const c = arg.charAt(i);
    if (c === '"' || c === "'" || WHITESPACE.test(c)) return false;
    if (c === '\\') {
      // A backslash is literal only before a character it does not escape, and not at the end
      // (the separator that follows would be escaped).
      const next = arg.charAt(i + 1);
      if (next === '' || next === '\\') return false;
    }
  }
  return true;
}

/**
 * Formats arguments as one line that `parseCommandLine` splits back into exactly `argv`:
 * arguments are quoted only when they need it (whitespace, quotes, a backslash that would
 * escape, empty), in single quotes where possible (nothing inside them is special), otherwise in
 * double quotes with `"` and `\` escaped. For showing a command, e.g. on a card; never for a shell.
 */
export function formatCommandLine(argv: readonly string[]): string {
  return argv
    .map((arg) => {
      if (isBare(arg)) return arg;
      if (!arg.includes("'")) return `'${arg}'`;
      return `"${arg.replace(/["\\]/g, (c) => `\\${c}`)}"`;
    })
    .join(' ');
}
