import { spawn as nodeSpawn, spawnSync as nodeSpawnSync } from 'node:child_process';
import type { SpawnOptions, SpawnSyncOptions } from 'node:child_process';
import path from 'node:path';
import { errnoCode } from '../shared/errno';

// Signalling whole process groups (POSIX) and process trees (win32). The transport spawns each
// server as the leader of its own group, so npx / sh -c descendants can be reached (design D1)
// and killed at once on shutdown (design D12).

/** `process.kill` semantics: a negative pid signals that process group; signal 0 probes. */
export type KillFn = (pid: number, signal: NodeJS.Signals | 0) => void;

/** Production `KillFn`. */
export function processKill(pid: number, signal: NodeJS.Signals | 0): void {
  process.kill(pid, signal);
}

/**
 * Sends `signal` to the process group `pgid` (POSIX). Returns false when the group no longer
 * exists (ESRCH); other failures (EPERM: a member changed user) count as "exists".
 */
export function signalProcessGroup(
  pgid: number,
  signal: NodeJS.Signals | 0,
  kill: KillFn = processKill,
): boolean {
  assertChildPid(pgid);
  try {
    kill(-pgid, signal);
    return true;
  } catch (error) {
    return errnoCode(error) !== 'ESRCH';
  }
}

export interface KillNowOptions {
  platform?: NodeJS.Platform;
  kill?: KillFn;
  spawnSync?: (command: string, args: readonly string[], options: SpawnSyncOptions) => unknown;
  systemRoot?: string | undefined;
}

/**
 * Last resort, synchronous: SIGKILLs the process group `pid` (win32: `taskkill /T /F`, waited
 * for). Safe to call from a `process.on('exit')` handler, where nothing asynchronous runs
 * (design D12: Chromium never kills a host's children). Never throws for a group that is gone;
 * throws `RangeError` for a pid that would hit our own group or every process (0, 1, negative).
 */
export function killProcessGroupNow(pid: number, options: KillNowOptions = {}): void {
  assertChildPid(pid);
  if ((options.platform ?? process.platform) === 'win32') {
    const run = options.spawnSync ?? nodeSpawnSync;
    run(taskkillPath(options.systemRoot ?? process.env.SystemRoot), taskkillArgs(pid), {
      stdio: 'ignore',
      windowsHide: true,
      timeout: 1000,
    });
    return;
  }
  try {
    (options.kill ?? processKill)(-pid, 'SIGKILL');
  } catch {
    // ESRCH: nothing left to kill.
  }
}

export interface TreeKillOptions {
  systemRoot?: string | undefined;
  spawn?: (
    command: string,
    args: readonly string[],
    options: SpawnOptions,
  ) => { on(event: 'error', listener: (error: Error) => void): unknown };
}

/**
 * win32: kills `pid` and its descendants with `taskkill /T /F`, asynchronously and best effort
 * (failures are ignored: the caller follows up with TerminateProcess). taskkill is run by
 * absolute path under %SystemRoot%, never looked up on PATH (design D6). The tree is found
 * through parent pids, so it must run while `pid` is still alive.
 */
export function killProcessTreeWindows(pid: number, options: TreeKillOptions = {}): void {
  assertChildPid(pid);
  const run = options.spawn ?? nodeSpawn;
  const systemRoot = options.systemRoot ?? process.env.SystemRoot;
  const child = run(taskkillPath(systemRoot), taskkillArgs(pid), {
    stdio: 'ignore',
    windowsHide: true,
    shell: false,
  });
  child.on('error', () => undefined);
}

function taskkillPath(systemRoot: string | undefined): string {
  const root =
    systemRoot !== undefined && /^[A-Za-z]:[\\/]/.test(systemRoot) ? systemRoot : 'C:\\Windows';
  return path.win32.join(root, 'System32', 'taskkill.exe');
}

function taskkillArgs(pid: number): string[] {
  return ['/pid', String(pid), '/T', '/F'];
}

/** kill(-0) is our own group and kill(-1) every process we may signal: never let those through. */
export function assertChildPid(pid: number): void {
  if (!Number.isSafeInteger(pid) || pid <= 1) {
    throw new RangeError(`refusing to signal process group ${pid}: not a child's pid`);
  }
}
