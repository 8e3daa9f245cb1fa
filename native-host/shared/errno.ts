/**
 * The `code` of a Node system error (`ENOENT`, `EACCES`, ...), or undefined when `error` carries
 * none. Errors from `node:fs` and `node:child_process` are `unknown` at a catch: this is the one
 * place that looks inside them.
 */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** Whether `error` is a Node system error with this `code`. */
export function isErrno(error: unknown, code: string): boolean {
  return errnoCode(error) === code;
}
