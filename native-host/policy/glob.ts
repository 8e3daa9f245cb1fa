/**
 * Globs over exposed tool names (design D4: `^[a-zA-Z0-9_-]{1,64}$`), as written in `toolPolicy`.
 * `*` matches any run of characters, the empty run included; `?` matches exactly one character;
 * every other character matches itself, case-sensitively. There are no classes, braces or
 * escapes: the name alphabet has nothing that needs them.
 *
 * Matching never builds a RegExp from the pattern and never backtracks past the previous `*`, so a
 * hostile or careless pattern (`*a*a*a*...b`) costs at most |pattern| x |name| steps instead of
 * the exponential time a naive backtracking matcher can take.
 */

/** Longest exposed tool name (design D4); a glob needing more literal characters matches nothing. */
export const MAX_EXPOSED_NAME_CHARS = 64;

const GLOB_ALPHABET = /^[A-Za-z0-9_*?-]*$/;

/**
 * Why `pattern` can never match an exposed tool name, or undefined when it can. Every problem
 * reported here means "matches no name", so dropping such a pattern never changes a decision.
 */
export function globProblem(pattern: string): string | undefined {
  if (pattern.length === 0) return 'a tool pattern cannot be empty';
  if (!GLOB_ALPHABET.test(pattern)) {
    return "a tool pattern can only contain letters, digits, '_', '-', and the wildcards '*' and '?' (exposed tool names look like github__search_issues)";
  }
  const fixed = pattern.length - countOf(pattern, '*');
  if (fixed > MAX_EXPOSED_NAME_CHARS) {
    return `a tool pattern with more than ${MAX_EXPOSED_NAME_CHARS} characters besides '*' matches no tool name (names have at most ${MAX_EXPOSED_NAME_CHARS})`;
  }
  return undefined;
}

/** `pattern` with each run of `*` collapsed to one `*`: the same set of names, matched faster. */
export function normalizeGlob(pattern: string): string {
  let out = '';
  for (const char of pattern) {
    if (char === '*' && out.endsWith('*')) continue;
    out += char;
  }
  return out;
}

/**
 * Whether `name` matches `pattern` as a whole (not a substring). Total for any strings; `?`
 * matches one UTF-16 code unit, which is one character for the ASCII names of D4.
 */
export function globMatches(pattern: string, name: string): boolean {
  return match(pattern, name, { steps: 0 });
}

/**
 * globMatches, and the work it took: one step per position a piece is tried at plus one per
 * character compared. Never more than (|pattern| + 1) x (|name| + 1); tests bound it instead of
 * timing the matcher, so a backtracking regression fails the same way on every machine.
 */
export function globMatchSteps(pattern: string, name: string): { matches: boolean; steps: number } {
  const work = { steps: 0 };
  const matches = match(pattern, name, work);
  return { matches, steps: work.steps };
}

/** Counts the matcher's work (see globMatchSteps). */
interface Work {
  steps: number;
}

function match(pattern: string, name: string, work: Work): boolean {
  const parts = pattern.split('*');
  const first = parts[0] ?? '';
  if (parts.length === 1) return name.length === first.length && fitsAt(first, name, 0, work);
  const last = parts[parts.length - 1] ?? '';
  const end = name.length - last.length;
  if (first.length > end) return false;
  if (!fitsAt(first, name, 0, work) || !fitsAt(last, name, end, work)) return false;
  // Each middle piece is placed at its leftmost fit: a later fit can only leave less room for the
  // pieces after it, so leftmost is never wrong, and no earlier choice is ever revisited.
  let from = first.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const piece = parts[i] ?? '';
    const at = leftmostFit(piece, name, from, end, work);
    if (at < 0) return false;
    from = at + piece.length;
  }
  return true;
}

/**
 * How specific `pattern` is: its number of literal characters (neither `*` nor `?`). Used to name
 * the most specific of several matching rules; it never decides between allow, ask and deny.
 */
export function globSpecificity(pattern: string): number {
  return pattern.length - countOf(pattern, '*') - countOf(pattern, '?');
}

/** Whether `pattern` has no wildcard, i.e. names exactly one tool. */
export function isLiteralGlob(pattern: string): boolean {
  return !pattern.includes('*') && !pattern.includes('?');
}

/** Whether `piece` (no `*`) matches `name` starting at `at`, within the name. */
function fitsAt(piece: string, name: string, at: number, work: Work): boolean {
  work.steps++;
  if (at < 0 || at + piece.length > name.length) return false;
  for (let i = 0; i < piece.length; i++) {
    work.steps++;
    const want = piece[i];
    if (want !== '?' && want !== name[at + i]) return false;
  }
  return true;
}

/** First index in [from, end - piece.length] where `piece` fits, or -1. */
function leftmostFit(piece: string, name: string, from: number, end: number, work: Work): number {
  for (let at = from; at + piece.length <= end; at++) {
    if (fitsAt(piece, name, at, work)) return at;
  }
  return -1;
}

function countOf(text: string, char: string): number {
  let count = 0;
  for (const c of text) if (c === char) count++;
  return count;
}
