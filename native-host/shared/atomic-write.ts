import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * Writes `text` to `file` atomically: a temporary file beside it (created with O_EXCL, so a
 * planted symlink is never followed), its mode set exactly (the umask may have narrowed it), then
 * a rename over `file`. A crash leaves the old file or the new one, never half of either. The
 * folder must exist.
 */
export async function writeFileAtomic(
  file: string,
  text: string | Uint8Array,
  mode: number,
): Promise<void> {
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    await fs.writeFile(temporary, text, { mode, flag: 'wx' });
    await fs.chmod(temporary, mode);
    await fs.rename(temporary, file);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}
