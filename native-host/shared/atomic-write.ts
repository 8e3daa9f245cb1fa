import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { errnoCode } from './errno';

export interface AtomicWriteOptions {
  /**
   * Flush the file and its folder to disk (default true). False only for a file whose content
   * means nothing after a power loss: the write stays atomic, and skips two fsyncs.
   */
  readonly durable?: boolean;
}

/** Links followed from `file` before giving up (Linux's own limit for a path). */
const MAX_LINKS = 40;

/**
 * Writes `text` to `file` atomically and durably: a temporary file beside it (created with
 * O_EXCL, so a planted symlink is never followed), its mode set exactly (the umask may have
 * narrowed it), its data flushed to disk, then a rename over `file`, then (on POSIX) the folder
 * flushed so the rename itself survives a power loss. A crash leaves the old file or the new one,
 * never half of either, nor an empty one. The folder must exist.
 *
 * When `file` is a symbolic link (a dotfiles manager's config.json), the file it points to is
 * replaced, the same way, beside it, and the link is kept: replacing the link with a regular file
 * would silently cut the user's file off from where they keep it. A dangling link's target is
 * created.
 */
export async function writeFileAtomic(
  file: string,
  text: string | Uint8Array,
  mode: number,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const durable = options.durable ?? true;
  const target = await linkTarget(file);
  const folder = path.dirname(target);
  const temporary = path.join(
    folder,
    `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  let created = false;
  try {
    const handle = await fs.open(temporary, 'wx', mode);
    created = true;
    try {
      await handle.writeFile(text);
      await handle.chmod(mode);
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, target);
    created = false;
  } catch (error) {
    // Only a file this call made: whatever else is at that name (a planted link) is not ours.
    if (created) await fs.rm(temporary, { force: true });
    throw error;
  }
  if (durable) await syncFolder(folder);
}

/** The file a chain of symbolic links at `file` ends at (`file` itself when it is none). */
async function linkTarget(file: string): Promise<string> {
  let current = file;
  for (let hops = 0; hops <= MAX_LINKS; hops += 1) {
    let link: string;
    try {
      link = await fs.readlink(current);
    } catch (error) {
      // EINVAL: not a link; ENOENT: nothing there yet (a dangling link's target is created).
      const code = errnoCode(error);
      if (code === 'EINVAL' || code === 'ENOENT') return current;
      throw error;
    }
    current = path.resolve(path.dirname(current), link);
  }
  throw Object.assign(new Error(`too many symbolic links at ${file}`), { code: 'ELOOP' });
}

/** Flushes a folder's entries (the rename) to disk. Windows cannot open a folder to do it. */
async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await fs.open(folder, 'r');
  try {
    await handle.sync();
  } catch (error) {
    // Some file systems (certain FUSE and network mounts) do not sync folders.
    const code = errnoCode(error);
    if (code !== 'EINVAL' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
  } finally {
    await handle.close();
  }
}
