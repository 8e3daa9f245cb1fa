import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isErrno } from '../native-host/shared/errno';

/**
 * Who else could change what the browser runs. The manifest names the program the browser starts
 * with the user's rights; anyone who can write the manifest, the launcher, the bundle, or a folder
 * above them can swap in their own. POSIX only: Windows keeps these files under the user's own
 * profile folders, whose ACLs are the user's.
 */

/** The parts of fs.Stats the checks read. */
export interface StatLike {
  readonly mode: number;
  readonly uid: number;
  isDirectory(): boolean;
  isFile(): boolean;
}

const GROUP_WRITE = 0o020;
const WORLD_WRITE = 0o002;
const STICKY = 0o1000;

/**
 * Problems with a folder the installer writes into (`target`) or one above it. A target must be
 * ours (or root's) and not world-writable; a folder above it may be world-writable only with the
 * sticky bit and root as owner (`/tmp`): then nobody else can rename what is ours inside it.
 * Group-writable folders are accepted: many systems give each user a private group.
 */
export function directoryProblem(
  dir: string,
  stat: StatLike,
  uid: number,
  role: 'target' | 'ancestor',
): string | null {
  if (!stat.isDirectory()) return `${dir} is not a folder`;
  const owner = stat.uid;
  if (owner !== uid && owner !== 0) {
    return `${dir} belongs to another user (uid ${owner}), who could replace what Switchyard writes there. Use a folder you own.`;
  }
  const worldWritable = (stat.mode & WORLD_WRITE) !== 0;
  if (!worldWritable) return null;
  const stickyRoot = (stat.mode & STICKY) !== 0 && owner === 0;
  if (role === 'ancestor' && stickyRoot) return null;
  if (stickyRoot) {
    return `${dir} is shared by every user, who could create the folders Switchyard needs there before it does. Create your folder inside it first (mkdir -m 700 ...), or use one in your home folder.`;
  }
  return `${dir} is writable by every user (mode ${modeText(stat.mode)}), so anyone could replace what the browser runs. Run 'chmod o-w ${dir}' or pick another folder.`;
}

/** Problems with a file the installer wrote: it must be a regular file, ours, writable only by us. */
export function fileProblem(file: string, stat: StatLike, uid: number): string | null {
  if (!stat.isFile()) return `${file} is not a regular file`;
  if (stat.uid !== uid) {
    return `${file} belongs to another user (uid ${stat.uid}); remove it and run 'switchyard install' again.`;
  }
  if ((stat.mode & (GROUP_WRITE | WORLD_WRITE)) !== 0) {
    return `${file} is writable by others (mode ${modeText(stat.mode)}); run 'chmod go-w ${file}'.`;
  }
  return null;
}

function modeText(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

/**
 * Checks the folder `target` will be written into and every existing folder above it, up to the
 * root; folders that do not exist yet are skipped (the installer creates them 0700). Returns the
 * problems found, empty when safe.
 */
export async function checkTargetDirectory(target: string, uid: number): Promise<string[]> {
  const problems = await checkPath(path.resolve(target), uid);
  // A linked folder on the way (~/.config -> a dotfiles checkout, a profile on another disk):
  // whoever can rename a folder above where it really is can swap it too.
  const real = await realPathOfNearest(path.resolve(target));
  if (real !== null && real !== path.resolve(target)) {
    for (const problem of await checkPath(real, uid)) {
      if (!problems.includes(problem)) problems.push(problem);
    }
  }
  return problems;
}

/** The real path of `target`'s nearest existing folder, or null when nothing resolves. */
async function realPathOfNearest(target: string): Promise<string | null> {
  for (let current = target; ; current = path.dirname(current)) {
    try {
      return await fs.realpath(current);
    } catch (error) {
      if (!isErrno(error, 'ENOENT') && !isErrno(error, 'ENOTDIR')) throw error;
    }
    if (path.dirname(current) === current) return null;
  }
}

async function checkPath(target: string, uid: number): Promise<string[]> {
  const problems: string[] = [];
  let current = target;
  let role: 'target' | 'ancestor' = 'target';
  for (;;) {
    let stat: StatLike | null = null;
    try {
      stat = await fs.stat(current);
    } catch (error) {
      if (!isErrno(error, 'ENOENT') && !isErrno(error, 'ENOTDIR')) throw error;
    }
    if (stat !== null) {
      const problem = directoryProblem(current, stat, uid, role);
      if (problem !== null) problems.push(problem);
      // Only the nearest existing folder counts as the target: new ones below it are ours.
      role = 'ancestor';
    }
    const parent = path.dirname(current);
    if (parent === current) return problems;
    current = parent;
  }
}
