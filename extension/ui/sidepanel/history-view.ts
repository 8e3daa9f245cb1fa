import type { HistoryEntry, HistoryPruned } from '../../messaging/history';

/**
 * What the history list (issue 14) says about each conversation, as pure functions: when it was
 * last written to, relative to now, its model and profile, and the notice after the bound removed
 * some.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago", then "12 Mar" (or "12 Mar 2025"). */
export function relativeDate(now: number, at: number): string {
  const ago = now - at;
  if (ago < MINUTE_MS) return 'just now';
  if (ago < HOUR_MS) return `${Math.floor(ago / MINUTE_MS)} min ago`;
  if (ago < DAY_MS) return `${Math.floor(ago / HOUR_MS)} h ago`;
  if (ago < 2 * DAY_MS) return 'yesterday';
  if (ago < 7 * DAY_MS) return `${Math.floor(ago / DAY_MS)} days ago`;
  const date = new Date(at);
  const day = `${date.getDate()} ${MONTHS[date.getMonth()] ?? ''}`;
  return date.getFullYear() === new Date(now).getFullYear() ? day : `${day} ${date.getFullYear()}`;
}

/** The line under a title: messages, model, profile; only what the entry recorded. */
export function entryDetails(entry: HistoryEntry): string {
  const count = `${entry.messageCount} message${entry.messageCount === 1 ? '' : 's'}`;
  const model = entry.provider === undefined ? [] : [entry.provider.model];
  const profile = entry.profile === undefined ? [] : [entry.profile.name];
  return [count, ...model, ...profile].join(' · ');
}

/** Told once the bound removed conversations; null when it did not (or the user dismissed it). */
export function prunedNotice(pruned: HistoryPruned | null, limit: number): string | null {
  if (pruned === null) return null;
  const what =
    pruned.count === 1
      ? 'The oldest conversation was'
      : `The ${pruned.count} oldest conversations were`;
  return `${what} removed to keep the newest ${limit}. Change how many are kept in Settings.`;
}

/** What the list says when it shows nothing. */
export function emptyListText(query: string): string {
  return query.trim() === ''
    ? 'No conversations yet. They appear here from their first message.'
    : `No conversation mentions “${query.trim()}”.`;
}
