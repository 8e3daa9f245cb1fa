/**
 * The one glob matcher of both sides: `*` matches any run of characters (none included, `/`
 * included), `?` exactly one UTF-16 code unit, every other character itself, case-sensitively.
 * No classes, braces or escapes, and no RegExp is ever built from a pattern. Used for the tool
 * name globs of `toolPolicy` and profiles (`native-host/policy/glob.ts` adds their alphabet and
 * limits) and for the path of a URL match pattern (`match-pattern.ts`, whose parser refuses `?`
 * in a path, so there it is only `*`).
 *
 * The pieces between stars are placed leftmost and never revisited, so a hostile pattern
 * (`*a*a*a...b`) costs at most (|pattern| + 1) x (|text| + 1) steps, never the exponential time
 * of a backtracking matcher.
 */

/** Whether `text` matches `pattern` as a whole (not a substring). Total for any strings. */
export function globMatches(pattern: string, text: string): boolean {
  return match(pattern, text, { steps: 0 });
}

/**
 * globMatches, and the work it took: one step per position a piece is tried at plus one per
 * character compared. Tests bound this instead of timing the matcher, so a backtracking
 * regression fails the same way on every machine.
 */
export function globMatchSteps(pattern: string, text: string): { matches: boolean; steps: number } {
  const work = { steps: 0 };
  const matches = match(pattern, text, work);
  return { matches, steps: work.steps };
}

/** Counts the matcher's work (see globMatchSteps). */
interface Work {
  steps: number;
}

function match(pattern: string, text: string, work: Work): boolean {
  const parts = pattern.split('*');
  const first = parts[0] ?? '';
  if (parts.length === 1) return text.length === first.length && fitsAt(first, text, 0, work);
  const last = parts[parts.length - 1] ?? '';
  const end = text.length - last.length;
  if (first.length > end) return false;
  if (!fitsAt(first, text, 0, work) || !fitsAt(last, text, end, work)) return false;
  // Each middle piece is placed at its leftmost fit: a later fit can only leave less room for the
  // pieces after it, so leftmost is never wrong, and no earlier choice is ever revisited.
  let from = first.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const piece = parts[i] ?? '';
    const at = leftmostFit(piece, text, from, end, work);
    if (at < 0) return false;
    from = at + piece.length;
  }
  return true;
}

/** Whether `piece` (no `*`) matches `text` starting at `at`, within the text. */
function fitsAt(piece: string, text: string, at: number, work: Work): boolean {
  work.steps++;
  if (at < 0 || at + piece.length > text.length) return false;
  for (let i = 0; i < piece.length; i++) {
    work.steps++;
    const want = piece.charCodeAt(i);
    if (want !== 0x3f /* ? */ && want !== text.charCodeAt(at + i)) return false;
  }
  return true;
}

/** First index in [from, end - piece.length] where `piece` fits, or -1. */
function leftmostFit(piece: string, text: string, from: number, end: number, work: Work): number {
  for (let at = from; at + piece.length <= end; at++) {
    if (fitsAt(piece, text, at, work)) return at;
  }
  return -1;
}
