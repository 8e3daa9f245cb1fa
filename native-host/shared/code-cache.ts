/**
 * What the host's entry (boot/entry.ts) decides about V8's code cache, as pure functions: which
 * build a bundle is, which cache file belongs to this run, which files are stale, and whether the
 * cache's folder may be trusted. Decision 0033.
 *
 * A V8 code cache is checked by V8 itself only for its own version, its flags and the length of
 * the source, not for the source's content: fed a cache made from another source of the same
 * length, V8 would run that source's bytecode. So a cache file is named by the bundle's content
 * hash (written by the build into the bundle's first line), the file's size and modification
 * time, and everything else that may differ between two runs of one bundle: which program runs
 * (the host or a CLI command, which compile different parts), the V8 version, the architecture
 * and the node options.
 */

/** The first line the build writes into the main bundle: its content hash (after that line). */
export const BUILD_LINE_PREFIX = '//# switchyard-build=';
/** A hex SHA-256. */
const BUILD_ID = /^[0-9a-f]{64}$/;
/** The main bundle, beside the entry (dist/host/switchyard.cjs) that loads it. */
export const MAIN_BUNDLE_FILE = 'switchyard-main.cjs';
/** The cache folder, beside the main bundle (same owner, same trust: see `folderProblem`). */
export const CACHE_DIR_NAME = 'code-cache';
const CACHE_SUFFIX = '.v8cache';

/**
 * The build id in the bundle's first line, or null when the line is missing or malformed. A copy:
 * V8 makes a slice of a long string a view into it, and the id lives as long as the host (its
 * cache writer keeps it), which would keep the whole 1.4 MB source alive a second time beside the
 * compiled script's own (seen in a heap snapshot).
 */
export function buildIdOf(source: string): string | null {
  if (!source.startsWith(BUILD_LINE_PREFIX)) return null;
  const end = source.indexOf('\n');
  const id = source.slice(BUILD_LINE_PREFIX.length, end === -1 ? undefined : end);
  return BUILD_ID.test(id) ? Buffer.from(id, 'latin1').toString('latin1') : null;
}

export interface CacheRun {
  readonly buildId: string;
  /** The main bundle's size in bytes and its modification time in ms. */
  readonly size: number;
  readonly mtimeMs: number;
  /** `process.argv.slice(2)`: the command that runs. */
  readonly args: readonly string[];
  readonly v8Version: string;
  readonly arch: string;
  /** `process.execArgv`: V8 rejects a cache made under other flags, so each set has its own. */
  readonly execArgv: readonly string[];
}

/**
 * The cache file's name for this run. The host and the CLI have one each: a cache holds the
 * functions its run had compiled, and the host's start compiles other functions than `tools`.
 */
export function cacheFileName(run: CacheRun): string {
  const program = run.args[0] === 'host' ? 'host' : 'cli';
  const flags = fnv1a(run.execArgv.join('\u0000'));
  const v8 = run.v8Version.replace(/[^0-9A-Za-z.]/g, '_');
  const arch = run.arch.replace(/[^0-9A-Za-z]/g, '_');
  return `${run.buildId.slice(0, 32)}-${program}-${fileFacts(run)}-${v8}-${arch}-${flags}${CACHE_SUFFIX}`;
}

export type BundleFacts = Pick<CacheRun, 'buildId' | 'size' | 'mtimeMs'>;

function fileFacts(run: BundleFacts): string {
  return `${run.size}.${Math.trunc(run.mtimeMs)}`;
}

/**
 * Files in the cache folder to delete once this run has written its own: caches of another
 * bundle (another build, or this file rewritten: reinstalled, rebuilt, edited) and temporary files (a writer that crashed, or one
 * writing at this moment, which then keeps no cache: the one just written serves it). Caches of
 * this build for another program, V8 or flag set stay. Names that are not ours are left alone.
 */
export function staleCacheFiles(names: readonly string[], bundle: BundleFacts): string[] {
  const build = `${bundle.buildId.slice(0, 32)}-`;
  const file = `-${fileFacts(bundle)}-`;
  return names.filter(
    (name) =>
      isCacheFileName(name) &&
      (name.endsWith('.tmp') || !name.startsWith(build) || !name.includes(file)),
  );
}

/** A name the entry writes in the cache folder: a cache, or one being written. */
export function isCacheFileName(name: string): boolean {
  return /^[0-9a-f]{32}-[0-9A-Za-z._-]+\.v8cache(\.\d+\.tmp)?$/.test(name);
}

/** What `folderProblem` reads of the cache folder (an lstat). */
export interface FolderFacts {
  readonly isDirectory: boolean;
  readonly isSymbolicLink: boolean;
  readonly uid: number;
  readonly mode: number;
}

/**
 * Why the cache folder must not be used, or null. A code cache is code: whoever can write it can
 * make the host run anything. The folder sits beside the bundle, so it may be trusted exactly as
 * far as the bundle is: it must be a real folder (not a link), owned by the user the host runs as
 * and writable by nobody else. `uid` is null on Windows, where a user's profile folders are
 * private by their ACLs and mode bits say nothing.
 */
export function folderProblem(facts: FolderFacts, uid: number | null): string | null {
  if (facts.isSymbolicLink) return 'is a symbolic link';
  if (!facts.isDirectory) return 'is not a folder';
  if (uid === null) return null;
  if (facts.uid !== uid) return `is owned by uid ${facts.uid}, not ${uid}`;
  if ((facts.mode & 0o022) !== 0) return 'is writable by other users';
  return null;
}

/** 32-bit FNV-1a as 8 hex digits: a short, stable name part for a string (not a security hash). */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
