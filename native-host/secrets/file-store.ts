import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../shared/atomic-write';
import { readHandleBounded } from '../shared/bounded-read';
import { errnoCode } from '../shared/errno';
import { withFileLock, type FileLockOptions } from '../shared/file-lock';
import { SecretStoreError, checkKey, keyProblem } from './keys';
import type { SecretStore, SecretStoreInfo } from './secret-store';

/**
 * The fallback store: `$SWITCHYARD_HOME/secrets.json`, mode 0600 in a 0700 folder, for a machine
 * without an OS secret store (a headless box, a container) or a user who asks for it
 * (`SWITCHYARD_SECRET_STORE=file`). The values are plain text on disk: the file's mode is the
 * only protection, so a file other users can read or write is refused, never used or "fixed"
 * silently (its secrets may already have been read: the user must know, and replace them).
 *
 * Every change is a read-modify-write under the file's lock (decision 0015), written atomically
 * (a crash leaves the old file or the new one), so two hosts or a host and the CLI lose nothing.
 * The file is read as hostile: bounded, a regular file only (no FIFO, no symlink), strictly
 * shaped; a corrupt file is an error naming it, never an empty store that a write would clobber.
 */

export const SECRETS_FILE_NAME = 'secrets.json';
export const MAX_SECRETS_FILE_BYTES = 1024 * 1024;
const FILE_MODE = 0o600;

const SecretsFileSchema = z
  .object({ version: z.literal(1), secrets: z.record(z.string(), z.string()) })
  .strict();

export interface FileSecretStoreOptions {
  /** Absolute `$SWITCHYARD_HOME`. */
  readonly home: string;
  readonly platform: NodeJS.Platform;
  readonly lock?: FileLockOptions;
}

export class FileSecretStore implements SecretStore {
  readonly info: SecretStoreInfo;
  readonly file: string;

  constructor(private readonly options: FileSecretStoreOptions) {
    this.file = path.join(options.home, SECRETS_FILE_NAME);
    this.info = { kind: 'file', where: `${this.file} (mode 0600)` };
  }

  async get(key: string): Promise<string | undefined> {
    checkKey(key);
    const secrets = await this.read();
    return secrets.get(key);
  }

  async set(key: string, value: string): Promise<void> {
    checkKey(key);
    await this.update((secrets) => {
      secrets.set(key, value);
      return true;
    });
  }

  async delete(key: string): Promise<boolean> {
    checkKey(key);
    let deleted = false;
    await this.update((secrets) => (deleted = secrets.delete(key)));
    return deleted;
  }

  async list(prefix: string): Promise<string[]> {
    const secrets = await this.read();
    return [...secrets.keys()].filter((key) => key.startsWith(prefix)).sort();
  }

  /** Applies `change` under the lock; writes only when it says something changed. */
  private async update(change: (secrets: Map<string, string>) => boolean): Promise<void> {
    await fs.mkdir(this.options.home, { recursive: true, mode: 0o700 });
    await withFileLock(
      this.file,
      async () => {
        const secrets = await this.read();
        if (!change(secrets)) return;
        const sorted = Object.fromEntries([...secrets].sort(([a], [b]) => (a < b ? -1 : 1)));
        const text = `${JSON.stringify({ version: 1, secrets: sorted }, null, 2)}\n`;
        await writeFileAtomic(this.file, text, FILE_MODE);
      },
      this.options.lock,
    );
  }

  /** The secrets in the file; an empty map when there is no file. */
  private async read(): Promise<Map<string, string>> {
    let handle: fs.FileHandle;
    try {
      // O_NOFOLLOW: a symlink planted in its place is not followed; O_NONBLOCK: a FIFO does not
      // hang the open (it is then refused as not a regular file). Windows has neither.
      const flags =
        this.options.platform === 'win32'
          ? constants.O_RDONLY
          : constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
      handle = await fs.open(this.file, flags);
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT') return new Map();
      if (code === 'ELOOP') throw this.unsafe('is a symbolic link');
      throw new SecretStoreError(`could not read ${this.file}: ${code ?? String(error)}`);
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw this.unsafe('is not a regular file');
      if (this.options.platform !== 'win32') {
        if ((stat.mode & 0o077) !== 0) {
          const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
          throw new SecretStoreError(
            `${this.file} can be read or written by other users (mode ${mode}), so Switchyard will not use it. Its secrets may have been seen: replace them at their source, then run 'chmod 600 ${this.file}' (or delete the file and set them again).`,
          );
        }
        const uid = process.getuid?.();
        if (uid !== undefined && stat.uid !== uid)
          throw this.unsafe(`belongs to another user (uid ${stat.uid})`);
      }
      const bytes = await readHandleBounded(handle, MAX_SECRETS_FILE_BYTES);
      if (bytes.length > MAX_SECRETS_FILE_BYTES) {
        throw this.corrupt(`it is larger than ${MAX_SECRETS_FILE_BYTES} bytes`);
      }
      return this.parse(Buffer.from(bytes).toString('utf8'));
    } finally {
      await handle.close();
    }
  }

  private parse(text: string): Map<string, string> {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw this.corrupt('it is not valid JSON');
    }
    const parsed = SecretsFileSchema.safeParse(json);
    if (!parsed.success)
      throw this.corrupt('it is not {"version": 1, "secrets": {"<key>": "<value>"}}');
    // The raw object's own keys: a record schema would drop a `__proto__` key silently.
    const raw = (json as { secrets: Record<string, string> }).secrets;
    const secrets = new Map<string, string>();
    for (const [key, value] of Object.entries(raw)) {
      const problem = keyProblem(key);
      if (problem !== undefined) throw this.corrupt(`a key is not valid (${problem})`);
      secrets.set(key, value);
    }
    return secrets;
  }

  private corrupt(why: string): SecretStoreError {
    return new SecretStoreError(
      `${this.file} cannot be used: ${why}. Fix it, or move it aside and set the secrets again with 'switchyard secret set NAME'.`,
    );
  }

  private unsafe(why: string): SecretStoreError {
    return new SecretStoreError(
      `${this.file} ${why}, so Switchyard will not use it. Move it aside and set the secrets again with 'switchyard secret set NAME'.`,
    );
  }
}
