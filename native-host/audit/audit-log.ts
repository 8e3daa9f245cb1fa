import { promises as fsPromises } from 'node:fs';
import path from 'node:path';

/**
 * The audit log: one JSON line per event under `$SWITCHYARD_HOME/audit.jsonl`, readable by the
 * user only. It records what happened and how big it was (tool, decision, sizes, SHA-256 hashes,
 * timings), never argument or result values (design D9): the log must be safe to attach to a bug
 * report. Appends are queued and never throw at the caller; a failing disk costs the log, not the
 * call.
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

export interface AuditLogOptions {
  readonly file: string;
  /** Size at which the log rotates to `<file>.1` (one generation kept). Default 10 MiB. */
  readonly maxBytes?: number;
  readonly now?: () => Date;
  readonly fs?: Pick<typeof fsPromises, 'appendFile' | 'mkdir' | 'rename' | 'stat' | 'chmod'>;
  readonly onError?: (error: unknown) => void;
}

export const DEFAULT_AUDIT_MAX_BYTES = 10 * 1024 * 1024;

export class AuditLog {
  private readonly options: AuditLogOptions;
  private queue: Promise<void> = Promise.resolve();
  private size: number | undefined;

  constructor(options: AuditLogOptions) {
    this.options = options;
  }

  /** Queues one entry; resolves nothing, throws nothing. */
  append(entry: AuditEntry): void {
    const line = `${JSON.stringify({ ts: (this.options.now?.() ?? new Date()).toISOString(), ...entry })}\n`;
    this.queue = this.queue
      .then(() => this.write(line))
      .catch((error: unknown) => {
        this.options.onError?.(error);
      });
  }

  /** Resolves once every queued entry is on disk (or has failed). */
  flush(): Promise<void> {
    return this.queue;
  }

  private async write(line: string): Promise<void> {
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
    const bytes = Buffer.byteLength(line, 'utf8');
    if (this.size > 0 && this.size + bytes > maxBytes) {
      await fs.rename(file, `${file}.1`);
      this.size = 0;
    }
    await fs.appendFile(file, line, { mode: 0o600 });
    if (this.size === 0) await fs.chmod(file, 0o600);
    this.size += bytes;
  }
}
