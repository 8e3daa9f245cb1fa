import { createHash } from 'node:crypto';
import path from 'node:path';
import { readFileBounded } from '../shared/bounded-read';
import { isErrno } from '../shared/errno';
import { LineFile, type LineFileOptions } from './line-file';

/**
 * Each server's stderr, kept under `$SWITCHYARD_HOME/logs/` so `switchyard logs NAME` can show
 * what a server said while the browser's host ran it (the CLI cannot reach that host's memory).
 * Lines arrive already through the untrusted-text gate (sanitized, secrets redacted), each with
 * the time it was read. One file per server, rotated at SERVER_LOG_MAX_BYTES to `<file>.1`, so a
 * server flooding stderr costs at most twice that on disk.
 */

/** Rotation size of one server's log. */
export const SERVER_LOG_MAX_BYTES = 256 * 1024;

/**
 * The log file of `server` in `home`: a readable slug of the name plus a hash of the whole name,
 * so two names that slug alike (`a/b`, `a:b`) never share a file, and no name can climb out of
 * the folder.
 */
export function serverLogFile(home: string, server: string): string {
  const slug = server
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 40);
  const hash = createHash('sha256').update(server, 'utf8').digest('hex').slice(0, 8);
  return path.join(home, 'logs', `${slug}-${hash}.log`);
}

export interface ServerLogsOptions {
  readonly home: string;
  readonly now?: () => Date;
  readonly onError?: (error: unknown) => void;
  /** For tests: the file options every server's log is opened with (timer, fs, sizes). */
  readonly file?: Partial<Omit<LineFileOptions, 'file'>>;
}

export class ServerLogs {
  private readonly files = new Map<string, LineFile>();

  constructor(private readonly options: ServerLogsOptions) {}

  /** Queues one stderr line of `server` (already gated); never throws. */
  append(server: string, line: string): void {
    let file = this.files.get(server);
    if (file === undefined) {
      file = new LineFile({
        file: serverLogFile(this.options.home, server),
        maxBytes: SERVER_LOG_MAX_BYTES,
        gapLine: (dropped) =>
          `${this.now()} [Switchyard: ${String(dropped)} line(s) dropped here: the disk did not keep up]\n`,
        ...(this.options.onError ? { onError: this.options.onError } : {}),
        ...this.options.file,
      });
      this.files.set(server, file);
    }
    file.push([`${this.now()} ${line.replace(/\n/g, ' ')}\n`]);
  }

  private now(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }

  /** Resolves once every line queued so far is on disk. Never rejects. */
  async flush(): Promise<void> {
    await Promise.all([...this.files.values()].map((file) => file.flush()));
  }
}

/**
 * The last `lines` lines of `server`'s log (both generations, oldest first), or undefined when
 * it has none. Reads at most what rotation keeps.
 */
export async function readServerLog(
  home: string,
  server: string,
  lines: number,
): Promise<string[] | undefined> {
  const file = serverLogFile(home, server);
  const texts: string[] = [];
  for (const part of [`${file}.1`, file]) {
    try {
      const bytes = await readFileBounded(part, 2 * SERVER_LOG_MAX_BYTES);
      texts.push(Buffer.from(bytes).toString('utf8'));
    } catch (error) {
      if (!isErrno(error, 'ENOENT')) throw error;
    }
  }
  if (texts.length === 0) return undefined;
  const all = texts.join('').split('\n');
  if (all.at(-1) === '') all.pop();
  return lines <= 0 ? [] : all.slice(-lines);
}
