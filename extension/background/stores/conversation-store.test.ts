import { afterEach, describe, expect, test, vi } from 'vitest';
import { INTERRUPTED_RESULT, newConversation, pairingProblems } from '../pairing';
import type { ChatMessage, Conversation } from '../../messaging/conversation';
import { ConversationStore } from './conversation-store';
import { memoryStorage, type KeyValueStorage } from './key-value';
import { flush } from '../../testing/flush';

/*
 * The conversation across worker restarts. Dangerous direction: a restored transcript with a
 * tool call and no result (every later turn of the chat fails at the provider), or a save that
 * loses the newest transcript to an older one.
 */

// The stored key is part of the format: renaming it silently loses every user's chat.
const CONVERSATION_KEY = 'conversation.v1';

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

/** A storage whose writes wait until the test lets them finish, one by one. */
function slowStorage() {
  const inner = memoryStorage();
  const writes: { value: unknown; finish: () => void; fail: (error: Error) => void }[] = [];
  const storage: KeyValueStorage = {
    get: (key) => inner.get(key),
    remove: (key) => inner.remove(key),
    set: (key, value) =>
      new Promise<void>((resolve, reject) => {
        writes.push({
          value,
          finish: () => {
            void inner.set(key, value).then(resolve);
          },
          fail: reject,
        });
      }),
  };
  return { storage, writes };
}

describe('ConversationStore.load', () => {
  test('nothing stored: undefined', async () => {
    expect(await new ConversationStore(memoryStorage()).load()).toBeUndefined();
  });

  test.each<[string, unknown]>([
    ['a string', 'garbage'],
    ['null', null],
    ['a future version', { ...conversation('c1'), version: 2 }],
    ['a message of an unknown role', { ...conversation('c1'), messages: [{ role: 'system' }] }],
  ])('%s: undefined, with a warning', async (_label, raw) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const store = new ConversationStore(memoryStorage({ [CONVERSATION_KEY]: raw }));
    expect(await store.load()).toBeUndefined();
    expect(warn).toHaveBeenCalledOnce();
  });

  test('what was saved is what a later load reads back', async () => {
    const storage = memoryStorage();
    const saved = conversation('c1', asked, {
      role: 'assistant',
      content: [{ type: 'text', text: 'A recipe.' }],
    });
    await new ConversationStore(storage).save(saved);
    expect(await new ConversationStore(storage).load()).toEqual(saved);
  });

  test('a call saved without its result gets the interrupted result', async () => {
    const store = new ConversationStore(
      memoryStorage({ [CONVERSATION_KEY]: conversation('c1', asked, calledTool) }),
    );
    const loaded = await store.load();
    expect(loaded?.messages).toEqual([
      asked,
      calledTool,
      {
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
      },
    ]);
    expect(pairingProblems(loaded?.messages ?? [])).toEqual([]);
  });

  test('a result still pending when the worker died becomes an error', async () => {
    const pending: ChatMessage = {
      role: 'tool',
      results: [
        {
          type: 'tool-result',
          callId: 'c1',
          name: 'browser_read_page',
          status: 'pending',
          content: INTERRUPTED_RESULT,
        },
      ],
    };
    const store = new ConversationStore(
      memoryStorage({ [CONVERSATION_KEY]: conversation('c1', asked, calledTool, pending) }),
    );
    const loaded = await store.load();
    expect(loaded?.messages.at(-1)).toEqual({
      role: 'tool',
      results: [expect.objectContaining({ status: 'error', content: INTERRUPTED_RESULT })],
    });
    expect(pairingProblems(loaded?.messages ?? [])).toEqual([]);
  });
});

describe('ConversationStore.save', () => {
  test('a burst of saves costs two writes, and the last one wins', async () => {
    const { storage, writes } = slowStorage();
    const store = new ConversationStore(storage);
    const versions = [1, 2, 3, 4, 5].map((n) =>
      conversation('c1', { role: 'user', content: `message ${n}` }),
    );
    const saves = versions.map((version) => store.save(version));
    expect(writes.map((w) => w.value)).toEqual([versions[0]]);

    writes[0]?.finish();
    await flush();
    expect(writes.map((w) => w.value)).toEqual([versions[0], versions[4]]);

    writes[1]?.finish();
    await Promise.all(saves);
    expect(writes).toHaveLength(2);
    expect(await store.load()).toEqual(versions[4]);
  });

  test('a save made after the burst settled writes again', async () => {
    const storage = memoryStorage();
    const set = vi.spyOn(storage, 'set');
    const store = new ConversationStore(storage);
    await store.save(conversation('c1'));
    await store.save(conversation('c2'));
    expect(set).toHaveBeenCalledTimes(2);
    expect((await store.load())?.id).toBe('c2');
  });

  test('a failed write settles its save, and the newest conversation is still written', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { storage, writes } = slowStorage();
    const store = new ConversationStore(storage);
    const first = store.save(conversation('c1'));
    const second = store.save(conversation('c2'));
    writes[0]?.fail(new Error('QUOTA_BYTES quota exceeded'));
    await flush();
    writes[1]?.finish();
    await expect(Promise.all([first, second])).resolves.toEqual([undefined, undefined]);
    expect(error).toHaveBeenCalledOnce();
    expect((await store.load())?.id).toBe('c2');
  });

  test('after a failed write, later saves are written', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const storage = memoryStorage();
    let failNext = true;
    const flaky: KeyValueStorage = {
      ...storage,
      set: (key, value) => {
        if (!failNext) return storage.set(key, value);
        failNext = false;
        return Promise.reject(new Error('IO error'));
      },
    };
    const store = new ConversationStore(flaky);
    await expect(store.save(conversation('lost'))).resolves.toBeUndefined();
    expect(await store.load()).toBeUndefined();
    await store.save(conversation('kept'));
    expect((await store.load())?.id).toBe('kept');
  });
});
