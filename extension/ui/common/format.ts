/** 12345 -> "12,345": counts the user reads (characters, tokens). */
export function exactCount(n: number): string {
  return String(Math.max(0, Math.round(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/**
 * "2026-04-30" -> "30 April 2026": a day the user reads, which does not break at a hyphen. Any
 * other text comes back as it was.
 */
export function longDate(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const month = match === null ? undefined : MONTHS[Number(match[2]) - 1];
  if (match === null || month === undefined) return day;
  return `${Number(match[3])} ${month} ${match[1]}`;
}

/**
 * The day an instant (an ISO timestamp) fell on where the user is, as `longDate` shows it: an
 * approval made late in the evening is not dated tomorrow. Text that is not a time comes back as
 * it was.
 */
export function localLongDate(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const pad = (n: number): string => String(n).padStart(2, '0');
  return longDate(`${String(at.getFullYear())}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`);
}
