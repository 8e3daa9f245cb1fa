import { promises as fsPromises } from 'node:fs';
import path from 'node:path';

/**
 * An append-only file of text lines, readable by the user only (0600, folder 0700), written in
 * batches and rotated to `<file>.1` (one generation kept) when it would pass its cap. Lines are
 * handed to one `appendFile` per batch rather than one per line: a batch is written once
 * `flushDelayMs` has passed since its first line, at once when it reaches `maxBatchBytes`, and on
 * `flush()`. The timer keeps the process alive until its batch is written, so a process that
 * exits on its own loses nothing. Writes never throw at the caller; a failing disk costs the
 * lines, reported through `onError`. A disk that stops answering (a hung network mount) costs
 * lines too, but not memory: past `maxPendingBytes` waiting, new lines are dropped and counted,
 * reported once per gap, and marked in the file (`gapLine`) when writing resumes. Used by the
 * audit log and the servers' log files.
 */

/** Schedules `fn` after `ms`; returns a function that cancels it. */
export type Schedule = (fn: () => void, ms: number) => () => void;

export interface LineFileOptions {
  readonly file: string;
  /** Size at which the file rotates to `<file>.1`. */
  readonly maxBytes: number;
  readonly fs?: Pick<typeof fsPromises, 'appendFile' | 'mkdir' | 'rename' | 'stat' | 'chmod'>;
  readonly onError?: (error: unknown) => void;
  /** Longest a line waits before its batch is written. Default LINE_FLUSH_DELAY_MS. */
  readonly flushDelayMs?: number;
  /** Size of the pending lines, in characters, at which a batch is written without waiting. */
  readonly maxBatchBytes?: number;
  /** Timer for the flush delay; tests inject a manual one. Default `setTimeout`. */
  readonly schedule?: Schedule;
  /** Most characters held waiting for the disk; later lines are dropped. Default LINE_MAX_PENDING_BYTES. */
  readonly maxPendingBytes?: number;
  /** The line written where `dropped` lines were lost; default: none (only `onError` tells). */
  readonly gapLine?: (dropped: number) => string;
}

/** Short enough that a file someone tails (or a test polls) looks live. */
export const LINE_FLUSH_DELAY_MS = 100;
/** Bounds what a batch holds in memory under a burst. */
export const LINE_MAX_BATCH_BYTES = 64 * 1024;
/** What a stalled disk can make one file hold in memory: 128 full batches. */
export const LINE_MAX_PENDING_BYTES = 8 * 1024 * 1024;

export class LineFile {
  private readonly options: LineFileOptions;
  private readonly schedule: Schedule;
  /** Lines not yet handed to a write, oldest first, each ending in `\n`. */
  private pending: string[] = [];
  private pendingChars = 0;
  /** Lines dropped since the last batch was taken, the pending ones being at the cap. */
  private dropped = 0;
  /** The running write loop, if any: it writes batches until nothing is pending. */
  private writing: Promise<void> | undefined;
  private cancelTimer: (() => void) | undefined;
  private size: number | undefined;

  constructor(options: LineFileOptions) {
    this.options = options;
    this.schedule = options.schedule ?? scheduleTimeout;
  }

  /** Queues lines (each ending in `\n`); a write starts at once or when the timer fires. */
  push(lines: readonly string[]): void {
    const maxPending = this.options.maxPendingBytes ?? LINE_MAX_PENDING_BYTES;
    for (const line of lines) {
      if (this.pendingChars + line.length > maxPending) {
        if (this.dropped === 0) {
          this.report(
            new Error(
              `${this.options.file}: the disk is not keeping up; lines are dropped until it does`,
            ),
          );
        }
        this.dropped += 1;
        continue;
      }
      this.pending.push(line);
      this.pendingChars += line.length;
    }
    if (this.pending.length === 0 || this.writing !== undefined) return; // the running loop picks them up
    if (this.pendingChars >= (this.options.maxBatchBytes ?? LINE_MAX_BATCH_BYTES)) {
      void this.startWriting();
    } else {
      this.cancelTimer ??= this.schedule(() => {
        this.cancelTimer = undefined;
        void this.startWriting();
      }, this.options.flushDelayMs ?? LINE_FLUSH_DELAY_MS);
    }
  }

  /** True while anything is queued or being written. */
  get busy(): boolean {
    return this.pending.length > 0 || this.writing !== undefined;
  }

  /** Resolves once every line pushed so far is on disk (or has failed). Never rejects. */
  async flush(): Promise<void> {
    while (this.busy) await this.startWriting();
  }

  /** Starts the write loop unless it runs; returns it. */
  private startWriting(): Promise<void> {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.writing ??= this.writeAll().finally(() => {
      this.writing = undefined;
      // A line pushed between the loop's last look and here found the loop still running.
      if (this.pending.length > 0) void this.startWriting();
    });
    return this.writing;
  }

  private async writeAll(): Promise<void> {
    // Lines pushed while a batch is being written form the next batch: under load the loop
    // never waits for the timer, and the disk sets the pace.
    while (this.pending.length > 0) {
      const lines = this.pending;
      this.pending = [];
      this.pendingChars = 0;
      if (this.dropped > 0) {
        // The dropped lines came after every pending one: the mark goes where they were.
        const gap = this.options.gapLine?.(this.dropped);
        if (gap !== undefined) lines.push(gap);
        this.dropped = 0;
      }
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
      // A failing error handler must not stop the file.
    }
  }

  /** Appends `lines` in as few writes as the rotation allows. */
  private async write(lines: readonly string[]): Promise<void> {
    const fs = this.options.fs ?? fsPromises;
    const { file, maxBytes } = this.options;
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

function scheduleTimeout(fn: () => void, ms: number): () => void {
  const timer = setTimeout(fn, ms);
  return () => {
    clearTimeout(timer);
  };
}
