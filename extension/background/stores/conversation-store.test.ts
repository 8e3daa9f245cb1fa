import { afterEach, describe, expect, test, vi } from 'vitest';
import legacyFixture from './fixtures/conversation.v1.json';
import { INTERRUPTED_RESULT, newConversation, pairingProblems } from '../pairing';
import type { ChatMessage, Conversation } from '../../messaging/conversation';
import { ConversationStore } from './conversation-store';
import { memoryStorage, type KeyValueStorage } from './key-value';
import { flush } from '../../testing/flush';

/*
 * Every conversation across worker and browser restarts. Dangerous direction: a restored
 * transcript with a tool call and no result (every later turn fails at the provider), a save that
 * loses the newest transcript to an older one, a migration that drops today's conversation, or a
 * deleted conversation that comes back.
 */

// The stored keys are part of the format: renaming one silently loses every user's chats.
const LEGACY_KEY = 'conversation.v1';
const INDEX_KEY = 'conversations.v2';
const record = (id: string): string => `conversation.v2.${id}`;

afterEach(() => {
  vi.restoreAllMocks();
});

function conversation(id: string, ...messages: ChatMessage[]): Conversation {
  return { ...newConversation(id, 1_000), messages };
}
const asked: ChatMessage = { role: 'user', content: 'What is on this page?' };
const calledTool: ChatMessage = {
  role: 'assistant',
  content: [
    { type: 'text', text: 'Let me read it.' },
    { type: 'tool-call', id: 'c1', name: 'browser_read_page', arguments: {} },
  ],
};
const said = (text: string): ChatMessage => ({ role: 'user', content: text });

/** A storage whose writes wait until the test lets them finish, one by one. */
function slowStorage() {
  const inner = memoryStorage();
  const writes: { key: string; value: unknown; finish: () => void; fail: (e: Error) => void }[] =
    [];
  const storage: KeyValueStorage = {
    get: (key) => inner.get(key),
    remove: (key) => inner.remove(key),
    set: (key, value) =>
      new Promise<void>((resolve, reject) => {
        writes.push({
          key,
          value,
          finish: () => {
            void inner.set(key, value).then(resolve);
          },
          fail: reject,
        });
      }),
  };
  const records = () => writes.filter((w) => w.key !== INDEX_KEY);
  return { storage, writes, records };
}

describe('migration from schema 1 (one conversation under conversation.v1)', () => {
  test("today's stored conversation becomes the first entry and the current one", async () => {
    const storage = memoryStorage({ [LEGACY_KEY]: legacyFixture });
    const store = await ConversationStore.open(storage);
    const current = await store.current();
    expect(current).toEqual(legacyFixture);
    expect(pairingProblems(current?.messages ?? [])).toEqual([]);
    const page = await store.list();
    expect(page.items.map((i) => i.entry)).toEqual([
      {
        id: legacyFixture.id,
        title: 'Which files are in my notes folder?',
        renamed: false,
        createdAt: legacyFixture.createdAt,
        updatedAt: legacyFixture.updatedAt,
        messageCount: 4,
      },
    ]);
    expect(page.currentId).toBe(legacyFixture.id);
    expect(storage.data.has(LEGACY_KEY)).toBe(false);
    expect(storage.data.get(INDEX_KEY)).toMatchObject({ version: 2, limit: 100 });
    // A second open reads the index, and finds the same.
    const again = await ConversationStore.open(storage);
    expect((await again.list()).items).toHaveLength(1);
  });

  test('a migration cut short before the index was written runs again', async () => {
    const storage = memoryStorage({ [LEGACY_KEY]: legacyFixture });
    const set = storage.set.bind(storage);
    let failIndex = true;
    vi.spyOn(storage, 'set').mockImplementation((key, value) => {
      if (key === INDEX_KEY && failIndex) {
        failIndex = false;
        return Promise.reject(new Error('the worker stopped'));
      }
      return set(key, value);
    });
    await expect(ConversationStore.open(storage)).rejects.toThrow('the worker stopped');
    expect(storage.data.has(LEGACY_KEY)).toBe(true);
    const store = await ConversationStore.open(storage);
    expect((await store.current())?.id).toBe(legacyFixture.id);
  });

  test.each<[string, unknown]>([
    ['a string', 'garbage'],
    ['a future version', { ...legacyFixture, version: 3 }],
    ['a message of an unknown role', { ...legacyFixture, messages: [{ role: 'system' }] }],
  ])('an unreadable one (%s): an empty history, with a warning', async (_label, raw) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const store = await ConversationStore.open(memoryStorage({ [LEGACY_KEY]: raw }));
    expect(await store.current()).toBeUndefined();
    expect((await store.list()).items).toEqual([]);
    expect(warn).toHaveBeenCalledOnce();
  });

  test('a call saved without its result gets the interrupted result', async () => {
    const legacy = conversation('c1', asked, calledTool);
    const store = await ConversationStore.open(memoryStorage({ [LEGACY_KEY]: legacy }));
    const loaded = await store.current();
    expect(loaded?.messages.at(-1)).toEqual({
      role: 'tool',
      results: [
        {
          type: 'tool-result',
          callId: 'c1',
          name: 'browser_read_page',
          status: 'error',
          content: INTERRUPTED_RESULT,
        },
      ],
    });
    expect(pairingProblems(loaded?.messages ?? [])).toEqual([]);
  });
});

describe('saving and listing', () => {
  test('nothing stored: no current conversation, an empty list', async () => {
    const store = await ConversationStore.open(memoryStorage());
    expect(await store.current()).toBeUndefined();
    expect(await store.list()).toEqual({
      items: [],
      next: null,
      currentId: '',
      limit: 100,
      pruned: null,
    });
  });

  test('each conversation under its own key; a later open lists them newest first', async () => {
    const storage = memoryStorage();
    const store = await ConversationStore.open(storage);
    await store.save({ ...conversation('old', said('first')), updatedAt: 1 });
    await store.save({ ...conversation('new', said('second')), updatedAt: 2 });
    expect(storage.data.has(record('old'))).toBe(true);
    expect(storage.data.has(record('new'))).toBe(true);
    const reopened = await ConversationStore.open(storage);
    expect((await reopened.list()).items.map((i) => i.entry.title)).toEqual(['second', 'first']);
    expect((await reopened.current())?.id).toBe('new');
    expect((await reopened.load('old'))?.messages).toEqual([said('first')]);
  });

  test('an empty conversation (New Chat) is current but not listed', async () => {
    const store = await ConversationStore.open(memoryStorage());
    await store.save(conversation('kept', said('hello')));
    await store.save(conversation('empty'));
    const page = await store.list();
    expect(page.items.map((i) => i.entry.id)).toEqual(['kept']);
    expect(page.currentId).toBe('empty');
  });

  test('pages follow one another to the end', async () => {
    const store = await ConversationStore.open(memoryStorage());
    for (let n = 1; n <= 5; n += 1) {
      await store.save({ ...conversation(`c${n}`, said(`m${n}`)), updatedAt: n });
    }
    const first = await store.list({ pageSize: 2 });
    const second = await store.list({ pageSize: 2, cursor: first.next ?? -1 });
    const third = await store.list({ pageSize: 2, cursor: second.next ?? -1 });
    const ids = [first, second, third].map((p) => p.items.map((i) => i.entry.id));
    expect(ids).toEqual([['c5', 'c4'], ['c3', 'c2'], ['c1']]);
    expect(third.next).toBeNull();
  });

  test('search finds titles and message text, with a snippet for the latter', async () => {
    const store = await ConversationStore.open(memoryStorage());
    await store.save({ ...conversation('a', said('Sourdough starter')), updatedAt: 1 });
    const b = conversation('b', said('Weekend plans'), {
      role: 'assistant',
      content: [{ type: 'text', text: 'Bake some sourdough bread.' }],
    });
    await store.save({ ...b, updatedAt: 2 });
    await store.save({ ...conversation('c', said('Taxes')), updatedAt: 3 });
    const page = await store.list({ query: 'SOURDOUGH' });
    expect(page.items.map((i) => [i.entry.id, i.snippet])).toEqual([
      ['b', 'Bake some sourdough bread.'],
      ['a', undefined],
    ]);
  });

  test('a burst of saves costs two writes of the transcript, and the last one wins', async () => {
    const { storage, writes, records } = slowStorage();
    const storeOpening = ConversationStore.open(storage);
    const store = await storeOpening;
    const versions = [1, 2, 3, 4, 5].map((n) => conversation('c1', said(`message ${n}`)));
    const saves = versions.map((version) => store.save(version));
    expect(records().map((w) => w.value)).toEqual([versions[0]]);
    while (writes.some((w) => !('done' in w))) {
      const next = writes.find((w) => !('done' in w));
      if (next === undefined) break;
      Object.assign(next, { done: true });
      next.finish();
      await flush();
    }
    await Promise.all(saves);
    expect(records().map((w) => w.value)).toEqual([versions[0], versions[4]]);
    expect(await store.load('c1')).toEqual(versions[4]);
  });

  test('a failed write settles its save, and later saves are written', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const storage = memoryStorage();
    let failNext = true;
    const flaky: KeyValueStorage = {
      ...storage,
      set: (key, value) => {
        if (!failNext) return storage.set(key, value);
        failNext = false;
        return Promise.reject(new Error('QUOTA_BYTES quota exceeded'));
      },
    };
    const store = await ConversationStore.open(flaky);
    await expect(store.save(conversation('lost', said('a')))).resolves.toBeUndefined();
    expect(error).toHaveBeenCalledOnce();
    await store.save(conversation('kept', said('b')));
    expect(storage.data.has(record('kept'))).toBe(true);
  });
});

describe('a full storage.local (issue 14)', () => {
  /** storage.local past its quota: every set rejects as Chrome rejects it, until room is made. */
  function fullStorage() {
    const inner = memoryStorage();
    const state = { full: false };
    const storage: KeyValueStorage = {
      ...inner,
      set: (key, value) =>
        state.full
          ? Promise.reject(new Error('QUOTA_BYTES quota exceeded'))
          : inner.set(key, value),
    };
    return { inner, state, storage };
  }

  test('says the conversation on screen is not saved, keeps it, and saves it once there is room', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { inner, state, storage } = fullStorage();
    const problems: unknown[] = [];
    const store = await ConversationStore.open(storage, {
      onSaveProblem: (problem) => problems.push(problem),
    });
    await store.save(conversation('old', said('an old chat')));
    state.full = true;
    const current = conversation('now', said('what I am writing'));
    await store.save(current);
    expect(problems).toEqual([
      { kind: 'quota', detail: 'QUOTA_BYTES quota exceeded', currentUnsaved: true },
    ]);
    expect(store.saveProblem?.kind).toBe('quota');
    // Nothing is lost: the store still has it (the list, a reopen of it from the list).
    expect(await store.load('now')).toEqual(current);
    expect((await store.list()).items.map((i) => i.entry.id)).toEqual(['now', 'old']);
    expect(inner.data.has(record('now'))).toBe(false);

    // The user deletes an old conversation: room is made, and what was waiting is written.
    state.full = false;
    await store.remove('old');
    expect(inner.data.get(record('now'))).toEqual(current);
    expect(problems.at(-1)).toBeNull();
    expect(store.saveProblem).toBeNull();
    const reopened = await ConversationStore.open(inner);
    expect(await reopened.load('now')).toEqual(current);
  });

  test('a newer version written after a failure wins over the one that failed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { inner, state, storage } = fullStorage();
    const store = await ConversationStore.open(storage);
    state.full = true;
    await store.save(conversation('a', said('one')));
    state.full = false;
    const newer = conversation('a', said('one'), said('two'));
    await store.save(newer);
    expect(inner.data.get(record('a'))).toEqual(newer);
  });

  test('any other failure is reported as such', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const storage = memoryStorage();
    const store = await ConversationStore.open(
      { ...storage, set: () => Promise.reject(new Error('IO error: disk')) },
      {},
    );
    await store.save(conversation('a', said('x')));
    expect(store.saveProblem).toEqual({
      kind: 'other',
      detail: 'IO error: disk',
      currentUnsaved: true,
    });
  });
});

describe('rename, delete and the bound', () => {
  test('a rename is kept, and the title no longer follows the first message', async () => {
    const storage = memoryStorage();
    const store = await ConversationStore.open(storage);
    await store.save(conversation('a', said('first words')));
    await store.save(conversation('b', said('other')));
    expect(await store.rename('a', 'Groceries')).toBe(true);
    expect(await store.rename('missing', 'x')).toBe(false);
    const reopened = await ConversationStore.open(storage);
    const a = (await reopened.list()).items.find((i) => i.entry.id === 'a')?.entry;
    expect(a).toMatchObject({ title: 'Groceries', renamed: true });
    expect((await reopened.load('a'))?.title).toBe('Groceries');
  });

  test('a deleted conversation is gone, and a late save of it does not bring it back', async () => {
    const storage = memoryStorage();
    const store = await ConversationStore.open(storage);
    await store.save(conversation('a', said('secret')));
    await store.save(conversation('b', said('other')));
    expect(await store.remove('a')).toBe(true);
    await store.save(conversation('a', said('secret'), said('late words of its run')));
    expect(storage.data.has(record('a'))).toBe(false);
    expect((await store.list()).items.map((i) => i.entry.id)).toEqual(['b']);
    expect(await store.load('a')).toBeUndefined();
    expect(await store.remove('a')).toBe(false);
  });

  test('beyond the bound the oldest go, transcripts too, and the notice says how many', async () => {
    let now = 100;
    const storage = memoryStorage();
    const store = await ConversationStore.open(storage, () => now);
    await store.setLimit(5);
    for (let n = 1; n <= 7; n += 1) {
      await store.save({ ...conversation(`c${n}`, said(`m${n}`)), updatedAt: n });
    }
    const page = await store.list();
    expect(page.items.map((i) => i.entry.id)).toEqual(['c7', 'c6', 'c5', 'c4', 'c3']);
    expect(page.pruned).toEqual({ count: 1, at: 100 });
    expect(storage.data.has(record('c1'))).toBe(false);
    expect(storage.data.has(record('c2'))).toBe(false);
    // Lowering the bound applies at once; a dismissed notice stays dismissed.
    await store.dismissPruned();
    expect(store.pruned).toBeNull();
    now = 200;
    await store.setLimit(5);
    expect(store.pruned).toBeNull();
    const reopened = await ConversationStore.open(storage);
    expect(reopened.limit).toBe(5);
  });
});
