import { describe, expect, test } from 'vitest';
import type { ChatMessage, Conversation } from '../../messaging/conversation';
import type { HistoryEntry } from '../../messaging/history';
import { newConversation } from '../pairing';
import {
  emptyIndex,
  entryOf,
  findSnippet,
  normalizeQuery,
  pruneIndex,
  titleMatches,
  titleOf,
  upsertEntry,
  type HistoryIndex,
} from './conversation-index';

/*
 * The history index, pure. Dangerous direction: the bound removing the conversation on screen or
 * more than it must (lost chats), and a search that misses a conversation holding the words.
 */

function chat(messages: ChatMessage[], extra: Partial<Conversation> = {}): Conversation {
  return { ...newConversation('c', 1_000), messages, ...extra };
}
const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistant = (text: string): ChatMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
});

describe('titleOf', () => {
  test.each<[string, Conversation, string]>([
    ['no messages', chat([]), 'New chat'],
    ['the first user message', chat([user('Plan a trip'), user('Later')]), 'Plan a trip'],
    ['whitespace collapsed', chat([user('  two\n\nlines\there ')]), 'two lines here'],
    ['a blank message', chat([user('   ')]), 'New chat'],
    ['a rename wins', chat([user('Plan a trip')], { title: 'Lisbon' }), 'Lisbon'],
    ['a blank rename does not', chat([user('Plan a trip')], { title: ' ' }), 'Plan a trip'],
    ['a long message, shortened', chat([user('x'.repeat(200))]), `${'x'.repeat(79)}…`],
  ])('%s', (_label, conversation, title) => {
    expect(titleOf(conversation)).toBe(title);
  });
});

test('an entry carries what the list shows, not the transcript', () => {
  const conversation = chat([user('Hi'), assistant('Hello')], {
    id: 'c9',
    updatedAt: 2_000,
    profile: { id: 'work', name: 'Work' },
    provider: { kind: 'openai', model: 'gpt-5-mini' },
  });
  expect(entryOf(conversation)).toEqual({
    id: 'c9',
    title: 'Hi',
    renamed: false,
    profile: { id: 'work', name: 'Work' },
    provider: { kind: 'openai', model: 'gpt-5-mini' },
    createdAt: 1_000,
    updatedAt: 2_000,
    messageCount: 2,
  });
});

test('an entry shows the model the conversation uses now: the picker choice over the one it began on', () => {
  const conversation = chat([user('Hi')], {
    provider: { kind: 'openai', model: 'gpt-5-mini' },
    model: 'gpt-4.1',
  });
  expect(entryOf(conversation).provider).toEqual({ kind: 'openai', model: 'gpt-4.1' });
  expect(entryOf({ ...conversation, model: undefined }).provider).toEqual({
    kind: 'openai',
    model: 'gpt-5-mini',
  });
});

function entry(id: string, updatedAt: number): HistoryEntry {
  return { id, title: id, renamed: false, createdAt: 0, updatedAt, messageCount: 1 };
}
function indexOf(ids: [string, number][], limit: number, currentId: string | null): HistoryIndex {
  return ids.reduce<HistoryIndex>((index, [id, at]) => upsertEntry(index, entry(id, at)), {
    ...emptyIndex(),
    limit,
    currentId,
  });
}

test('the list is newest first, and an update moves an entry to the top', () => {
  const index = upsertEntry(
    indexOf(
      [
        ['a', 1],
        ['b', 2],
        ['c', 3],
      ],
      10,
      null,
    ),
    entry('a', 4),
  );
  expect(index.entries.map((e) => e.id)).toEqual(['a', 'c', 'b']);
});

describe('pruneIndex', () => {
  const five: [string, number][] = [
    ['e1', 1],
    ['e2', 2],
    ['e3', 3],
    ['e4', 4],
    ['e5', 5],
  ];
  test.each<[string, number, string | null, string[], string[]]>([
    ['within the bound: nothing', 5, 'e5', ['e5', 'e4', 'e3', 'e2', 'e1'], []],
    ['the oldest beyond it go', 3, 'e5', ['e5', 'e4', 'e3'], ['e2', 'e1']],
    ['never the one on screen', 3, 'e1', ['e5', 'e4', 'e1'], ['e2', 'e3']],
    ['with none on screen', 2, null, ['e5', 'e4'], ['e3', 'e2', 'e1']],
  ])('%s', (_label, limit, current, kept, removed) => {
    const result = pruneIndex(indexOf(five, limit, current), 99);
    expect(result.index.entries.map((e) => e.id)).toEqual(kept);
    expect([...result.removed].sort()).toEqual([...removed].sort());
    expect(result.index.pruned).toEqual(
      removed.length === 0 ? null : { count: removed.length, at: 99 },
    );
  });
});

describe('search', () => {
  const messages = [
    user('Find me a recipe for bread'),
    assistant('Here is a **sourdough** recipe with a long introduction before the key word.'),
    { role: 'tool', results: [] } satisfies ChatMessage,
  ];
  test.each<[string, string, string | null]>([
    ['a word of the user', 'RECIPE', 'Find me a recipe for bread'],
    [
      'a word of the model',
      'sourdough',
      'Here is a **sourdough** recipe with a long introduction befor…',
    ],
    ['words across spaces', 'for   bread', 'Find me a recipe for bread'],
    ['absent', 'pancake', null],
  ])('%s', (_label, query, snippet) => {
    expect(findSnippet(messages, normalizeQuery(query))).toBe(snippet);
  });

  test('a hit deep in a long message is shown with its surroundings', () => {
    const long = [user(`${'a '.repeat(100)}needle${' b'.repeat(100)}`)];
    const snippet = findSnippet(long, 'needle') ?? '';
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).toContain('needle');
    expect(snippet.length).toBeLessThan(100);
  });

  test('titles match case-insensitively', () => {
    expect(titleMatches({ ...entry('x', 1), title: 'Trip to Lisbon' }, 'lisbon')).toBe(true);
    expect(titleMatches({ ...entry('x', 1), title: 'Trip to Lisbon' }, 'porto')).toBe(false);
  });
});
