/**
 * Where the host keeps secrets: OAuth tokens, refresh tokens and client secrets of remote servers,
 * and values the user gives for `${VAR}` references (`switchyard secret set NAME`). Issue 11,
 * item 4. Types only: the backends (the OS secret store where there is one, otherwise a 0600 file
 * under `$SWITCHYARD_HOME`) implement it, and the OAuth provider and the variable lookup use it.
 *
 * Keys are namespaced by their user: `var:NAME` for a variable, `oauth:<server>:<what>` for a
 * server's tokens and client registration. A value is an opaque string (JSON where structured);
 * no method ever logs one.
 */

/** Which backend holds the secrets, for doctor and docs. */
export interface SecretStoreInfo {
  /** `secret-service` (libsecret, Linux), `keychain` (macOS), `credential-manager` (Windows),
   * `file` (0600 file under $SWITCHYARD_HOME), or `memory` (tests). */
  readonly kind: 'secret-service' | 'keychain' | 'credential-manager' | 'file' | 'memory';
  /** Human-readable: "the login keychain", "/home/u/.switchyard/secrets.json (mode 0600)". */
  readonly where: string;
  /** Why this backend and not another, when that is worth saying: "secret-tool was not found
   * (install libsecret-tools to use the Secret Service)". For doctor; never holds a value. */
  readonly note?: string;
}

export interface SecretStore {
  readonly info: SecretStoreInfo;
  /** The value, or undefined when the key is not set. Rejects only when the store cannot be read. */
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  /** Whether something was deleted. */
  delete(key: string): Promise<boolean>;
  /** The keys set under `prefix` (e.g. `var:`), sorted; never the values. */
  list(prefix: string): Promise<string[]>;
}
