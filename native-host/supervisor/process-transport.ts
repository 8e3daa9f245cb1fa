import { spawn as nodeSpawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams, SpawnOptionsWithoutStdio } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JsonRpcLineReader, describeNoise } from './line-splitter';
import { ProcessSpawnError, TransportClosedError, errorCode } from './process-errors';
import {
  killProcessTreeWindows,
  processKill,
  signalProcessGroup,
  type KillFn,
} from './process-group';
import { RingBuffer } from './ring-buffer';

export { ProcessSpawnError, TransportClosedError } from './process-errors';
export { killProcessGroupNow, type KillFn } from './process-group';

/**
 * SIGTERM -> SIGKILL grace. Chromium kills a lingering host about 2 s after the port closes and
 * never kills its children (design D12): grace + EXIT_MARGIN_MS must leave the host time to
 * drain stdout and exit.
 */
export const KILL_GRACE_MS = 1000;
/** How long after SIGKILL `close()` still waits for the exit before giving up. */
export const EXIT_MARGIN_MS = 250;
/** How often a stopping transport checks whether the process group is empty. */
export const GROUP_POLL_MS = 25;

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

/** Runs `callback` after `ms`; returns a function that cancels it. */
export type ScheduleFn = (callback: () => void, ms: number) => () => void;

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

type Child = ChildProcessWithoutNullStreams;

// The process lifecycle (style habit 9). `stopping` covers both a requested close and a main
// process that exited by itself: either way the group is swept and the transport then closes.
type State =
  | { kind: 'idle' }
  | {
      kind: 'starting';
      child: Child;
      closeRequested: boolean;
      resolve: () => void;
      reject: (error: Error) => void;
    }
  | { kind: 'running'; child: Child; pid: number }
  | { kind: 'stopping'; child: Child; pid: number; forced: boolean; groupGone: boolean }
  | { kind: 'closed' };

/**
 * An MCP `Transport` over a child process's stdio that owns the process's whole lifetime
 * (design D1: the SDK's `StdioClientTransport` orphans grandchildren, waits too long on close,
 * hides the exit status and drops the connection on one long line).
 *
 * Contract:
 * - `start()` spawns without a shell, in a new process group on POSIX (`detached`), and resolves
 *   once the process runs; it rejects with `ProcessSpawnError` (then `onclose` fires).
 * - `send()` writes one JSON line, waiting for `drain` under backpressure; it rejects with
 *   `TransportClosedError` unless the process is running.
 * - Stdout is parsed line by line; lines that are not JSON-RPC, or longer than `maxLineBytes`,
 *   go to `onProtocolNoise` and never end the connection. Stderr goes to the ring buffer.
 * - `close()` ends stdin and SIGTERMs the process group at once, SIGKILLs the group after
 *   `killGraceMs`, and resolves once the main process has exited, the group is empty (or was
 *   SIGKILLed) and stdout is closed, or at the latest `killGraceMs + exitMarginMs` after it was
 *   called. On win32 it ends stdin and kills the tree with taskkill after the grace.
 * - When the main process exits by itself its group is swept the same way (leftover
 *   grandchildren are SIGTERMed, then SIGKILLed).
 * - `onexit` fires when the main process exits, with `exitInfo`; `onclose` fires exactly once,
 *   after that (or after a failed start, or on `close()` before `start()`), with stderr flushed.
 * - Callbacks that throw are reported to `onerror`, never to the process.
 *
 * Limits: a descendant that leaves the group (`setsid`) escapes the sweep; on win32 the tree
 * can only be found while the main process lives.
 */
export class ProcessTransport implements Transport {
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  onmessage?: Transport['onmessage'];
  /** The main process exited (before `onclose`). */
  onexit?: ((info: ExitInfo) => void) | undefined;

  readonly #command: string;
  readonly #args: readonly string[];
  readonly #env: Record<string, string>;
  readonly #cwd: string | undefined;
  readonly #stderr: RingBuffer;
  readonly #killGraceMs: number;
  readonly #exitMarginMs: number;
  readonly #groupPollMs: number;
  readonly #onStderrLine: ((line: string) => void) | undefined;
  readonly #onProtocolNoise: ((description: string) => void) | undefined;
  readonly #spawn: SpawnFn;
  readonly #kill: KillFn;
  readonly #schedule: ScheduleFn;
  readonly #win: boolean;
  readonly #killTree: (pid: number) => void;
  readonly #reader: JsonRpcLineReader;

  #state: State = { kind: 'idle' };
  #exitInfo: ExitInfo | undefined;
  #pid: number | undefined;
  #stdoutClosed = false;
  readonly #timers = new Set<() => void>();
  readonly #drainWaiters = new Set<(error?: Error) => void>();
  readonly #closed: Promise<void>;
  #markClosed: () => void = () => undefined;

  constructor(options: ProcessTransportOptions) {
    this.#command = options.command;
    this.#args = [...options.args];
    this.#env = { ...options.env };
    this.#cwd = options.cwd;
    this.#stderr = options.stderr ?? new RingBuffer();
    this.#killGraceMs = nonNegative('killGraceMs', options.killGraceMs ?? KILL_GRACE_MS);
    this.#exitMarginMs = nonNegative('exitMarginMs', options.exitMarginMs ?? EXIT_MARGIN_MS);
    this.#groupPollMs = nonNegative('groupPollMs', options.groupPollMs ?? GROUP_POLL_MS);
    this.#onStderrLine = options.onStderrLine;
    this.#onProtocolNoise = options.onProtocolNoise;
    this.#spawn = options.spawn ?? nodeSpawn;
    this.#kill = options.kill ?? processKill;
    this.#schedule = options.schedule ?? defaultSchedule;
    this.#win = (options.platform ?? process.platform) === 'win32';
    this.#killTree =
      options.killTree ??
      ((pid) => {
        killProcessTreeWindows(pid);
      });
    this.#reader = new JsonRpcLineReader({
      ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
      onMessage: (message) => {
        this.#safely(() => this.onmessage?.(message));
      },
      onNoise: (noise) => {
        this.#safely(() => this.#onProtocolNoise?.(describeNoise(noise)));
      },
    });
    this.#closed = new Promise((resolve) => {
      this.#markClosed = resolve;
    });
  }

  /** The main process's pid once spawned. */
  get pid(): number | undefined {
    return this.#pid;
  }

  /** How the main process ended; undefined while it runs (or if it never started). */
  get exitInfo(): ExitInfo | undefined {
    return this.#exitInfo;
  }

  /** The server's recent stderr lines. */
  get stderr(): RingBuffer {
    return this.#stderr;
  }

  start(): Promise<void> {
    if (this.#state.kind !== 'idle') {
      return Promise.reject(
        new Error(
          'ProcessTransport was already started (Client.connect() starts it; do not call start() too)',
        ),
      );
    }
    let child: Child;
    try {
      child = this.#spawn(this.#command, this.#args, {
        ...(this.#cwd === undefined ? {} : { cwd: this.#cwd }),
        env: this.#env,
        stdio: ['pipe', 'pipe', 'pipe'],
        // Design D6: never a shell. POSIX: a new process group (setsid), so close() can signal
        // npx / sh -c grandchildren too (D1). win32 has no groups; detached would open a console.
        shell: false,
        detached: !this.#win,
        windowsHide: true,
      });
    } catch (error) {
      // Synchronous refusals: a NUL byte in an argument, a .cmd file without a shell (EINVAL).
      const spawnError = new ProcessSpawnError(this.#command, this.#cwd, error);
      this.#finish();
      return Promise.reject(spawnError);
    }
    return new Promise<void>((resolve, reject) => {
      this.#state = { kind: 'starting', child, closeRequested: false, resolve, reject };
      this.#wire(child);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const state = this.#state;
    if (state.kind !== 'running') {
      return Promise.reject(new TransportClosedError(this.#notRunningReason()));
    }
    // JSON.stringify escapes newlines inside strings, so one message is exactly one line.
    const line = JSON.stringify(message) + '\n';
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const settle = (error?: Error): void => {
        if (settled) return;
        settled = true;
        this.#drainWaiters.delete(settle);
        if (error === undefined) resolve();
        else reject(error);
      };
      const accepted = state.child.stdin.write(line, (error) => {
        if (error) {
          settle(
            new TransportClosedError(`could not write to the server's stdin: ${error.message}`, {
              cause: error,
            }),
          );
        }
      });
      if (accepted) settle();
      else this.#drainWaiters.add(settle);
    });
  }

  close(): Promise<void> {
    const state = this.#state;
    switch (state.kind) {
      case 'idle':
        this.#finish();
        break;
      case 'starting':
        state.closeRequested = true;
        break;
      case 'running':
        this.#beginStop(state.child, state.pid);
        break;
      case 'stopping':
      case 'closed':
        break;
    }
    return this.#closed;
  }

  #wire(child: Child): void {
    child.on('spawn', () => {
      this.#onSpawn(child);
    });
    child.on('error', (error) => {
      this.#onChildError(error);
    });
    child.on('exit', (code, signal) => {
      this.#onExit({ code, signal });
    });
    child.stdout.on('data', (chunk: Buffer) => {
      this.#reader.push(chunk);
    });
    child.stdout.on('end', () => {
      this.#reader.end();
    });
    child.stdout.on('close', () => {
      this.#stdoutClosed = true;
      this.#maybeFinish();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      this.#emitStderr(this.#stderr.write(chunk));
    });
    child.stderr.on('end', () => {
      this.#emitStderr(this.#stderr.end());
    });
    child.stdin.on('drain', () => {
      for (const settle of [...this.#drainWaiters]) settle();
    });
    // A server that exits while we write gives EPIPE; the exit itself is what gets reported.
    child.stdin.on('error', (error) => {
      if (!isPipeClosedError(error)) this.#reportError(error);
    });
    child.stdout.on('error', (error) => {
      this.#reportError(error);
    });
    child.stderr.on('error', (error) => {
      this.#reportError(error);
    });
  }

  #onSpawn(child: Child): void {
    const state = this.#state;
    if (state.kind !== 'starting' || state.child !== child) return;
    const { pid } = child;
    if (pid === undefined) {
      this.#failStart(state, new Error('the process started without a pid'));
      return;
    }
    this.#pid = pid;
    this.#state = { kind: 'running', child, pid };
    state.resolve();
    if (state.closeRequested) this.#beginStop(child, pid);
  }

  #onChildError(error: Error): void {
    const state = this.#state;
    if (state.kind === 'starting') {
      this.#failStart(state, error);
      return;
    }
    // After spawn, Node reports failed kill() or send() here; none of them ends the process.
    this.#reportError(error);
  }

  #failStart(state: Extract<State, { kind: 'starting' }>, error: unknown): void {
    state.reject(new ProcessSpawnError(this.#command, this.#cwd, error));
    this.#finish();
  }

  #onExit(info: ExitInfo): void {
    this.#exitInfo = info;
    this.#safely(() => this.onexit?.(info));
    const state = this.#state;
    if (state.kind === 'running') {
      // It exited by itself: sweep whatever it left in its group, then close.
      this.#beginStop(state.child, state.pid);
    }
    this.#maybeFinish();
  }

  #beginStop(child: Child, pid: number): void {
    const stopping: Extract<State, { kind: 'stopping' }> = {
      kind: 'stopping',
      child,
      pid,
      forced: false,
      groupGone: false,
    };
    this.#state = stopping;
    try {
      child.stdin.end();
    } catch {
      // Already destroyed: the process is exiting anyway.
    }
    if (!this.#win) {
      // Design D12: the whole group at once, not just the direct child (D1). The MCP stdio
      // spec suggests stdin EOF, a wait, then SIGTERM; inside Chromium's ~2 s budget there is
      // room for one wait only, so EOF and SIGTERM go together and the wait is before SIGKILL.
      if (!this.#signalGroup(pid, 'SIGTERM')) stopping.groupGone = true;
      const poll = (): void => {
        if (this.#state !== stopping || stopping.groupGone) return;
        this.#maybeFinish();
        this.#after(this.#groupPollMs, poll);
      };
      this.#after(this.#groupPollMs, poll);
    }
    this.#after(this.#killGraceMs, () => {
      this.#force(stopping);
    });
    this.#after(this.#killGraceMs + this.#exitMarginMs, () => {
      // Bounded: a process stuck in uninterruptible sleep must not hold up the host's exit.
      this.#finish();
    });
    this.#maybeFinish();
  }

  #force(stopping: Extract<State, { kind: 'stopping' }>): void {
    if (this.#state !== stopping) return;
    stopping.forced = true;
    if (this.#win) {
      if (this.#exitInfo === undefined) {
        this.#killTree(stopping.pid);
        // Belt and braces if taskkill is missing: TerminateProcess on the main process.
        stopping.child.kill('SIGKILL');
      }
    } else {
      this.#signalGroup(stopping.pid, 'SIGKILL');
    }
    this.#maybeFinish();
  }

  #maybeFinish(): void {
    const state = this.#state;
    if (state.kind !== 'stopping' || this.#exitInfo === undefined || !this.#stdoutClosed) return;
    // Even after SIGKILL, wait for the group to be empty (until the give-up deadline): close()
    // promises that nothing survives, and a killed process takes a moment to go.
    if (!this.#win && !state.groupGone) {
      state.groupGone = !this.#groupAlive(state.pid);
      if (!state.groupGone) return;
    }
    this.#finish();
  }

  #finish(): void {
    const state = this.#state;
    if (state.kind === 'closed') return;
    this.#state = { kind: 'closed' };
    for (const cancel of this.#timers) cancel();
    this.#timers.clear();
    if (state.kind !== 'idle') {
      // Releases the pipes if we gave up waiting (a grandchild may still hold them open).
      state.child.stdin.destroy();
      state.child.stdout.destroy();
      state.child.stderr.destroy();
    }
    this.#emitStderr(this.#stderr.end());
    const closedError = new TransportClosedError(this.#notRunningReason());
    for (const settle of [...this.#drainWaiters]) settle(closedError);
    this.#markClosed();
    this.#safely(() => this.onclose?.());
  }

  /** Signals the process group `pid`; false when the group no longer exists. */
  #signalGroup(pid: number, signal: NodeJS.Signals): boolean {
    return signalProcessGroup(pid, signal, this.#kill);
  }

  #groupAlive(pid: number): boolean {
    return signalProcessGroup(pid, 0, this.#kill);
  }

  #after(ms: number, callback: () => void): void {
    const cancel = this.#schedule(() => {
      this.#timers.delete(cancel);
      callback();
    }, ms);
    this.#timers.add(cancel);
  }

  #emitStderr(lines: string[]): void {
    for (const line of lines) this.#safely(() => this.#onStderrLine?.(line));
  }

  #notRunningReason(): string {
    const state = this.#state;
    switch (state.kind) {
      case 'idle':
      case 'starting':
        return 'the server process has not started yet';
      case 'running':
        return 'the server process is running';
      case 'stopping':
      case 'closed':
        return this.#exitInfo === undefined
          ? 'the server connection is closed'
          : `the server process exited (${describeExit(this.#exitInfo)})`;
    }
  }

  #safely(callback: () => void): void {
    try {
      callback();
    } catch (error) {
      this.#reportError(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #reportError(error: Error): void {
    try {
      this.onerror?.(error);
    } catch {
      // A throwing onerror has nowhere left to report to; it must not reach the event loop.
    }
  }
}

/** "code 3" or "signal SIGKILL", for messages. */
export function describeExit(info: ExitInfo): string {
  return info.signal !== null ? `signal ${info.signal}` : `code ${info.code ?? 'unknown'}`;
}

function defaultSchedule(callback: () => void, ms: number): () => void {
  const timer = setTimeout(callback, ms);
  return () => {
    clearTimeout(timer);
  };
}

function isPipeClosedError(error: Error): boolean {
  const code = errorCode(error);
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ECONNRESET';
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`ProcessTransport: ${name} must be a non-negative number, got ${value}`);
  }
  return value;
}
