import { promises as fsPromises } from 'node:fs';
import path from 'node:path';

/**
 * The audit log: one JSON line per event under `$SWITCHYARD_HOME/audit.jsonl`, readable by the
 * user only. It records what happened and how big it was (tool, decision, sizes, SHA-256 hashes,
 * timings), never argument or result values (design D9): the log must be safe to attach to a bug
 * report. Appends never throw at the caller; a failing disk costs the log, not the call.
 *
 * An entry is timestamped when it is appended and built, serialized and written later, off the
 * caller's path: `append` may take a function that builds the entry (the call pipeline hashes
 * arguments and results there), run on the next turn of the event loop, after the reply that
 * triggered it has gone out. Lines are then written in batches: one `appendFile` per batch rather
 * than one per tool call (each is an open, a write and a close on libuv's thread pool, a large
 * share of the host's CPU per relayed call when done per call). A batch is written once
 * `flushDelayMs` has passed since its first entry, at once when it reaches `maxBatchBytes`, and on
 * `flush()`, which the host's shutdown awaits. The timer keeps the process alive until its batch
 * is written, so a process that exits on its own loses nothing either.
 */

export interface AuditEntry {
  readonly event: 'call' | 'launch' | 'trust' | 'policy';
  readonly server?: string;
  readonly tool?: string;
  readonly exposedName?: string;
  /** Policy decision or user decision. */
  readonly decision?: string;
  /** How it ended: ok, tool-error, an error reason, approval-required, denied. */
  readonly outcome?: string;
  readonly argumentsBytes?: number;
  readonly argumentsHash?: string;
  readonly resultBytes?: number;
  readonly resultHash?: string;
  readonly durationMs?: number;
  readonly fingerprint?: string;
}

/**
 * What `append` takes: an entry, or a function that builds it after the caller's turn. A builder
 * must only read values nobody modifies afterwards (it may run after the caller has returned).
 */
export type AuditRecord = AuditEntry | (() => AuditEntry);

/** Schedules `fn` after `ms`; returns a function that cancels it. */
export type Schedule = (fn: () => void, ms: number) => () => void;

export interface AuditLogOptions {
  readonly file: string;
  /** Size at which the log rotates to `<file>.1` (one generation kept). Default 10 MiB. */
  readonly maxBytes?: number;
  readonly now?: () => Date;
  readonly fs?: Pick<typeof fsPromises, 'appendFile' | 'mkdir' | 'rename' | 'stat' | 'chmod'>;
  readonly onError?: (error: unknown) => void;
  /** Longest an entry waits before its batch is written. Default AUDIT_FLUSH_DELAY_MS. */
  readonly flushDelayMs?: number;
  /**
   * Size of the pending lines (in characters: entries are ASCII but for names) at which a batch is
   * written without waiting. Default AUDIT_MAX_BATCH_BYTES.
   */
  readonly maxBatchBytes?: number;
  /** Timer for the flush delay; tests inject a manual one. Default `setTimeout`. */
  readonly schedule?: Schedule;
  /** Runs `fn` after the current turn of the event loop. Default `setImmediate`. */
  readonly defer?: (fn: () => void) => void;
}

export const DEFAULT_AUDIT_MAX_BYTES = 10 * 1024 * 1024;
/** Short enough that a log someone tails (or a test polls) looks live. */
export const AUDIT_FLUSH_DELAY_MS = 100;
/** About 250 call entries: bounds what a batch holds in memory under a burst of calls. */
export const AUDIT_MAX_BATCH_BYTES = 64 * 1024;

export class AuditLog {
  private readonly options: AuditLogOptions;
  private readonly schedule: Schedule;
  private readonly defer: (fn: () => void) => void;
  /** Appended, not yet built and serialized, oldest first. */
  private unbuilt: Array<{ readonly at: Date; readonly record: AuditRecord }> = [];
  private buildScheduled = false;
  /** Serialized lines not yet handed to a write, oldest first. */
  private pending: string[] = [];
  private pendingChars = 0;
  /** The running write loop, if any: it writes batches until nothing is pending. */
  private writing: Promise<void> | undefined;
  private cancelTimer: (() => void) | undefined;
  private size: number | undefined;

  constructor(options: AuditLogOptions) {
    this.options = options;
    this.schedule = options.schedule ?? scheduleTimeout;
    this.defer = options.defer ?? deferImmediate;
  }

  /**
   * Queues one entry, timestamped now; a builder runs after the caller's turn (its failure is
   * reported through `onError` and costs that entry only). Resolves nothing, throws nothing.
   */
  append(record: AuditRecord): void {
    this.unbuilt.push({ at: this.options.now?.() ?? new Date(), record });
    if (this.buildScheduled) return;
    this.buildScheduled = true;
    this.defer(() => {
      this.buildScheduled = false;
      this.build();
    });
  }

  /**
   * Writes every entry appended so far; resolves once all of them are on disk (or have failed,
   * through `onError`). Never rejects.
   */
  async flush(): Promise<void> {
    // Entries appended while this runs (a call that ends during shutdown) are written too.
    for (;;) {
      this.build();
      if (this.pending.length === 0 && this.writing === undefined) return;
      await this.startWriting();
    }
  }

  /** Builds and serializes what was appended, then starts a write or the flush timer. */
  private build(): void {
    const unbuilt = this.unbuilt;
    if (unbuilt.length === 0) return;
    this.unbuilt = [];
    for (const { at, record } of unbuilt) {
      try {
        const entry = typeof record === 'function' ? record() : record;
        const line = `${JSON.stringify({ ts: at.toISOString(), ...entry })}\n`;
        this.pending.push(line);
        this.pendingChars += line.length;
      } catch (error) {
        this.report(error);
      }
    }
    if (this.pending.length === 0 || this.writing !== undefined) return; // the running loop picks them up
    if (this.pendingChars >= (this.options.maxBatchBytes ?? AUDIT_MAX_BATCH_BYTES)) {
      void this.startWriting();
    } else {
      this.cancelTimer ??= this.schedule(() => {
        this.cancelTimer = undefined;
        void this.startWriting();
      }, this.options.flushDelayMs ?? AUDIT_FLUSH_DELAY_MS);
    }
  }

  /** Starts the write loop unless it runs; returns it. */
  private startWriting(): Promise<void> {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.writing ??= this.writeAll().finally(() => {
      this.writing = undefined;
      // An entry appended between the loop's last look and here found the loop still running.
      if (this.pending.length > 0) void this.startWriting();
    });
    return this.writing;
  }

  private async writeAll(): Promise<void> {
    // Entries appended while a batch is being written form the next batch: under load the loop
    // never waits for the timer, and the disk sets the pace.
    while (this.pending.length > 0) {
      const lines = this.pending;
      this.pending = [];
      this.pendingChars = 0;
      try {
        await this.write(lines);
      } catch (error) {
        this.report(error);
      }
    }
  }

  private report(error: unknown): void {
    try {
      this.options.onError?.(error);
    } catch {
      // A failing error handler must not stop the log.
    }
  }

  /** Appends `lines` in as few writes as the rotation allows. */
  private async write(lines: readonly string[]): Promise<void> {
    const fs = this.options.fs ?? fsPromises;
    const file = this.options.file;
    const maxBytes = this.options.maxBytes ?? DEFAULT_AUDIT_MAX_BYTES;
    if (this.size === undefined) {
      await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      this.size = await fs.stat(file).then(
        (s) => s.size,
        () => 0,
      );
    }
    let chunk = '';
    let chunkBytes = 0;
    for (const line of lines) {
      const bytes = Buffer.byteLength(line, 'utf8');
      if (this.size + chunkBytes > 0 && this.size + chunkBytes + bytes > maxBytes) {
        // This line would cross the cap: what is gathered goes to the current file first.
        await this.appendChunk(chunk, chunkBytes);
        chunk = '';
        chunkBytes = 0;
        await fs.rename(file, `${file}.1`);
        this.size = 0;
      }
      chunk += line;
      chunkBytes += bytes;
    }
    await this.appendChunk(chunk, chunkBytes);
  }

  private async appendChunk(chunk: string, bytes: number): Promise<void> {
    if (bytes === 0) return;
    const fs = this.options.fs ?? fsPromises;
    const fresh = this.size === 0;
    await fs.appendFile(this.options.file, chunk, { mode: 0o600 });
    if (fresh) await fs.chmod(this.options.file, 0o600);
    this.size = (this.size ?? 0) + bytes;
  }
}

function deferImmediate(fn: () => void): void {
  setImmediate(fn);
}

function scheduleTimeout(fn: () => void, ms: number): () => void {
  const timer = setTimeout(fn, ms);
  return () => {
    clearTimeout(timer);
  };
}
