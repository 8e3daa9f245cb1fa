import {
  closeSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { isAscii } from 'node:buffer';
import { Module, createRequire } from 'node:module';
import path from 'node:path';
import { Script } from 'node:vm';
import {
  CACHE_DIR_NAME,
  MAIN_BUNDLE_FILE,
  buildIdOf,
  cacheFileName,
  folderProblem,
  staleCacheFiles,
  type BundleFacts,
} from '../shared/code-cache';
import { errnoCode, isErrno } from '../shared/errno';
import { applyV8RuntimeFlags } from '../shared/node-flags';

/**
 * The host's entry, dist/host/switchyard.cjs: what the launcher, `npm start`, the tests and a
 * user's `switchyard <command>` run. It loads the main bundle beside it (switchyard-main.cjs)
 * through V8's code cache, so a start does not parse 1.4 MB of JavaScript again: decision 0033.
 * It imports nothing but Node's built-ins and three small leaves of shared/ (code-cache.ts,
 * errno.ts, node-flags.ts), sets V8's run-time flags first, and never writes to stdout (the host's
 * wire). The cache is an optimization only: whatever goes wrong with it (no folder, a folder
 * someone else could write, a file V8 rejects, a full disk), the bundle is compiled from its
 * source and runs the same.
 */

/** Until then the cache is written on exit; after it, by a timer (a host runs for hours). */
const WRITE_AFTER_MS = 3_000;

function main(): void {
  applyV8RuntimeFlags();
  const mainPath = path.join(__dirname, MAIN_BUNDLE_FILE);
  // Node maps stack traces through a source map for modules its loader compiles, not for a
  // vm.Script: whoever asks for mapped traces (`--enable-source-maps`) gets the bundle loaded
  // the usual way, without the cache.
  if (process.sourceMapsEnabled) {
    createRequire(__filename)(mainPath);
    return;
  }
  let source: string;
  let stat: Stats;
  try {
    const fd = openSync(mainPath, 'r');
    try {
      stat = fstatSync(fd);
      source = decodeSource(readFileSync(fd));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    process.stderr.write(
      `switchyard: cannot read the host's main bundle ${mainPath} (${errnoCode(error) ?? String(error)}). Build it with 'npm run build:host', or run 'switchyard install' again from the package.\n`,
    );
    process.exitCode = 1;
    return;
  }

  const cache = process.env['SWITCHYARD_CODE_CACHE'] === 'off' ? null : cachePlace(mainPath);
  const buildId = buildIdOf(source);
  // Where this run's cache is, for which bundle; null when there is none to use.
  const target =
    cache === null || buildId === null
      ? null
      : cacheTarget(cache, { buildId, size: stat.size, mtimeMs: stat.mtimeMs });
  const cachedData = target === null ? undefined : readCache(target.file);
  // The CommonJS wrapper keeps the bundle's line numbers (its first line is the build id).
  const script = new Script(Module.wrap(source), { filename: mainPath, cachedData });
  if (target !== null && (cachedData === undefined || script.cachedDataRejected))
    scheduleWrite(script, target.file, target.bundle);

  const run: unknown = script.runInThisContext();
  if (typeof run !== 'function') throw new Error(`${mainPath} did not compile to a module`);
  const bundle = new Module(mainPath);
  bundle.filename = mainPath;
  bundle.loaded = true;
  Reflect.apply(run, bundle.exports, [
    bundle.exports,
    createRequire(mainPath),
    bundle,
    mainPath,
    path.dirname(mainPath),
  ]);
}

/**
 * The bundle's text. esbuild writes ASCII (it escapes the rest), and ASCII read as Latin-1 is the
 * same string without UTF-8's validation pass: 2-4 ms of every start for 1.4 MB. Anything else is
 * decoded as UTF-8, so a bundle that did contain other bytes still reads right.
 */
function decodeSource(bytes: Buffer): string {
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

function cacheTarget(dir: string, bundle: BundleFacts): { file: string; bundle: BundleFacts } {
  const name = cacheFileName({
    ...bundle,
    args: process.argv.slice(2),
    v8Version: process.versions.v8,
    arch: process.arch,
    execArgv: process.execArgv,
  });
  return { file: path.join(dir, name), bundle };
}

/** The cache folder beside the bundle, made if missing; null if it cannot be had or trusted. */
function cachePlace(mainPath: string): string | null {
  const dir = path.join(path.dirname(mainPath), CACHE_DIR_NAME);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if (!isErrno(error, 'EEXIST')) return null;
  }
  try {
    const facts = lstatSync(dir);
    const problem = folderProblem(
      {
        isDirectory: facts.isDirectory(),
        isSymbolicLink: facts.isSymbolicLink(),
        uid: facts.uid,
        mode: facts.mode,
      },
      process.platform === 'win32' || typeof process.getuid !== 'function'
        ? null
        : process.getuid(),
    );
    return problem === null ? dir : null;
  } catch {
    return null;
  }
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Writes this run's cache once: after `WRITE_AFTER_MS`, when the functions a start runs have been
 * compiled and go into it too, or at exit if that comes first (a CLI command). The file appears
 * whole or not at all (written aside, then renamed); other builds' caches are removed.
 */
function scheduleWrite(script: Script, file: string, bundle: BundleFacts): void {
  let written = false;
  const write = (): void => {
    if (written) return;
    written = true;
    const temporary = `${file}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
      renameSync(temporary, file);
      const dir = path.dirname(file);
      for (const stale of staleCacheFiles(readdirSync(dir), bundle)) {
        rmSync(path.join(dir, stale), { force: true });
      }
    } catch {
      try {
        rmSync(temporary, { force: true });
      } catch {
        // Left for the next writer's clean-up (staleCacheFiles).
      }
    }
  };
  setTimeout(write, WRITE_AFTER_MS).unref();
  process.once('exit', write);
}

main();
