/**
 * The path part of a match pattern (profiles.ts): `*` matches any run of characters (none
 * included, `/` included), everything else itself, case-sensitively. Pure; no RegExp is built
 * from the pattern.
 *
 * The pieces between stars are placed leftmost and never revisited, so a hostile pattern
 * (`/*a*a*a...b`) costs at most (|glob| + 1) x (|path| + 1) steps, never the exponential time of a
 * backtracking matcher.
 */

/** Whether `path` (a URL's pathname) matches `glob` as a whole. */
export function pathGlobMatches(glob: string, path: string): boolean {
  return match(glob, path, { steps: 0 });
}

/**
 * pathGlobMatches, and the work it took: one step per position a piece is tried at plus one per
 * character compared. Tests bound this instead of timing the matcher.
 */
export function pathGlobSteps(glob: string, path: string): { matches: boolean; steps: number } {
  const work = { steps: 0 };
  const matches = match(glob, path, work);
  return { matches, steps: work.steps };
}

/** Counts the matcher's work (see pathGlobSteps). */
interface Work {
  steps: number;
}

function match(glob: string, path: string, work: Work): boolean {
  const pieces = glob.split('*');
  const first = pieces[0] ?? '';
  if (pieces.length === 1) return glob.length === path.length && fitsAt(glob, path, 0, work);
  const last = pieces[pieces.length - 1] ?? '';
  if (first.length + last.length > path.length) return false;
  const end = path.length - last.length;
  if (!fitsAt(first, path, 0, work) || !fitsAt(last, path, end, work)) return false;
  // Leftmost is never wrong: a later fit only leaves less room for the pieces after it.
  let from = first.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i] ?? '';
    const at = leftmostFit(piece, path, from, end, work);
    if (at < 0) return false;
    from = at + piece.length;
  }
  return true;
}

/** Whether `piece` (no `*`) is the text of `path` at `at`. */
function fitsAt(piece: string, path: string, at: number, work: Work): boolean {
  work.steps++;
  if (at < 0 || at + piece.length > path.length) return false;
  for (let i = 0; i < piece.length; i++) {
    work.steps++;
    if (piece.charCodeAt(i) !== path.charCodeAt(at + i)) return false;
  }
  return true;
}

/** First index in [from, end - piece.length] where `piece` fits, or -1. */
function leftmostFit(piece: string, path: string, from: number, end: number, work: Work): number {
  for (let at = from; at + piece.length <= end; at++) {
    if (fitsAt(piece, path, at, work)) return at;
  }
  return -1;
}
