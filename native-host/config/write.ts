import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../shared/atomic-write';
import { readFileBounded } from '../shared/bounded-read';
import { isErrno } from '../shared/errno';
import { withFileLock } from '../shared/file-lock';
import { ConfigError, MAX_CONFIG_FILE_BYTES, decodeConfigBytes, parseConfig } from './load';

/**
 * Changes `config.json` on the user's behalf (policy rules now; servers added from the popup or
 * CLI later). The file is re-read and parsed strictly first: a file the user broke by hand is
 * never overwritten (ConfigError instead), and keys Switchyard does not know are kept. The new
 * text is parsed again before it replaces the old one, and written atomically (temporary file,
 * then rename) with user-only permissions, so a crash mid-write never leaves half a file. The
 * whole read-modify-write holds `config.json.lock` (shared/file-lock.ts), so two hosts sharing a
 * home (two browsers, or a browser and the CLI) never lose each other's changes.
 */
export function updateConfigFile(
  file: string,
  mutate: (raw: Record<string, unknown>) => void,
): Promise<Record<string, unknown>> {
  return withLockedConfigFile(file, (locked) => locked.update(mutate));
}

/** config.json while its lock is held: what is read here cannot change until `fn` returns. */
export interface LockedConfigFile {
  /** The file parsed strictly (`{"mcpServers": {}}` when there is none). */
  read(): Promise<Record<string, unknown>>;
  /** Reads, changes and replaces the file, as updateConfigFile does. */
  update(mutate: (raw: Record<string, unknown>) => void): Promise<Record<string, unknown>>;
}

/**
 * Runs `fn` holding config.json's lock (and this process's queue of updates), for a change that
 * must read the file, do more work (record an approval in trust.json) and write it, with no other
 * writer in between: a read outside the lock may be stale by the time the write lands.
 */
export function withLockedConfigFile<T>(
  file: string,
  fn: (locked: LockedConfigFile) => Promise<T>,
): Promise<T> {
  // One update of a file at a time in this process: `policy/set`, `profiles/set` and
  // `servers/add` each read, change and replace the whole file, and two interleaved would lose
  // one change. The queue keeps this process's updates in order; the lock orders processes.
  const previous = pending.get(file) ?? Promise.resolve();
  const locked: LockedConfigFile = {
    read: async () => structuredClone(parseConfig(await readText(file), file).raw),
    update: (mutate) => updateNow(file, mutate),
  };
  const update = async (): Promise<T> => {
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    return await withFileLock(file, () => fn(locked));
  };
  const run = previous.then(update, update);
  const done = run.then(
    () => undefined,
    () => undefined,
  );
  pending.set(file, done);
  void done.then(() => {
    if (pending.get(file) === done) pending.delete(file);
  });
  return run;
}

const pending = new Map<string, Promise<void>>();

async function updateNow(
  file: string,
  mutate: (raw: Record<string, unknown>) => void,
): Promise<Record<string, unknown>> {
  const raw = structuredClone(parseConfig(await readText(file), file).raw);
  mutate(raw);
  const next = `${JSON.stringify(raw, null, 2)}\n`;
  parseConfig(next, file);
  await writeFileAtomic(file, next, 0o600);
  return raw;
}

async function readText(file: string): Promise<string> {
  try {
    // Read as the loader reads it: bytes that are not UTF-8 refuse the update, rather than come
    // back as U+FFFD in a file the user wrote.
    return decodeConfigBytes(await readFileBounded(file, MAX_CONFIG_FILE_BYTES), file);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    if (!isMissing(error)) {
      throw new ConfigError({ file, detail: 'cannot read the file to update it', cause: error });
    }
    return '{"mcpServers": {}}';
  }
}

function isMissing(error: unknown): boolean {
  return isErrno(error, 'ENOENT');
}
