import { SecretStoreError, checkKey, keyProblem } from './keys';
import { firstLine, type CommandRunner } from './run-command';
import type { SecretStore, SecretStoreInfo } from './secret-store';

/**
 * Secrets in the macOS login keychain through `/usr/bin/security`, as generic passwords of
 * service `switchyard` whose account is the key.
 *
 * `security add-generic-password` takes the password only as an argument (`-w value`), which
 * `ps` shows; so writes go through its interactive mode (`security -i`), which reads the command
 * line from stdin and splits it itself (double quotes, backslash escapes any character; lines of
 * at most 4,096 bytes). The value is stored base64-encoded: `find-generic-password -w` prints
 * printable text as is but non-ASCII data as hex, which could not be told from a value that is
 * hex, and base64 needs no quoting. Item not found is exit 44.
 */

export const SECURITY_TOOL = '/usr/bin/security';
export const KEYCHAIN_TIMEOUT_MS = 15_000;
const SERVICE = 'switchyard';
/** `security -i` reads lines into a 4,096-byte buffer; a longer one would be split in two. */
export const MAX_INTERACTIVE_LINE_BYTES = 4_000;
const NOT_FOUND = 44;

export interface KeychainOptions {
  readonly run: CommandRunner;
  readonly env: Readonly<Record<string, string>>;
  readonly tool?: string;
  readonly timeoutMs?: number;
}

/** `text` as one double-quoted word of `security -i`'s line splitter. */
export function quoteForSecurity(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

export class KeychainStore implements SecretStore {
  readonly info: SecretStoreInfo = {
    kind: 'keychain',
    where: 'the login keychain (service "switchyard"), through /usr/bin/security',
  };

  constructor(private readonly options: KeychainOptions) {}

  async get(key: string): Promise<string | undefined> {
    checkKey(key);
    const result = await this.run(['find-generic-password', '-s', SERVICE, '-a', key, '-w']);
    if (result.code === NOT_FOUND) return undefined;
    if (result.code !== 0) throw this.failed('read', key, result.stderr);
    const encoded = result.stdout.replace(/\r?\n$/, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) {
      throw new SecretStoreError(
        `the keychain item for '${key}' (service "switchyard") was not written by Switchyard: delete it with 'switchyard secret delete' or in Keychain Access, and set it again.`,
      );
    }
    return Buffer.from(encoded, 'base64').toString('utf8');
  }

  async set(key: string, value: string): Promise<void> {
    checkKey(key);
    const line =
      ['add-generic-password', '-U', '-s', SERVICE, '-a', quoteForSecurity(key)]
        .concat(['-l', quoteForSecurity(`Switchyard ${key}`), '-w'])
        .join(' ') + ` ${Buffer.from(value, 'utf8').toString('base64')}\n`;
    if (Buffer.byteLength(line) > MAX_INTERACTIVE_LINE_BYTES) {
      throw new SecretStoreError(
        `the value for '${key}' is too long for the keychain's command-line tool (about ${Math.floor(((MAX_INTERACTIVE_LINE_BYTES - 120) * 3) / 4)} bytes at most); set SWITCHYARD_SECRET_STORE=file to keep it in a 0600 file instead.`,
      );
    }
    const result = await this.run(['-i'], line);
    // In interactive mode a failed command prints "<command>: returned N" and sets the exit code.
    if (result.code !== 0 || /returned \d+/.test(result.stderr)) {
      throw this.failed('store', key, result.stderr);
    }
  }

  async delete(key: string): Promise<boolean> {
    checkKey(key);
    const result = await this.run(['delete-generic-password', '-s', SERVICE, '-a', key]);
    if (result.code === NOT_FOUND) return false;
    if (result.code !== 0) throw this.failed('delete', key, result.stderr);
    return true;
  }

  async list(prefix: string): Promise<string[]> {
    // Attributes only (no -d): no secret is ever printed.
    const result = await this.run(['dump-keychain']);
    if (result.code !== 0) throw this.failed('list', prefix, result.stderr);
    return parseKeychainDump(result.stdout)
      .filter((key) => keyProblem(key) === undefined && key.startsWith(prefix))
      .sort();
  }

  private run(args: readonly string[], stdin?: string) {
    return this.options.run({
      command: this.options.tool ?? SECURITY_TOOL,
      args,
      ...(stdin === undefined ? {} : { stdin }),
      env: this.options.env,
      timeoutMs: this.options.timeoutMs ?? KEYCHAIN_TIMEOUT_MS,
      // No controlling terminal: a prompt can never read the user's keystrokes as a value.
      detached: true,
    });
  }

  private failed(what: string, key: string, stderr: string): SecretStoreError {
    return new SecretStoreError(
      `could not ${what} '${key}' in the keychain (security: ${firstLine(stderr) || 'no message'}). Unlock the login keychain, or set SWITCHYARD_SECRET_STORE=file to keep secrets in a 0600 file instead.`,
    );
  }
}

/**
 * The accounts of the `switchyard` generic passwords in `security dump-keychain` output. An
 * attribute reads `"acct"<blob>="text"`, or `"acct"<blob>=0x<hex>  "escaped"` when not
 * printable; items start at a `keychain:` line. Anything else is ignored.
 */
export function parseKeychainDump(text: string): string[] {
  const keys: string[] = [];
  let account: string | undefined;
  let service: string | undefined;
  let generic = false;
  const flush = (): void => {
    if (generic && service === SERVICE && account !== undefined) keys.push(account);
    account = undefined;
    service = undefined;
    generic = false;
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('keychain:')) flush();
    if (/^class: (?:"genp"|0x00000000)/.test(line.trim())) generic = true;
    const attribute = /^\s*"(acct|svce)"<blob>=(?:0x([0-9A-Fa-f]+)\b.*|"(.*)")\s*$/.exec(line);
    if (!attribute) continue;
    const value =
      attribute[2] !== undefined
        ? Buffer.from(attribute[2], 'hex').toString('utf8')
        : (attribute[3] ?? '');
    if (attribute[1] === 'acct') account = value;
    else service = value;
  }
  flush();
  return [...new Set(keys)];
}
