import { describe, expect, test } from 'vitest';
import type { HistoryEntry } from '../../messaging/history';
import { emptyListText, entryDetails, prunedNotice, relativeDate } from './history-view';

/* The history list's words. Dangerous direction: a pruning the user is not told about. */

const NOW = new Date(2026, 11, 3, 12, 0).getTime();
const MIN = 60_000;

describe('relativeDate', () => {
  test.each<[string, number, string]>([
    ['seconds', NOW - 20_000, 'just now'],
    ['minutes', NOW - 5 * MIN, '5 min ago'],
    ['hours', NOW - 3 * 60 * MIN, '3 h ago'],
    ['a day', NOW - 30 * 60 * MIN, 'yesterday'],
    ['days', NOW - 4 * 24 * 60 * MIN, '4 days ago'],
    ['this year', new Date(2026, 2, 12, 9).getTime(), '12 Mar'],
    ['an earlier year', new Date(2025, 10, 1).getTime(), '1 Nov 2025'],
    ['a clock behind the entry', NOW + 5 * MIN, 'just now'],
  ])('%s', (_label, at, text) => {
    expect(relativeDate(NOW, at)).toBe(text);
  });
});

const entry: HistoryEntry = {
  id: 'c',
  title: 't',
  renamed: false,
  createdAt: 0,
  updatedAt: 0,
  messageCount: 1,
};

test.each<[string, HistoryEntry, string]>([
  ['before issue 14: the count only', entry, '1 message'],
  [
    'with model and profile',
    {
      ...entry,
      messageCount: 4,
      provider: { kind: 'openai', model: 'gpt-5-mini' },
      profile: { id: 'w', name: 'Work' },
    },
    '4 messages · gpt-5-mini · Work',
  ],
])('entryDetails: %s', (_label, e, text) => {
  expect(entryDetails(e)).toBe(text);
});

test.each<[string, Parameters<typeof prunedNotice>[0], string | null]>([
  ['nothing removed', null, null],
  [
    'one',
    { count: 1, at: 0 },
    'The oldest conversation was removed to keep the newest 100. Change how many are kept in Settings.',
  ],
  [
    'several',
    { count: 3, at: 0 },
    'The 3 oldest conversations were removed to keep the newest 100. Change how many are kept in Settings.',
  ],
])('prunedNotice: %s', (_label, pruned, text) => {
  expect(prunedNotice(pruned, 100)).toBe(text);
});

test('an empty list says why', () => {
  expect(emptyListText('')).toMatch(/No conversations yet/);
  expect(emptyListText(' bread ')).toBe('No conversation mentions “bread”.');
});
