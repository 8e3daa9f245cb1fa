import path from 'node:path';
import {
  ActivityEventSchema,
  MAX_ACTIVITY_PAGE_ENTRIES,
  activitySubject,
  describeDecision,
  type ActivityEntry,
  type ActivityEvent,
} from '../../protocol/activity';
import { messageOf } from '../../protocol/guards';
import { readActivity } from '../audit/activity-read';
import { AUDIT_FILE_NAME } from '../audit/audit-log';
import { switchyardHome } from '../config/paths';
import { errnoCode } from '../shared/errno';
import { HostError } from '../shared/host-error';
import { table, type CliIo } from './io';

/** Entries shown when `--limit` is not given. */
export const DEFAULT_ACTIVITY_LINES = 50;
/** Most entries one run prints (the log holds about 20 MiB; this is a screenful or a hundred). */
export const MAX_ACTIVITY_LINES = 10_000;

export const ACTIVITY_USAGE =
  'usage: switchyard activity [--server NAME] [--event call|launch|trust|policy|question]... [--limit N] [--json]\n';

export type ActivityArgs =
  | {
      readonly ok: true;
      readonly server: string | undefined;
      readonly events: readonly ActivityEvent[] | undefined;
      readonly limit: number;
      readonly json: boolean;
    }
  | { readonly ok: false; readonly error: string };

/** `activity [--server NAME] [--event KIND]... [--limit N] [--json]`, parsed without I/O. */
export function parseActivityArgs(argv: readonly string[]): ActivityArgs {
  let server: string | undefined;
  const events: ActivityEvent[] = [];
  let limit = DEFAULT_ACTIVITY_LINES;
  let json = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.startsWith('--') ? splitInline(arg) : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    switch (flag) {
      case '--json':
        if (inline !== undefined) return { ok: false, error: '--json takes no value' };
        json = true;
        break;
      case '--server': {
        const name = value();
        if (name === undefined || name === '' || name.length > 256) {
          return { ok: false, error: '--server needs a server name, e.g. --server memory' };
        }
        server = name;
        break;
      }
      case '--event': {
        const kind = ActivityEventSchema.safeParse(value());
        if (!kind.success) {
          return { ok: false, error: '--event is one of call, launch, trust, policy, question' };
        }
        if (!events.includes(kind.data)) events.push(kind.data);
        break;
      }
      case '--limit': {
        const text = value();
        const count = Number(text);
        if (
          text === undefined ||
          !/^\d{1,5}$/.test(text) ||
          count < 1 ||
          count > MAX_ACTIVITY_LINES
        ) {
          return {
            ok: false,
            error: `--limit needs a whole number from 1 to ${MAX_ACTIVITY_LINES}, e.g. --limit 200`,
          };
        }
        limit = count;
        break;
      }
      default:
        return { ok: false, error: `unknown argument '${arg.slice(0, 100)}'` };
    }
  }
  return { ok: true, server, events: events.length === 0 ? undefined : events, limit, json };
}

function splitInline(arg: string): [string, string | undefined] {
  const equals = arg.indexOf('=');
  return equals === -1 ? [arg, undefined] : [arg.slice(0, equals), arg.slice(equals + 1)];
}

/** `2026-12-01 14:03:07` in the local time zone. */
export function localTime(iso: string): string {
  const date = new Date(iso);
  const two = (n: number): string => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ` +
    `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`
  );
}

export interface ActivityTextOptions {
  /** How a timestamp is shown; default `localTime`. */
  readonly formatTime?: (iso: string) => string;
  /** Lines of the log that could not be read. */
  readonly skipped?: number;
  /** The server the listing was narrowed to, for the empty message. */
  readonly server?: string | undefined;
}

/** The `switchyard activity` table, newest first: who decided each thing, and how it ended. Pure. */
export function activityText(
  entries: readonly ActivityEntry[],
  options: ActivityTextOptions = {},
): string {
  const formatTime = options.formatTime ?? localTime;
  const notes: string[] = [];
  if ((options.skipped ?? 0) > 0) {
    const n = options.skipped ?? 0;
    notes.push(
      `${n} ${n === 1 ? 'line' : 'lines'} of the log could not be read and ${n === 1 ? 'was' : 'were'} skipped.`,
    );
  }
  if (entries.length === 0) {
    const none =
      options.server === undefined
        ? 'No activity recorded yet.'
        : `No activity recorded for '${options.server}'.`;
    return `${[none, ...notes].join('\n')}\n`;
  }
  const rows = [['TIME', 'EVENT', 'SERVER', 'TOOL', 'DECISION', 'OUTCOME', 'DURATION']];
  for (const entry of entries) {
    rows.push([
      formatTime(entry.ts),
      entry.event,
      entry.server ?? '-',
      activitySubject(entry) || '-',
      describeDecision(entry) || '-',
      entry.outcome ?? '-',
      entry.durationMs === undefined ? '-' : `${entry.durationMs} ms`,
    ]);
  }
  const noun = entries.length === 1 ? 'entry' : 'entries';
  notes.push(
    `${entries.length} ${noun}, newest first. Arguments and results are never recorded; --json shows their sizes and hashes.`,
  );
  return `${table(rows)}\n\n${notes.join('\n')}\n`;
}

/**
 * `switchyard activity [--server NAME] [--event KIND]... [--limit N] [--json]`: what ran, who
 * decided, how it ended, newest first, read from `$SWITCHYARD_HOME/audit.jsonl` and its rotated
 * generation. Needs no host: it reads the files every host and CLI of this home writes.
 */
export async function activity(io: CliIo, argv: readonly string[]): Promise<number> {
  const parsed = parseActivityArgs(argv);
  if (!parsed.ok) {
    io.err(`switchyard activity: ${parsed.error}\n${ACTIVITY_USAGE}`);
    return 2;
  }
  let file: string;
  try {
    file = path.join(switchyardHome(io.env, io.platform), AUDIT_FILE_NAME);
  } catch (error) {
    io.err(`switchyard activity: ${messageOf(error)}\n`);
    return 1;
  }
  const entries: ActivityEntry[] = [];
  let skipped = 0;
  let cursor: string | undefined;
  try {
    do {
      const page = await readActivity(file, {
        ...(parsed.server === undefined ? {} : { server: parsed.server }),
        ...(parsed.events === undefined ? {} : { events: parsed.events }),
        limit: Math.min(parsed.limit - entries.length, MAX_ACTIVITY_PAGE_ENTRIES),
        ...(cursor === undefined ? {} : { cursor }),
      });
      entries.push(...page.entries);
      skipped += page.skipped;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined && entries.length < parsed.limit);
  } catch (error) {
    // A cursor that rotated out (HostError) or a log that cannot be read (EACCES, EISDIR...).
    if (!(error instanceof HostError) && errnoCode(error) === undefined) throw error;
    io.err(`switchyard activity: ${messageOf(error)}\n`);
    return 1;
  }
  io.out(
    parsed.json
      ? `${JSON.stringify({ entries, skipped }, null, 2)}\n`
      : activityText(entries, { skipped, server: parsed.server }),
  );
  return 0;
}
