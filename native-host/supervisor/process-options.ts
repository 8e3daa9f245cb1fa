import { spawn as nodeSpawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams, SpawnOptionsWithoutStdio } from 'node:child_process';
import { killProcessTreeWindows, processKill, type KillFn } from './process-group';
import {
  EXIT_MARGIN_MS,
  GROUP_POLL_MS,
  KILL_GRACE_MS,
  defaultSchedule,
  type ScheduleFn,
} from './process-stop';
import { RingBuffer } from './ring-buffer';

/** How the server's main process ended (`code` null when killed by `signal`). */
export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** The part of `child_process.spawn` the transport uses; `child_process.spawn` itself fits. */
export type SpawnFn = (
  command: string,
  args: readonly string[],
  options: SpawnOptionsWithoutStdio,
) => ChildProcessWithoutNullStreams;

export interface ProcessTransportOptions {
  /** Absolute path of the executable, already resolved (see `resolveCommand`, design D6). */
  command: string;
  args: readonly string[];
  /** The child's whole environment: nothing is inherited from the host (design D5). */
  env: Record<string, string>;
  cwd?: string;
  /** Per-line cap on stdout; default `MAX_LINE_BYTES` (16 MiB). */
  maxLineBytes?: number;
  /** Where stderr lines are kept; default a `RingBuffer` with its default caps. */
  stderr?: RingBuffer;
  /** SIGTERM -> SIGKILL grace (on win32: stdin EOF -> taskkill); default `KILL_GRACE_MS`. */
  killGraceMs?: number;
  /** Wait after SIGKILL before `close()` gives up; default `EXIT_MARGIN_MS`. */
  exitMarginMs?: number;
  /** Poll interval for "is the process group empty yet"; default `GROUP_POLL_MS`. */
  groupPollMs?: number;
  /** Each complete stderr line (capped), as it arrives. Untrusted text (design D9). */
  onStderrLine?: (line: string) => void;
  /** A stdout line that was skipped, described by size only (see `describeNoise`). */
  onProtocolNoise?: (description: string) => void;
  spawn?: SpawnFn;
  kill?: KillFn;
  schedule?: ScheduleFn;
  platform?: NodeJS.Platform;
  /** win32: kills the process tree of `pid`; default `killProcessTreeWindows`. */
  killTree?: (pid: number) => void;
}

/** The options with every default filled in and every duration checked. */
export interface ResolvedTransportOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  readonly cwd: string | undefined;
  readonly maxLineBytes: number | undefined;
  readonly stderr: RingBuffer;
  readonly killGraceMs: number;
  readonly exitMarginMs: number;
  readonly groupPollMs: number;
  readonly onStderrLine: ((line: string) => void) | undefined;
  readonly onProtocolNoise: ((description: string) => void) | undefined;
  readonly spawn: SpawnFn;
  readonly kill: KillFn;
  readonly schedule: ScheduleFn;
  readonly win: boolean;
  readonly killTree: (pid: number) => void;
}

/**
 * Fills in the production defaults (Node's spawn and kill, real timers, this platform) and copies
 * what the caller could still change. Throws RangeError for a negative or non-finite duration.
 */
export function resolveTransportOptions(
  options: ProcessTransportOptions,
): ResolvedTransportOptions {
  return {
    command: options.command,
    args: [...options.args],
    env: { ...options.env },
    cwd: options.cwd,
    maxLineBytes: options.maxLineBytes,
    stderr: options.stderr ?? new RingBuffer(),
    killGraceMs: nonNegative('killGraceMs', options.killGraceMs ?? KILL_GRACE_MS),
    exitMarginMs: nonNegative('exitMarginMs', options.exitMarginMs ?? EXIT_MARGIN_MS),
    groupPollMs: nonNegative('groupPollMs', options.groupPollMs ?? GROUP_POLL_MS),
    onStderrLine: options.onStderrLine,
    onProtocolNoise: options.onProtocolNoise,
    spawn: options.spawn ?? nodeSpawn,
    kill: options.kill ?? processKill,
    schedule: options.schedule ?? defaultSchedule,
    win: (options.platform ?? process.platform) === 'win32',
    killTree:
      options.killTree ??
      ((pid) => {
        killProcessTreeWindows(pid);
      }),
  };
}

/** What the child is spawned with: its own env and cwd, piped stdio, never a shell. */
export function childSpawnOptions(options: ResolvedTransportOptions): SpawnOptionsWithoutStdio {
  return {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    // Design D6: never a shell. POSIX: a new process group (setsid), so close() can signal
    // npx / sh -c grandchildren too (D1). win32 has no groups; detached would open a console.
    shell: false,
    detached: !options.win,
    windowsHide: true,
  };
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`ProcessTransport: ${name} must be a non-negative number, got ${value}`);
  }
  return value;
}
