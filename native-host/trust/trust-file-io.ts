import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { readFileBounded } from '../shared/bounded-read';
import { withFileLock } from '../shared/file-lock';
import {
  MAX_TRUST_ENTRIES,
  MAX_TRUST_FILE_BYTES,
  emptyTrustState,
  parseTrustFile,
  serializeTrustFile,
} from './trust-file';
import type { TrustState } from './trust-file';

/**
 * Reading and writing trust.json safely; what the entries mean is trust-store.ts's business.
 *
 * Fail closed: a file that cannot be trusted grants nothing. A corrupt or schema-invalid file is
 * moved aside to `trust.json.corrupt-<timestamp>` and read as empty; a file from a newer
 * Switchyard, or one that cannot be read (or moved aside), is read as empty and never overwritten.
 *
 * Several hosts (one per browser profile, or a browser and the CLI) may share a home, so nothing
 * is cached: every read goes to the file, and a revocation made by one host holds in the others at
 * once. A mutation runs under `trust.json.lock` (shared/file-lock.ts: across processes, with
 * stale-lock recovery), reads, edits, writes `trust.json.<pid>.<random>.tmp` (mode 0o600) and
 * renames it over the file. It still checks that the file did not change since it was read (and
 * starts over if it did), for a writer that takes no lock, such as an older Switchyard. Calls on
 * one instance run one at a time.
 */

/** The file operations used; tests wrap the default to inject faults. */
export interface TrustFileSystem {
  /** At most `maxBytes + 1` bytes of `file`; rejects with `code: 'ENOENT'` when it is missing. */
  readFile(file: string, maxBytes: number): Promise<Uint8Array>;
  /** Creates `file` (failing if it exists) with `mode`, writes `data`, flushes it to disk. */
  writeNewFile(file: string, data: string, mode: number): Promise<void>;
  chmod(file: string, mode: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(file: string): Promise<void>;
  /** Creates `dir` and its missing parents with `mode`; no error when it exists. */
  mkdir(dir: string, mode: number): Promise<void>;
}

/** The production file system, on `node:fs/promises`. */
export const nodeTrustFileSystem: TrustFileSystem = {
  readFile: (file, maxBytes) => readFileBounded(file, maxBytes),
  async writeNewFile(file, data, mode) {
    // 'wx' is O_CREAT|O_EXCL: never follows a planted symlink, never reuses another's file.
    const handle = await fsp.open(file, 'wx', mode);
    try {
      await handle.writeFile(data, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  chmod: (file, mode) => fsp.chmod(file, mode),
  rename: (from, to) => fsp.rename(from, to),
  unlink: (file) => fsp.unlink(file),
  mkdir: async (dir, mode) => {
    await fsp.mkdir(dir, { recursive: true, mode });
  },
};

export interface TrustFileOptions {
  readonly fs?: TrustFileSystem;
  /** Clock for backup names. */
  readonly now?: () => Date;
  /** Goes into temporary file names; default `process.pid`. */
  readonly pid?: number;
  /** Largest file read or written; default MAX_TRUST_FILE_BYTES. */
  readonly maxFileBytes?: number;
  /** Most launches, and most pins, a file may hold; default MAX_TRUST_ENTRIES. */
  readonly maxEntries?: number;
  /** Runs a read-modify-write under a lock across processes; default `withFileLock`. */
  readonly lock?: <T>(file: string, fn: () => Promise<T>) => Promise<T>;
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
const MAX_WRITE_ATTEMPTS = 5;
const MAX_WARNINGS = 100;

export type TrustWarningKind = 'corrupt' | 'invalid-entry' | 'future-version' | 'unreadable';

/** A problem met while reading trust.json. `message` is the full text to show. */
export interface TrustWarning {
  readonly kind: TrustWarningKind;
  readonly file: string;
  /** Where a corrupt file was moved. */
  readonly backup?: string;
  readonly message: string;
}

export type TrustStoreErrorCode = 'future-version' | 'unreadable' | 'too-large' | 'conflict';

/** A change was refused and nothing was written. `message` says what to do. */
export class TrustStoreError extends Error {
  override readonly name = 'TrustStoreError';
  constructor(
    readonly code: TrustStoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}

type Snapshot = Uint8Array | null;
type Loaded =
  | { kind: 'ok'; state: TrustState; snapshot: Snapshot }
  | { kind: 'blocked'; error: TrustStoreError };

const ErrnoSchema = z.object({ code: z.string() });

/** One trust.json on disk. */
export class TrustFileIo {
  readonly maxEntries: number;
  private readonly fs: TrustFileSystem;
  private readonly now: () => Date;
  private readonly pid: number;
  private readonly maxFileBytes: number;
  private readonly lock: <T>(file: string, fn: () => Promise<T>) => Promise<T>;
  private warnings: TrustWarning[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  /** `file` is the absolute path of trust.json; nothing is read until the first call. */
  constructor(
    readonly file: string,
    options: TrustFileOptions = {},
  ) {
    this.fs = options.fs ?? nodeTrustFileSystem;
    this.now = options.now ?? (() => new Date());
    this.pid = options.pid ?? process.pid;
    this.maxFileBytes = options.maxFileBytes ?? MAX_TRUST_FILE_BYTES;
    this.maxEntries = options.maxEntries ?? MAX_TRUST_ENTRIES;
    this.lock = options.lock ?? ((file, fn) => withFileLock(file, fn));
  }

  /** Problems met reading the file since the last `takeWarnings`, each once, oldest first. */
  get pendingWarnings(): readonly TrustWarning[] {
    return [...this.warnings];
  }

  /** Returns `pendingWarnings` and forgets them. */
  takeWarnings(): TrustWarning[] {
    const taken = this.warnings;
    this.warnings = [];
    return taken;
  }

  /** The file's current content; empty when it is missing or cannot be trusted. Never throws for
   * the file's content (a corrupt file is moved aside here too). */
  async read(): Promise<TrustState> {
    const loaded = await this.run(() => this.load());
    return loaded.kind === 'ok' ? loaded.state : emptyTrustState();
  }

  /**
   * Reads, applies `edit` (which returns whether it changed anything) and writes, starting over
   * from a fresh read when the file changed underneath. `edit` may run more than once and may
   * throw to refuse. Throws TrustStoreError when the file cannot be trusted, even for an edit
   * that would change nothing (the caller's intent, say a revocation, was not recorded), or when
   * the result would exceed the byte cap (a file the next read would set aside).
   */
  mutate(edit: (state: TrustState) => boolean): Promise<boolean> {
    return this.run(async () => {
      // The lock file lives beside trust.json, so the folder must exist first.
      await this.fs.mkdir(path.dirname(this.file), DIR_MODE);
      return await this.lock(this.file, () => this.mutateLocked(edit));
    });
  }

  private async mutateLocked(edit: (state: TrustState) => boolean): Promise<boolean> {
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const loaded = await this.load();
      if (loaded.kind === 'blocked') throw loaded.error;
      if (!edit(loaded.state)) return false;
      const text = serializeTrustFile(loaded.state);
      if (Buffer.byteLength(text, 'utf8') > this.maxFileBytes) {
        throw new TrustStoreError(
          'too-large',
          `${this.file} would grow past ${this.maxFileBytes} bytes; revoke approvals you no longer need`,
        );
      }
      if (await this.replaceIfUnchanged(text, loaded.snapshot)) return true;
    }
    throw new TrustStoreError(
      'conflict',
      `${this.file} kept changing while saving (another Switchyard writing?); try again`,
    );
  }

  private run<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.queue.then(operation, operation);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async replaceIfUnchanged(text: string, snapshot: Snapshot): Promise<boolean> {
    await this.fs.mkdir(path.dirname(this.file), DIR_MODE);
    const tmp = `${this.file}.${this.pid}.${randomBytes(6).toString('hex')}.tmp`;
    await this.fs.writeNewFile(tmp, text, FILE_MODE);
    let renamed = false;
    try {
      // The umask may have cleared bits of the mode at creation; the rename then replaces any
      // wider mode the old file had.
      await this.fs.chmod(tmp, FILE_MODE);
      if (!sameBytes(await this.readRaw(), snapshot)) return false;
      await this.fs.rename(tmp, this.file);
      renamed = true;
      return true;
    } finally {
      if (!renamed) await this.fs.unlink(tmp).catch(() => undefined);
    }
  }

  /** The file's bytes, or null when missing; throws TrustStoreError when unreadable. */
  private async readRaw(): Promise<Snapshot> {
    try {
      return await this.fs.readFile(this.file, this.maxFileBytes);
    } catch (error) {
      const code = ErrnoSchema.safeParse(error).data?.code;
      if (code === 'ENOENT') return null;
      throw new TrustStoreError(
        'unreadable',
        `cannot read ${this.file} (${code ?? String(error)}); make it readable by your user account`,
      );
    }
  }

  private async load(): Promise<Loaded> {
    let bytes: Snapshot;
    try {
      bytes = await this.readRaw();
    } catch (error) {
      if (!(error instanceof TrustStoreError)) throw error;
      this.warn('unreadable', `${error.message}. Until then no launch is approved`);
      return { kind: 'blocked', error };
    }
    if (bytes === null) return { kind: 'ok', state: emptyTrustState(), snapshot: null };
    if (bytes.length > this.maxFileBytes) {
      return this.setAside(`it is larger than ${this.maxFileBytes} bytes`);
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return this.setAside('it is not UTF-8');
    }
    const parsed = parseTrustFile(text, this.maxEntries);
    switch (parsed.kind) {
      case 'invalid':
        return this.setAside(parsed.reason);
      case 'future': {
        const message = `${this.file} was written by a newer Switchyard (format ${parsed.version}); update Switchyard. Until then no launch is approved and approvals cannot be saved`;
        this.warn('future-version', message);
        return { kind: 'blocked', error: new TrustStoreError('future-version', message) };
      }
      case 'ok':
        for (const reason of parsed.dropped) {
          this.warn('invalid-entry', `${this.file}: ignored the ${reason}; approve it again`);
        }
        return { kind: 'ok', state: parsed.state, snapshot: bytes };
    }
  }

  /** Moves a file that cannot be trusted aside and reads as empty; blocked if it cannot move. */
  private async setAside(reason: string): Promise<Loaded> {
    const stamp = this.now().toISOString().replace(/[:.]/g, '-');
    const backup = `${this.file}.corrupt-${stamp}`;
    try {
      await this.fs.rename(this.file, backup);
    } catch (error) {
      const code = ErrnoSchema.safeParse(error).data?.code;
      // Another host moved it first. Empty is safe for a read, and a mutation's check before its
      // rename sees a file that a host wrote since, and starts over.
      if (code === 'ENOENT') return { kind: 'ok', state: emptyTrustState(), snapshot: null };
      const message = `${this.file} is not a valid trust file (${reason}) and could not be moved aside (${code ?? String(error)}); move or delete it. Until then no launch is approved`;
      this.warn('corrupt', message);
      return { kind: 'blocked', error: new TrustStoreError('unreadable', message) };
    }
    this.warn(
      'corrupt',
      `${this.file} was not a valid trust file (${reason}); it was moved to ${backup} and every launch must be approved again`,
      backup,
    );
    return { kind: 'ok', state: emptyTrustState(), snapshot: null };
  }

  private warn(kind: TrustWarningKind, message: string, backup?: string): void {
    if (this.warnings.some((w) => w.kind === kind && w.message === message)) return;
    if (this.warnings.length >= MAX_WARNINGS) return;
    this.warnings.push({
      kind,
      file: this.file,
      message,
      ...(backup === undefined ? {} : { backup }),
    });
  }
}

function sameBytes(a: Snapshot, b: Snapshot): boolean {
  if (a === null || b === null) return a === b;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}
