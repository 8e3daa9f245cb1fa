import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { signalProcessGroup, type KillFn } from './process-group';

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

/** Runs `callback` after `ms`; returns a function that cancels it. */
export type ScheduleFn = (callback: () => void, ms: number) => () => void;

/** `setTimeout` as a `ScheduleFn`. */
export function defaultSchedule(callback: () => void, ms: number): () => void {
  const timer = setTimeout(callback, ms);
  return () => {
    clearTimeout(timer);
  };
}

export interface StopSequenceOptions {
  readonly child: ChildProcessWithoutNullStreams;
  /** The main process's pid, which is also its process group's id on POSIX. */
  readonly pid: number;
  /** win32: no process groups; the tree is killed with `killTree` after the grace. */
  readonly win: boolean;
  readonly killGraceMs: number;
  readonly exitMarginMs: number;
  readonly groupPollMs: number;
  readonly kill: KillFn;
  readonly killTree: (pid: number) => void;
  readonly schedule: ScheduleFn;
  /** Whether the main process has exited (win32 then has no tree left to find). */
  readonly exited: () => boolean;
  /** A poll or a kill happened: the transport checks whether it may close now. */
  readonly onProgress: () => void;
  /** The give-up deadline (`killGraceMs + exitMarginMs`) passed: close whatever is left. */
  readonly onGiveUp: () => void;
}

/**
 * The stop half of the process lifecycle (design D12): ends stdin and SIGTERMs the process group
 * at once, polls until the group is empty, SIGKILLs the group after `killGraceMs` (win32: kills
 * the tree), and gives up `exitMarginMs` after that. Whether the transport may close (exit seen,
 * stdout closed) is the transport's to decide; this says only whether the group is gone.
 * `cancel()` stops every timer once the transport has closed.
 */
export class StopSequence {
  /** SIGKILL (or taskkill) was sent. */
  forced = false;
  #groupGone = false;
  #done = false;
  readonly #timers = new Set<() => void>();

  constructor(private readonly options: StopSequenceOptions) {}

  /** Ends stdin, SIGTERMs the group and arms the poll, the SIGKILL and the give-up timers. */
  begin(): void {
    const { child, pid, win } = this.options;
    try {
      child.stdin.end();
    } catch {
      // Already destroyed: the process is exiting anyway.
    }
    if (!win) {
      // Design D12: the whole group at once, not just the direct child (D1). The MCP stdio
      // spec suggests stdin EOF, a wait, then SIGTERM; inside Chromium's ~2 s budget there is
      // room for one wait only, so EOF and SIGTERM go together and the wait is before SIGKILL.
      if (!signalProcessGroup(pid, 'SIGTERM', this.options.kill)) this.#groupGone = true;
      const poll = (): void => {
        if (this.#done || this.#groupGone) return;
        this.options.onProgress();
        this.#after(this.options.groupPollMs, poll);
      };
      this.#after(this.options.groupPollMs, poll);
    }
    this.#after(this.options.killGraceMs, () => {
      this.#force();
    });
    this.#after(this.options.killGraceMs + this.options.exitMarginMs, () => {
      // Bounded: a process stuck in uninterruptible sleep must not hold up the host's exit.
      this.options.onGiveUp();
    });
  }

  /**
   * Whether the process group is empty (always true on win32, which has none). Even after
   * SIGKILL the transport waits for this (until the give-up deadline): close() promises that
   * nothing survives, and a killed process takes a moment to go.
   */
  groupGone(): boolean {
    if (this.options.win || this.#groupGone) return true;
    this.#groupGone = !signalProcessGroup(this.options.pid, 0, this.options.kill);
    return this.#groupGone;
  }

  /** Cancels every pending timer; the sequence does nothing more. */
  cancel(): void {
    this.#done = true;
    for (const cancel of this.#timers) cancel();
    this.#timers.clear();
  }

  #force(): void {
    if (this.#done) return;
    this.forced = true;
    const { child, pid } = this.options;
    if (this.options.win) {
      if (!this.options.exited()) {
        this.options.killTree(pid);
        // Belt and braces if taskkill is missing: TerminateProcess on the main process.
        child.kill('SIGKILL');
      }
    } else {
      signalProcessGroup(pid, 'SIGKILL', this.options.kill);
    }
    this.options.onProgress();
  }

  #after(ms: number, callback: () => void): void {
    const cancel = this.options.schedule(() => {
      this.#timers.delete(cancel);
      callback();
    }, ms);
    this.#timers.add(cancel);
  }
}
