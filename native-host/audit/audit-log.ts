import type { promises as fsPromises } from 'node:fs';
import {
  deciderOf,
  type ActivityDecision,
  type ActivityEvent,
  type ActivityVia,
} from '../../protocol/activity';
import { LINE_FLUSH_DELAY_MS, LINE_MAX_BATCH_BYTES, LineFile, type Schedule } from './line-file';
import { stageClock } from '../shared/stage-clock';

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
 *
 * Every line says who decided (`by`, from `deciderOf`: the policy, the user or the host) and
 * which client the recording process served (`via`: the browser or the CLI). What the fields
 * mean, and what `activity/list` makes of them: protocol/activity.ts and docs/protocol.md.
 */

/** The log's file name in `$SWITCHYARD_HOME`; it rotates to `audit.jsonl.1`. */
export const AUDIT_FILE_NAME = 'audit.jsonl';

export interface AuditEntry {
  readonly event: ActivityEvent;
  readonly server?: string;
  readonly tool?: string;
  readonly exposedName?: string;
  /** The profile a call ran under, or that a policy change saved or removed. */
  readonly profile?: string;
  /** The policy rule (glob) that decided a call, or that a policy change wrote or removed. */
  readonly rule?: string;
  /** The decision (protocol/activity.ts lists them by event); `by` is derived from it. */
  readonly decision?: ActivityDecision;
  /** How it ended: ok, tool-error, an error reason, approval-required, denied. */
  readonly outcome?: string;
  /** `app` when an MCP App asked for the call (absent: the model). */
  readonly caller?: 'model' | 'app';
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

export type { Schedule } from './line-file';

export interface AuditLogOptions {
  readonly file: string;
  /** The client the recording process serves, stamped on every line as `via`. */
  readonly via?: ActivityVia;
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
export const AUDIT_FLUSH_DELAY_MS = LINE_FLUSH_DELAY_MS;
/** About 250 call entries: bounds what a batch holds in memory under a burst of calls. */
export const AUDIT_MAX_BATCH_BYTES = LINE_MAX_BATCH_BYTES;

/** An entry appended and not yet built: when, and the record or its builder. */
interface Unbuilt {
  readonly at: Date;
  readonly record: AuditRecord;
}

export class AuditLog {
  private readonly options: AuditLogOptions;
  private readonly defer: (fn: () => void) => void;
  private readonly lines: LineFile;
  /** Appended, not yet built and serialized, oldest first. */
  private unbuilt: Unbuilt[] = [];
  private buildScheduled = false;

  constructor(options: AuditLogOptions) {
    this.options = options;
    this.defer = options.defer ?? deferImmediate;
    this.lines = new LineFile({
      file: options.file,
      maxBytes: options.maxBytes ?? DEFAULT_AUDIT_MAX_BYTES,
      flushDelayMs: options.flushDelayMs ?? AUDIT_FLUSH_DELAY_MS,
      maxBatchBytes: options.maxBatchBytes ?? AUDIT_MAX_BATCH_BYTES,
      ...(options.fs ? { fs: options.fs } : {}),
      ...(options.onError ? { onError: options.onError } : {}),
      ...(options.schedule ? { schedule: options.schedule } : {}),
    });
  }

  /** The log's file (the current generation). */
  get file(): string {
    return this.options.file;
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
      if (!this.lines.busy) return;
      await this.lines.flush();
    }
  }

  /** Builds and serializes what was appended, and hands the lines to the file. */
  private build(): void {
    const unbuilt = this.unbuilt;
    if (unbuilt.length === 0) return;
    this.unbuilt = [];
    stageClock?.enter('audit');
    try {
      this.buildLines(unbuilt);
    } finally {
      stageClock?.leave();
    }
  }

  private buildLines(unbuilt: readonly Unbuilt[]): void {
    const via = this.options.via;
    const lines: string[] = [];
    for (const { at, record } of unbuilt) {
      try {
        const entry = typeof record === 'function' ? record() : record;
        const by = deciderOf(entry.event, entry.decision);
        const line = {
          ts: at.toISOString(),
          ...entry,
          ...(by === undefined ? {} : { by }),
          ...(via === undefined ? {} : { via }),
        };
        lines.push(`${JSON.stringify(line)}\n`);
      } catch (error) {
        this.report(error);
      }
    }
    this.lines.push(lines);
  }

  private report(error: unknown): void {
    try {
      this.options.onError?.(error);
    } catch {
      // A failing error handler must not stop the log.
    }
  }
}

function deferImmediate(fn: () => void): void {
  setImmediate(fn);
}
