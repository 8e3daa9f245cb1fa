import { describe, expect, it, test } from 'vitest';
import type { ActivityEntry } from '../../../protocol/activity';
import {
  ACTIVITY_PAGE_SIZE,
  ALL_ACTIVITY,
  activityParams,
  activityRow,
  appendPage,
  emptyText,
  outcomeTone,
  serverChoices,
  skippedText,
  timeFormatter,
} from './activity-view';

// The view's rows must say what the host recorded, credited to whoever decided; the dangerous
// direction is a row that reads as the user's approval when the policy let the call through.

const utc = timeFormatter('en-US', 'UTC');

const approved: ActivityEntry = {
  ts: '2026-12-02T00:19:57.073Z',
  event: 'call',
  server: 'everything',
  tool: 'get-sum',
  exposedName: 'everything__get-sum',
  decision: 'approved',
  by: 'user',
  via: 'browser',
  outcome: 'ok',
  durationMs: 1_234,
};

describe('activityRow', () => {
  it('shows time, names, the decision in words, the outcome and the duration', () => {
    expect(activityRow(approved, 0, utc)).toEqual({
      key: '2026-12-02T00:19:57.073Z-0',
      ts: approved.ts,
      time: 'Dec 2, 00:19:57',
      event: 'call',
      server: 'everything',
      subject: 'everything__get-sum',
      decision: 'approved by you on the approval card',
      outcome: 'ok',
      tone: 'ok',
      duration: '1,234 ms',
    });
  });

  it('credits an allow-listed call to the policy and names the rule', () => {
    const row = activityRow(
      { ...approved, decision: 'allow', by: 'policy', rule: 'every*' },
      1,
      utc,
    );
    expect(row.decision).toBe('allowed by policy (rule every*)');
  });

  it('fills what an entry does not have with a dash', () => {
    const row = activityRow({ ts: approved.ts, event: 'trust' }, 2, utc);
    expect([row.server, row.subject, row.decision, row.outcome, row.duration]).toEqual([
      '—',
      '—',
      '—',
      '—',
      '—',
    ]);
    expect(row.tone).toBe('none');
  });
});

test.each([
  ['ok', 'ok'],
  ['approval-required', 'waiting'],
  ['needs-approval', 'waiting'],
  ['denied', 'refused'],
  ['approval-invalid', 'refused'],
  ['tool-error', 'failed'],
  ['server-exited', 'failed'],
  [undefined, 'none'],
])('outcome %s is coloured %s', (outcome, tone) => {
  expect(outcomeTone(outcome)).toBe(tone);
});

describe('activityParams', () => {
  it('asks for the newest page of everything', () => {
    expect(activityParams(ALL_ACTIVITY, null)).toEqual({ limit: ACTIVITY_PAGE_SIZE });
  });

  it('narrows by server and kind, and continues after a cursor', () => {
    expect(activityParams({ server: 'memory', event: 'trust' }, '12-0123456789abcdef')).toEqual({
      limit: ACTIVITY_PAGE_SIZE,
      server: 'memory',
      events: ['trust'],
      cursor: '12-0123456789abcdef',
    });
  });
});

it('appends an older page after the ones loaded, and sums what was skipped', () => {
  const older = { ...approved, ts: '2026-12-01T00:00:00.000Z' };
  const list = appendPage(
    { entries: [approved], nextCursor: '1-0123456789abcdef', skipped: 1 },
    { entries: [older], nextCursor: null, skipped: 2 },
  );
  expect(list).toEqual({ entries: [approved, older], nextCursor: null, skipped: 3 });
});

test.each([
  [ALL_ACTIVITY, /^No activity yet\. Tool calls/],
  [{ server: 'memory', event: null }, /^No activity of memory yet\.$/],
  [{ server: null, event: 'policy' as const }, /^No policy changes yet\.$/],
  [{ server: 'memory', event: 'call' as const }, /^No tool calls of memory yet\.$/],
])('empty text for %j', (filter, text) => {
  expect(emptyText(filter)).toMatch(text);
});

it('offers configured servers and the ones the log names, once each, sorted', () => {
  const removed: ActivityEntry = { ts: approved.ts, event: 'trust', server: 'old-server' };
  expect(serverChoices(['memory', 'everything'], [approved, removed], 'gone')).toEqual([
    'everything',
    'gone',
    'memory',
    'old-server',
  ]);
});

it('says how many lines were skipped, only when some were', () => {
  expect(skippedText(0)).toBeNull();
  expect(skippedText(1)).toBe('1 line of the log could not be read and was skipped.');
  expect(skippedText(1_200)).toBe('1,200 lines of the log could not be read and were skipped.');
});
