/**
 * The names of secrets: `var:NAME` for a `${VAR}` value, `oauth:<server>:<what>` for a remote
 * server's tokens (secret-store.ts). Every backend checks a key here before it reaches a command
 * line, a file or a store, so a hostile server name cannot smuggle a control character, a newline
 * (which would forge a line of a store's output) or an unbounded string into one.
 */

/** A POSIX variable name, the only kind `${VAR}` references name (config/env.ts). */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Longest key, in UTF-16 units; `oauth:` + a 64-character server name + a suffix fits easily. */
export const MAX_KEY_CHARS = 256;

/** The namespace of user-given variable values. */
export const VARIABLE_PREFIX = 'var:';

// Controls (C0, DEL, C1), line and paragraph separators, and the bidi and zero-width format
// characters: a key is shown by `secret list` and doctor, and lands in stores' listings.
const UNSAFE_IN_KEY =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point.
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/u;

/** Whether `name` is a POSIX variable name (`GITHUB_TOKEN`, `_x1`), as `secret set` requires. */
export function isVariableName(name: string): boolean {
  return name.length <= MAX_KEY_CHARS - VARIABLE_PREFIX.length && VARIABLE_NAME.test(name);
}

/** The store key of variable `name`: `var:NAME`. */
export function variableKey(name: string): string {
  return `${VARIABLE_PREFIX}${name}`;
}

/** Why `key` cannot be a secret's key, or undefined when it can. */
export function keyProblem(key: string): string | undefined {
  if (key.length === 0) return 'a secret key cannot be empty';
  if (key.length > MAX_KEY_CHARS) return `a secret key has at most ${MAX_KEY_CHARS} characters`;
  if (UNSAFE_IN_KEY.test(key)) return 'a secret key cannot contain control or invisible characters';
  if (!/^[a-z]+:./.test(key))
    return "a secret key is namespaced: 'var:NAME' or 'oauth:<server>:<what>'";
  if (key.startsWith(VARIABLE_PREFIX) && !isVariableName(key.slice(VARIABLE_PREFIX.length))) {
    return `'${key}' does not name a variable: after 'var:' comes a POSIX name such as GITHUB_TOKEN`;
  }
  return undefined;
}

/** Throws SecretStoreError when `key` is not a valid key (see keyProblem). */
export function checkKey(key: string): void {
  const problem = keyProblem(key);
  if (problem !== undefined) throw new SecretStoreError(problem);
}

/**
 * A store that cannot be read or written: a missing tool, a timeout, garbage in its answer, a
 * corrupt or unsafe file. The message names the store and says what to do; it never holds a value.
 */
export class SecretStoreError extends Error {
  override readonly name = 'SecretStoreError';
}
