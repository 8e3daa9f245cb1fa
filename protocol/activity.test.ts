import { describe, expect, test } from 'vitest';
import {
  ActivityEntrySchema,
  deciderOf,
  describeDecision,
  type ActivityEntry,
  type ActivityEvent,
} from './activity';

// Who decided is what the activity view exists to show. The dangerous direction is a decision
// credited to the wrong party: a call the policy let through read as one the user approved (or
// the reverse) hides an allow rule the user forgot they wrote.

describe('deciderOf', () => {
  test.each<[ActivityEvent, string | undefined, string | undefined]>([
    ['call', 'allow', 'policy'],
    ['call', 'ask', 'policy'],
    ['call', 'deny', 'policy'],
    ['call', 'approved', 'user'],
    ['call', 'denied', 'user'],
    ['call', 'refused', 'host'],
    ['call', 'teleported', undefined],
    ['call', undefined, undefined],
    ['launch', 'ask', 'host'],
    ['launch', undefined, 'host'],
    ['trust', 'approved', 'user'],
    ['trust', 'revoked', 'user'],
    ['trust', 'forgotten', 'user'],
    ['trust', 'written-by-switchyard', 'user'],
    ['trust', 'removed', 'user'],
    ['trust', 'allow', undefined],
    ['policy', 'allow', 'user'],
    ['policy', 'removed', 'user'],
    ['policy', 'set', 'user'],
    ['policy', 'approved', undefined],
    ['question', 'accepted', 'user'],
    ['question', 'declined', 'user'],
    ['question', 'cancelled', 'user'],
    ['question', 'no-page', 'host'],
    ['question', 'no-browser', 'host'],
    ['question', 'timed-out', 'host'],
    ['question', 'shutdown', 'host'],
    ['question', 'refused', 'host'],
    ['question', 'withdrawn', 'server'],
    ['question', 'allow', undefined],
  ])('%s %s is decided by %s', (event, decision, by) => {
    expect(deciderOf(event, decision)).toBe(by);
  });
});

const at = '2026-12-01T10:00:00.000Z';

describe('describeDecision', () => {
  test.each<[Omit<ActivityEntry, 'ts'>, string]>([
    [{ event: 'question', decision: 'accepted', by: 'user' }, 'answered by you on its card'],
    [
      { event: 'question', decision: 'no-page', by: 'host' },
      'declined by the host: no side panel was open to ask you',
    ],
    [{ event: 'question', decision: 'withdrawn', by: 'server' }, 'withdrawn by the server'],
    [
      { event: 'call', decision: 'allow', by: 'policy', rule: 'files__*' },
      'allowed by policy (rule files__*)',
    ],
    [{ event: 'call', decision: 'ask', by: 'policy' }, 'asked you first (default policy)'],
    [
      { event: 'call', decision: 'ask', rule: 'files__write_*' },
      'asked you first (rule files__write_*)',
    ],
    [
      { event: 'call', decision: 'deny', rule: 'shop__refund' },
      'denied by policy (rule shop__refund)',
    ],
    [
      { event: 'call', decision: 'approved', by: 'user', via: 'browser' },
      'approved by you on the approval card',
    ],
    [
      { event: 'call', decision: 'approved', by: 'user', via: 'cli' },
      'approved by you in a terminal',
    ],
    [{ event: 'call', decision: 'denied', via: 'browser' }, 'denied by you on the approval card'],
    [{ event: 'call', decision: 'refused' }, 'refused by the host (the approval did not hold)'],
    [{ event: 'launch', decision: 'ask' }, 'held by the launch gate'],
    [{ event: 'trust', decision: 'approved', via: 'cli' }, 'approved by you in a terminal'],
    [{ event: 'trust', decision: 'revoked', via: 'browser' }, 'revoked by you in the browser'],
    [
      { event: 'trust', decision: 'written-by-switchyard', via: 'browser' },
      'added by you in the browser, approved as written',
    ],
    [{ event: 'policy', decision: 'deny', via: 'browser' }, 'set to deny by you in the browser'],
    [{ event: 'policy', decision: 'set', profile: 'github' }, 'saved by you'],
    [{ event: 'call', decision: 'teleported', by: 'host' }, 'teleported (by host)'],
    [{ event: 'call' }, ''],
  ])('%j reads "%s"', (entry, text) => {
    const parsed = ActivityEntrySchema.parse({ ts: at, ...entry });
    expect(describeDecision(parsed)).toBe(text);
  });
});
