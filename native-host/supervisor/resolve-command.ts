import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { readFileBounded } from '../shared/bounded-read';
import type { ShimRead } from '../shared/server-spec';
import { followShim, type NodeOnPath } from './follow-shim';
import { MAX_SHIM_BYTES } from './npm-shim';

/**
 * Where a server's `command` points, or why it cannot run (the message says what to do). `shim`:
 * the command named an npm shim on Windows, and `path` is the program it starts (node.exe); the
 * spawned argv is `path`, then `shim.prefixArgs` (the script), then the entry's own args.
 */
export type ResolvedCommand =
  | { ok: true; path: string; shim?: ShimRead }
  | {
      ok: false;
      reason: 'not-found' | 'not-executable' | 'relative-path' | 'unsupported-shim';
      message: string;
    };

export interface ResolveCommandOptions {
  /** The PATH the host would search (the host's own, not the child's env). */
  pathEnv: string | undefined;
  platform: NodeJS.Platform;
  /** win32 only: PATHEXT; default `.COM;.EXE;.BAT;.CMD`. */
  pathExt?: string;
  /** The server's `cwd` from config; only an absolute one anchors a relative command. */
  cwd?: string;
  /** Whether `p` is a regular file (following symlinks). Default: `fs.stat`. */
  isFile?: (p: string) => boolean | Promise<boolean>;
  /** Whether this process may execute the file `p`. Default: `access(X_OK)`; on win32 true. */
  isExecutable?: (p: string) => boolean | Promise<boolean>;
  /**
   * win32 only: the text of a `.cmd`/`.bat` the command resolved to, read to find what it starts
   * (never run). Throws when unreadable. Default: its first `MAX_SHIM_BYTES + 1` bytes as UTF-8.
   */
  readFile?: (p: string) => Promise<string>;
}

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

/**
 * Resolves a server's `command` to the absolute file that would run, the way the host must
 * (design D6): the result is what the launch fingerprint hashes and what is spawned, with no
 * shell and no further PATH lookup.
 *
 * Rules:
 * - An absolute command is used as is (normalized, symlinks not followed, so an upgrade behind
 *   a stable link does not change the fingerprint); it must be an executable file.
 * - A bare name is searched only in absolute PATH entries, in order. Empty and relative entries
 *   (`::`, `.`, `bin`) are skipped: they resolve against the working directory, which for a
 *   browser-started host is wherever the launcher was, and a repository can plant a binary
 *   there. A bare name is never looked up in the cwd.
 * - A relative path (`./x`, `bin/x`) is resolved against the server's own `cwd` when that is
 *   absolute (the child would see the same file, and the fingerprint holds the absolute result);
 *   otherwise it is refused with `relative-path`.
 * - win32: a name whose extension is in PATHEXT is tried as is, any other name with each PATHEXT
 *   extension appended (in PATHEXT order, lower-cased, so the fingerprint does not depend on how
 *   PATHEXT is spelled); matching is case-insensitive. Only drive (`C:\`) and UNC (`\\h\s`) paths
 *   count as absolute: `\x` and `C:x` depend on the current drive or directory.
 * - win32: a `.cmd` or `.bat` found by any rule is read, never run (Node spawns batch files only
 *   through cmd.exe, CVE-2024-27980, and the host runs no shell): an npm shim (npm's own npx.cmd
 *   and npm.cmd, or one npm's cmd-shim wrote for a package bin) resolves to the program it starts,
 *   node with the script as `shim.prefixArgs`; anything else is refused with `unsupported-shim`
 *   and what to write instead (`follow-shim.ts`, decision 0014).
 *
 * Never throws for a missing or unreadable file; I/O errors count as "not a file".
 */
export async function resolveCommand(
  command: string,
  options: ResolveCommandOptions,
): Promise<ResolvedCommand> {
  const { platform } = options;
  const win = platform === 'win32';
  const paths = win ? path.win32 : path.posix;
  const isFile = options.isFile ?? defaultIsFile;
  const isExecutable = options.isExecutable ?? (win ? () => true : defaultIsExecutable);
  const extensions = win ? pathExtensions(options.pathExt) : [];
  const candidatesOf = (base: string): string[] =>
    win ? withExtensions(base, extensions) : [base];
  // Each folder once, in first-seen order: login shells often prepend the same folders again
  // (nvm, Homebrew), and a message listing /usr/bin three times hides the one that matters.
  const entries = distinctFolders(splitPath(options.pathEnv, platform), platform);
  const searched = entries.filter((entry) => isStrictlyAbsolute(entry, platform));
  const ignored = entries.filter((entry) => !isStrictlyAbsolute(entry, platform));
  const readFile = options.readFile ?? defaultReadFile;
  // The `node` an npm shim falls back to: its PATH lookup, with no further shim followed.
  const findNode = async (): Promise<NodeOnPath> => {
    const found = await onPath('node');
    return found.ok ? { ok: true, path: found.path } : { ok: false, message: found.message };
  };
  const finish = async (found: ResolvedCommand): Promise<ResolvedCommand> => {
    if (!win || !found.ok) return found;
    const ext = path.win32.extname(found.path).toLowerCase();
    if (ext !== '.cmd' && ext !== '.bat') return found;
    return followShim(found.path, { readFile, isFile, findNode });
  };

  if (command.trim() === '') {
    return {
      ok: false,
      reason: 'not-found',
      message: 'The command is empty. Set "command" for this server in config.json.',
    };
  }

  if (command.startsWith('~')) {
    return {
      ok: false,
      reason: 'relative-path',
      message:
        `'${command}' starts with '~', which only a shell expands, and Switchyard runs no shell. ` +
        'Write the absolute path in "command" in config.json.',
    };
  }

  if (isStrictlyAbsolute(command, platform)) {
    return finish(await probe(paths.normalize(command), candidatesOf(paths.normalize(command))));
  }

  if (hasPathSyntax(command, platform)) {
    const { cwd } = options;
    if (
      cwd !== undefined &&
      isStrictlyAbsolute(cwd, platform) &&
      !hasDriveRelative(command, platform)
    ) {
      const joined = paths.join(cwd, command);
      return finish(await probe(joined, candidatesOf(joined)));
    }
    return {
      ok: false,
      reason: 'relative-path',
      message:
        `'${command}' is a relative path, and Switchyard never resolves commands against its own ` +
        'working directory. Use an absolute path, or give this server an absolute "cwd" in ' +
        'config.json to resolve it against.',
    };
  }

  // A bare name: search absolute PATH entries only.
  return finish(await onPath(command));

  async function onPath(name: string): Promise<ResolvedCommand> {
    let notExecutable: string | undefined;
    for (const dir of searched) {
      for (const candidate of candidatesOf(paths.join(dir, name))) {
        if (!(await isFile(candidate))) continue;
        if (await isExecutable(candidate)) return { ok: true, path: candidate };
        // Like `which`: keep searching, but remember why the first hit did not count.
        notExecutable ??= candidate;
      }
    }
    if (notExecutable !== undefined) {
      return { ok: false, reason: 'not-executable', message: notExecutableMessage(notExecutable) };
    }
    return {
      ok: false,
      reason: 'not-found',
      message: notOnPathMessage(name, platform, searched, ignored),
    };
  }

  async function probe(shown: string, candidates: string[]): Promise<ResolvedCommand> {
    let firstFile: string | undefined;
    for (const candidate of candidates) {
      if (!(await isFile(candidate))) continue;
      if (await isExecutable(candidate)) return { ok: true, path: candidate };
      firstFile ??= candidate;
    }
    if (firstFile !== undefined) {
      return { ok: false, reason: 'not-executable', message: notExecutableMessage(firstFile) };
    }
    const tried = candidates.length > 1 ? ` (tried ${candidates.join(', ')})` : '';
    return {
      ok: false,
      reason: 'not-found',
      message: `'${shown}' does not exist${tried}. Fix "command" for this server in config.json.`,
    };
  }
}

/** Absolute in a way that does not depend on the current directory or drive. */
function isStrictlyAbsolute(p: string, platform: NodeJS.Platform): boolean {
  if (platform !== 'win32') return p.startsWith('/');
  return /^[A-Za-z]:[\\/]/.test(p) || /^[\\/]{2}[^\\/]/.test(p);
}

function hasPathSyntax(command: string, platform: NodeJS.Platform): boolean {
  if (command === '.' || command === '..') return true;
  return platform === 'win32' ? /[\\/:]/.test(command) : command.includes('/');
}

/** `C:x` or `\x` on win32: relative to a drive's own current directory; never resolved. */
function hasDriveRelative(command: string, platform: NodeJS.Platform): boolean {
  return platform === 'win32' && (command.includes(':') || /^[\\/]/.test(command));
}

function splitPath(pathEnv: string | undefined, platform: NodeJS.Platform): string[] {
  if (pathEnv === undefined) return [];
  const win = platform === 'win32';
  return pathEnv
    .split(win ? ';' : ':')
    .map((entry) => (win ? entry.trim().replace(/^"(.*)"$/, '$1') : entry))
    .filter((entry) => entry !== '');
}

function pathExtensions(pathExt: string | undefined): string[] {
  const list = (pathExt === undefined || pathExt.trim() === '' ? DEFAULT_PATHEXT : pathExt)
    .split(';')
    .map((ext) => ext.trim().toLowerCase())
    .filter((ext) => /^\.[^.\\/]+$/.test(ext));
  return [...new Set(list)];
}

function withExtensions(base: string, extensions: string[]): string[] {
  const ext = path.win32.extname(base).toLowerCase();
  return ext !== '' && extensions.includes(ext) ? [base] : extensions.map((e) => base + e);
}

function notExecutableMessage(file: string): string {
  return (
    `'${file}' is not executable. Make it executable (chmod +x), or set "command" to its ` +
    'interpreter (for example "node") with the script as the first argument.'
  );
}

/** `entries` without repeats (case-insensitive on Windows, where folder names are), in order. */
function distinctFolders(entries: readonly string[], platform: NodeJS.Platform): string[] {
  const seen = new Set<string>();
  return entries.filter((entry) => {
    const key = platform === 'win32' ? entry.toLowerCase() : entry;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function notOnPathMessage(
  command: string,
  platform: NodeJS.Platform,
  searched: string[],
  ignored: string[],
): string {
  const lookup = platform === 'win32' ? `where ${command}` : `command -v ${command}`;
  const ignoredNote =
    ignored.length > 0
      ? ` Relative PATH entries were ignored (${ignored.join(', ')}): they would resolve against the working directory.`
      : '';
  if (searched.length === 0) {
    return (
      `'${command}' was not found: PATH has no absolute directories. A browser started from the ` +
      `desktop passes a bare environment, so set an absolute command in config.json (run ` +
      `'${lookup}' in your shell to find it).${ignoredNote}`
    );
  }
  return (
    `'${command}' was not found on PATH (searched: ${searched.join(', ')}). Install it or set an ` +
    `absolute command in config.json (run '${lookup}' in your shell to find it).${ignoredNote}`
  );
}

async function defaultReadFile(p: string): Promise<string> {
  return new TextDecoder().decode(await readFileBounded(p, MAX_SHIM_BYTES));
}

async function defaultIsFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

async function defaultIsExecutable(p: string): Promise<boolean> {
  try {
    await access(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
