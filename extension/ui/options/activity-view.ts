import {
  activitySubject,
  describeDecision,
  type ActivityEntry,
  type ActivityEvent,
} from '../../../protocol/activity';
import type { ParamsOf, ResultOf } from '../../../protocol/methods';

/**
 * The options page's activity view, without React: what each row shows, the request for a page,
 * and how pages join. The phrasing of decisions is the CLI's (`describeDecision`), so the table
 * in a terminal and the one here say the same thing.
 */

/** Entries asked for per page. */
export const ACTIVITY_PAGE_SIZE = 50;

export type ActivityPage = ResultOf<'activity/list'>;

/** What the two filters hold; `null` is "all". */
export interface ActivityFilter {
  readonly server: string | null;
  readonly event: ActivityEvent | null;
}

export const ALL_ACTIVITY: ActivityFilter = { server: null, event: null };

export const EVENT_CHOICES: ReadonlyArray<{
  readonly event: ActivityEvent;
  readonly label: string;
}> = [
  { event: 'call', label: 'Tool calls' },
  { event: 'launch', label: 'Launches held for approval' },
  { event: 'trust', label: 'Trust decisions' },
  { event: 'policy', label: 'Policy changes' },
  { event: 'question', label: 'Questions from servers' },
];

const EVENT_WORDS: Readonly<Record<ActivityEvent, string>> = {
  call: 'call',
  launch: 'launch',
  trust: 'trust',
  policy: 'policy',
  question: 'question',
};

export function isActivityEvent(value: string): value is ActivityEvent {
  return Object.hasOwn(EVENT_WORDS, value);
}

/** The `activity/list` params for a filter, from the start or after `cursor`. */
export function activityParams(
  filter: ActivityFilter,
  cursor: string | null,
): ParamsOf<'activity/list'> {
  return {
    limit: ACTIVITY_PAGE_SIZE,
    ...(filter.server === null ? {} : { server: filter.server }),
    ...(filter.event === null ? {} : { events: [filter.event] }),
    ...(cursor === null ? {} : { cursor }),
  };
}

/** What the view holds: every page loaded so far, joined. */
export interface ActivityList {
  readonly entries: readonly ActivityEntry[];
  readonly nextCursor: string | null;
  readonly skipped: number;
}

/** The list after one more (older) page. */
export function appendPage(list: ActivityList, page: ActivityPage): ActivityList {
  return {
    entries: [...list.entries, ...page.entries],
    nextCursor: page.nextCursor,
    skipped: list.skipped + page.skipped,
  };
}

export type OutcomeTone = 'ok' | 'waiting' | 'refused' | 'failed' | 'none';

/** How an outcome is coloured (its word is always shown too). */
export function outcomeTone(outcome: string | undefined): OutcomeTone {
  switch (outcome) {
    case undefined:
      return 'none';
    case 'ok':
      return 'ok';
    case 'approval-required':
    case 'needs-approval':
      return 'waiting';
    case 'denied':
    case 'approval-invalid':
    case 'unknown-tool':
      return 'refused';
    default:
      return 'failed';
  }
}

export interface ActivityRow {
  /** Stable within one list (entries are newest first; the index breaks timestamp ties). */
  readonly key: string;
  readonly ts: string;
  readonly time: string;
  readonly event: string;
  readonly server: string;
  readonly subject: string;
  readonly decision: string;
  readonly outcome: string;
  readonly tone: OutcomeTone;
  readonly duration: string;
}

/** One row of the table. `formatTime` shows a timestamp (the page's locale and time zone). */
export function activityRow(
  entry: ActivityEntry,
  index: number,
  formatTime: (iso: string) => string,
): ActivityRow {
  return {
    key: `${entry.ts}-${index}`,
    ts: entry.ts,
    time: formatTime(entry.ts),
    event: EVENT_WORDS[entry.event],
    server: entry.server ?? '—',
    subject: activitySubject(entry) || '—',
    decision: describeDecision(entry) || '—',
    outcome: entry.outcome ?? '—',
    tone: outcomeTone(entry.outcome),
    duration:
      entry.durationMs === undefined ? '—' : `${entry.durationMs.toLocaleString('en-US')} ms`,
  };
}

/** "Dec 2, 14:03:07" in the reader's locale and time zone. */
export function timeFormatter(locale?: string, timeZone?: string): (iso: string) => string {
  const format = new Intl.DateTimeFormat(locale, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    ...(timeZone === undefined ? {} : { timeZone }),
  });
  return (iso) => format.format(new Date(iso));
}

/** What the table says when a (filtered) list has no entries. */
export function emptyText(filter: ActivityFilter): string {
  const kind = EVENT_CHOICES.find((choice) => choice.event === filter.event)?.label.toLowerCase();
  if (filter.server !== null && kind !== undefined) return `No ${kind} of ${filter.server} yet.`;
  if (filter.server !== null) return `No activity of ${filter.server} yet.`;
  if (kind !== undefined) return `No ${kind} yet.`;
  return 'No activity yet. Tool calls, launches waiting for approval, trust decisions and policy changes appear here.';
}

/** Server names to filter by: the configured ones and any the loaded entries name, sorted. */
export function serverChoices(
  configured: readonly string[],
  entries: readonly ActivityEntry[],
  selected: string | null,
): string[] {
  const names = new Set(configured);
  for (const entry of entries) if (entry.server !== undefined) names.add(entry.server);
  if (selected !== null) names.add(selected);
  return [...names].sort((a, b) => a.localeCompare(b));
}

/** A line under the table when some lines of the log could not be read. */
export function skippedText(skipped: number): string | null {
  if (skipped === 0) return null;
  return `${skipped.toLocaleString('en-US')} ${skipped === 1 ? 'line' : 'lines'} of the log could not be read and ${skipped === 1 ? 'was' : 'were'} skipped.`;
}
