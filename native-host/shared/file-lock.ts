import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { readFileBounded } from './bounded-read';
import { errnoCode } from './errno';

/**
 * A lock across processes for one file's read-modify-write (issue 13): two hosts (two browsers,
 * or a browser and `switchyard call`) share one `$SWITCHYARD_HOME`, and each replaces the whole
 * of `config.json` or `trust.json` when it changes one rule. Without a lock the second rename
 * wins and the first change is lost.
 *
 * The lock is a file `<file>.lock` created with O_EXCL, holding its owner's pid and a random
 * token. Node has no `flock`, and a lock file outlives a holder that crashed, so a waiter breaks
 * a lock that is stale: its owner's pid is not alive, or it is older than `staleMs` (an update
 * takes milliseconds; a holder that long is hung, or its pid was reused). Two waiters breaking the
 * same stale lock could otherwise delete the fresh lock of a third, so breaking is itself guarded:
 * only the holder of `<file>.lock.break` (O_EXCL too, and itself broken when older than
 * `staleMs`) may remove a lock, and only after reading it again and finding the same token it
 * judged stale. Release removes the lock only if it still holds our token. Hand-written rather
 * than `proper-lockfile` (decision 0015): that library installs exit and signal handlers in the
 * host, throws from a timer when its lock is "compromised", and knows staleness only by mtime,
 * so a SIGKILLed host would block every write for its whole stale period.
 */

export interface FileLockOptions {
  /** A lock older than this is broken whoever holds it. Default 10 s. */
  readonly staleMs?: number;
  /** How long to wait for a held lock before giving up. Default 15 s. */
  readonly timeoutMs?: number;
  /** Whether a process exists; default `process.kill(pid, 0)` (EPERM counts as alive). */
  readonly isAlive?: (pid: number) => boolean;
  readonly now?: () => number;
  /** Waits between attempts; tests inject one that resolves at once. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** The lock could not be taken in time; nothing was changed. `message` says what to do. */
export class FileLockTimeoutError extends Error {
  override readonly name = 'FileLockTimeoutError';
  constructor(
    readonly lockFile: string,
    message: string,
  ) {
    super(message);
  }
}

export const DEFAULT_LOCK_STALE_MS = 10_000;
export const DEFAULT_LOCK_TIMEOUT_MS = 15_000;
const MAX_LOCK_BYTES = 4096;

interface LockOwner {
  readonly pid: number;
  readonly token: string;
}

/** The lock file that guards `file`. */
export function lockFileOf(file: string): string {
  return `${file}.lock`;
}

/**
 * Runs `fn` while holding the lock of `file` and returns what it returns. Waits (with growing
 * pauses) while another live process holds it; throws FileLockTimeoutError after `timeoutMs`.
 * Errors of `fn` pass through after the lock is released.
 */
export async function withFileLock<T>(
  file: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const lock = lockFileOf(file);
  const token = await acquire(lock, options);
  try {
    return await fn();
  } finally {
    await release(lock, token);
  }
}

async function acquire(lock: string, options: FileLockOptions): Promise<string> {
  const staleMs = options.staleMs ?? DEFAULT_LOCK_STALE_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const isAlive = options.isAlive ?? processIsAlive;
  const token = randomBytes(12).toString('hex');
  const deadline = now() + timeoutMs;
  let pause = 2;
  let holder: LockOwner | undefined;
  for (;;) {
    if (await createExclusive(lock, JSON.stringify({ pid: process.pid, token }))) return token;
    const seen = await inspect(lock, now, staleMs, isAlive);
    holder = seen?.owner ?? holder;
    // Try again at once after breaking a stale lock (or finding it gone); wait while another
    // waiter holds the break guard.
    if (seen === undefined) continue;
    if (seen.stale && (await breakStale(lock, seen.owner?.token, now, staleMs))) continue;
    if (now() >= deadline) {
      const who = holder === undefined ? 'another process' : `process ${holder.pid}`;
      throw new FileLockTimeoutError(
        lock,
        `${lock} has been held by ${who} for over ${Math.round(timeoutMs / 1000)} s, so the ` +
          'change was not saved. Try again; if no Switchyard is running, delete that file.',
      );
    }
    await sleep(pause + Math.random() * pause);
    pause = Math.min(pause * 2, 50);
  }
}

/** What the lock file says and whether it is stale; undefined when it is gone. */
async function inspect(
  lock: string,
  now: () => number,
  staleMs: number,
  isAlive: (pid: number) => boolean,
): Promise<{ owner: LockOwner | undefined; stale: boolean } | undefined> {
  let mtimeMs: number;
  let owner: LockOwner | undefined;
  try {
    mtimeMs = (await fsp.stat(lock)).mtimeMs;
    owner = parseOwner(await readFileBounded(lock, MAX_LOCK_BYTES));
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  const old = now() - mtimeMs > staleMs;
  // An unreadable owner is a holder that crashed between creating and writing the file, or one
  // still writing it: only age tells them apart.
  if (owner === undefined) return { owner, stale: old };
  return { owner, stale: old || (owner.pid !== process.pid && !isAlive(owner.pid)) };
}

/**
 * Removes the stale lock whose token is `staleToken`, under the break guard. False when another
 * waiter holds the guard (the caller waits); true when this one looked (whatever it found).
 */
async function breakStale(
  lock: string,
  staleToken: string | undefined,
  now: () => number,
  staleMs: number,
): Promise<boolean> {
  const guard = `${lock}.break`;
  if (!(await createExclusive(guard, String(process.pid)))) {
    // Another waiter is breaking it; a guard left by one that crashed is removed once old.
    try {
      if (now() - (await fsp.stat(guard)).mtimeMs > staleMs) await fsp.unlink(guard);
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw error;
    }
    return false;
  }
  try {
    let current: LockOwner | undefined;
    try {
      current = parseOwner(await readFileBounded(lock, MAX_LOCK_BYTES));
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return true;
      throw error;
    }
    if (current?.token === staleToken) await unlinkIfPresent(lock);
    return true;
  } finally {
    await unlinkIfPresent(guard);
  }
}

async function release(lock: string, token: string): Promise<void> {
  try {
    const owner = parseOwner(await readFileBounded(lock, MAX_LOCK_BYTES));
    // Held so long that a waiter broke it: the lock is someone else's now.
    if (owner?.token === token) await unlinkIfPresent(lock);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
}

/** Creates `file` with `text` unless it exists; false when it does. */
async function createExclusive(file: string, text: string): Promise<boolean> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, 'wx', 0o600);
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(text, 'utf8');
  } finally {
    await handle.close();
  }
  return true;
}

function parseOwner(bytes: Uint8Array): LockOwner | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const pid: unknown = Reflect.get(value, 'pid');
  const token: unknown = Reflect.get(value, 'token');
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return undefined;
  if (typeof token !== 'string' || !/^[0-9a-f]{24}$/.test(token)) return undefined;
  return { pid, token };
}

async function unlinkIfPresent(file: string): Promise<void> {
  try {
    await fsp.unlink(file);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === 'EPERM';
  }
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
