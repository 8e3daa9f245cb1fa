import { SecretStoreError, checkKey, keyProblem } from './keys';
import { firstLine, type CommandRequest, type CommandRunner } from './run-command';
import type { SecretStore, SecretStoreInfo } from './secret-store';

/**
 * Secrets in the Secret Service (gnome-keyring, KeePassXC, KWallet's bridge) through libsecret's
 * `secret-tool` (package libsecret-tools). Each secret is one item with the attributes
 * `application=switchyard` and `key=<key>`, labelled "Switchyard <key>" in Seahorse.
 *
 * What the tool does, measured with libsecret-tools 0.20.5 and gnome-keyring 42.1:
 * - `store` reads the value from stdin as is (no newline is added or stripped): the value never
 *   reaches the argv.
 * - `lookup` prints the value exactly and exits 0 (an empty value too); a missing item exits 1
 *   with nothing on stderr; a failure exits 1 with a message on stderr.
 * - `clear` exits 0 when it deleted something, 1 with an empty stderr when nothing matched.
 * - `search --all` prints label and SECRET on stdout but the attributes on stderr, so `list`
 *   reads only stderr: a value with a newline in it cannot forge a key there.
 */

export const SECRET_TOOL_TIMEOUT_MS = 15_000;
const APPLICATION = 'switchyard';

export interface SecretServiceOptions {
  /** Absolute path of secret-tool. */
  readonly tool: string;
  readonly run: CommandRunner;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

export class SecretServiceStore implements SecretStore {
  readonly info: SecretStoreInfo = {
    kind: 'secret-service',
    where: 'the Secret Service (your login keyring), through secret-tool',
  };

  constructor(private readonly options: SecretServiceOptions) {}

  async get(key: string): Promise<string | undefined> {
    checkKey(key);
    const result = await this.run(['lookup', 'application', APPLICATION, 'key', key]);
    if (result.code === 0) return result.stdout;
    if (result.code === 1 && result.stderr.trim() === '') return undefined;
    throw this.failed('read', key, result.stderr);
  }

  async set(key: string, value: string): Promise<void> {
    checkKey(key);
    const result = await this.run(
      ['store', `--label=Switchyard ${key}`, 'application', APPLICATION, 'key', key],
      value,
    );
    if (result.code !== 0) throw this.failed('store', key, result.stderr);
  }

  async delete(key: string): Promise<boolean> {
    checkKey(key);
    const result = await this.run(['clear', 'application', APPLICATION, 'key', key]);
    if (result.code === 0) return true;
    if (result.code === 1 && result.stderr.trim() === '') return false;
    throw this.failed('delete', key, result.stderr);
  }

  async list(prefix: string): Promise<string[]> {
    const result = await this.run(['search', '--all', 'application', APPLICATION]);
    const keys = new Set<string>();
    for (const line of result.stderr.split('\n')) {
      const match = /^attribute\.key = (.*)$/.exec(line);
      const key = match?.[1];
      if (key !== undefined && keyProblem(key) === undefined && key.startsWith(prefix)) {
        keys.add(key);
      }
    }
    // Exit 1 with no items is "nothing stored"; any other line on stderr then is a failure.
    const noise = result.stderr
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('attribute.'));
    if (result.code !== 0 && (noise.length > 0 || keys.size > 0)) {
      throw this.failed('list', prefix, result.stderr);
    }
    return [...keys].sort();
  }

  private run(args: readonly string[], stdin?: string) {
    const request: CommandRequest = {
      command: this.options.tool,
      args,
      ...(stdin === undefined ? {} : { stdin }),
      env: this.options.env,
      timeoutMs: this.options.timeoutMs ?? SECRET_TOOL_TIMEOUT_MS,
    };
    return this.options.run(request);
  }

  private failed(what: string, key: string, stderr: string): SecretStoreError {
    const why = firstLine(stderr).replace(/^secret-tool:\s*/, '') || 'no message';
    return new SecretStoreError(
      `could not ${what} '${key}' in the Secret Service (secret-tool: ${why}). Unlock your keyring, or set SWITCHYARD_SECRET_STORE=file to keep secrets in a 0600 file instead.`,
    );
  }
}

/**
 * Whether a Secret Service answers on the session bus: a search that matches nothing exits 1
 * with an empty stderr when one does, and says why on stderr when none does (no bus on a
 * headless box, no service on the bus). It never unlocks anything, so it never prompts.
 */
export async function probeSecretService(
  options: SecretServiceOptions,
): Promise<
  { readonly ok: true } | { readonly ok: false; readonly why: string; readonly timedOut: boolean }
> {
  if (
    options.env['DBUS_SESSION_BUS_ADDRESS'] === undefined &&
    options.env['XDG_RUNTIME_DIR'] === undefined
  ) {
    return {
      ok: false,
      why: 'no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)',
      timedOut: false,
    };
  }
  try {
    const result = await options.run({
      command: options.tool,
      args: ['search', 'application', APPLICATION, 'key', 'probe:none'],
      env: options.env,
      timeoutMs: options.timeoutMs ?? 5_000,
    });
    if ((result.code === 0 || result.code === 1) && result.stderr.trim() === '')
      return { ok: true };
    return {
      ok: false,
      why: firstLine(result.stderr) || `exit ${String(result.code)}`,
      timedOut: false,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, why: message, timedOut: /did not answer/.test(message) };
  }
}
