/**
 * Globs over exposed tool names (design D4: `^[a-zA-Z0-9_-]{1,64}$`), as written in `toolPolicy`.
 * `*` matches any run of characters, the empty run included; `?` matches exactly one character;
 * every other character matches itself, case-sensitively. There are no classes, braces or
 * escapes: the name alphabet has nothing that needs them.
 *
 * Matching is `protocol/glob-match.ts`, shared with the URL match patterns of profiles: linear
 * in |pattern| x |name|, never a RegExp built from the pattern.
 */

export { globMatchSteps, globMatches } from '../../protocol/glob-match';

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

function countOf(text: string, char: string): number {
  let count = 0;
  for (const c of text) if (c === char) count++;
  return count;
}
