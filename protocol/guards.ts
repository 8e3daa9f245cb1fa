/**
 * Small guards both sides use, in one place: pure, no DOM and no Node types, like the rest
 * of protocol/.
 */

/**
 * Ends an exhaustive switch (style habit 4): with every case handled `value` is `never`, so a
 * new member of the union fails to compile here. At run time (a value from an older or newer
 * peer) it throws, naming `what` the value was.
 */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}

/** Whether `value` is a plain object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The message of anything thrown: an Error's `message`, else the value as a string. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Whether a JSON value nests objects or arrays more than `maxDepth` levels deep (`{}` and `[]`
 * are one level; strings and numbers none). Iterative, so a value too deep for any recursive
 * walk (JSON.stringify overflows the stack a few thousand levels down) is measured safely.
 */
export function nestedDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: Array<{ readonly node: unknown; readonly depth: number }> = [
    { node: value, depth: 1 },
  ];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { node, depth } = item;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > maxDepth) return true;
    for (const child of Object.values(node)) stack.push({ node: child, depth: depth + 1 });
  }
  return false;
}
