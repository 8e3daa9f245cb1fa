import { describe, expect, test } from 'vitest';
import type { Conversation } from '../messaging/conversation';
import { UNDO_GRACE_MS, UNDO_WINDOW_MS } from '../messaging/history';
import type { PageEvent } from '../messaging/ui-protocol';
import { AgentSession } from './agent-session';
import { createHistoryHandlers } from './history-handlers';
import { PageRequestRefused } from './page-handlers';
import { ScriptedProvider, textTurn } from './providers/scripted-provider';
import { ConversationStore } from './stores/conversation-store';
import { memoryStorage } from './stores/key-value';
import { FakeTools } from './testing/fake-tools';

/*
 * The history's page requests, against a real session and store wired as the worker wires them
 * (every `conversation-changed` saved). Dangerous direction: a deleted conversation that stays on
 * screen or comes back, a rename the next message undoes, or another conversation's transcript
 * shown as the current one.
 */

let clock = 1_000;

async function setup(
  openedProfile?: (conversation: Conversation) => Promise<void>,
  pinnedConversation?: () => string | undefined,
) {
  const storage = memoryStorage();
  const store = await ConversationStore.open(storage, () => clock);
  const provider = new ScriptedProvider([
    textTurn('First answer.'),
    ...Array.from({ length: 20 }, () => textTurn('Another answer.')),
  ]);
  const session = new AgentSession({
    provider,
    tools: new FakeTools({}),
    now: () => (clock += 1),
    describe: () => ({
      profile: { id: 'work', name: 'Work' },
      provider: { kind: 'anthropic', model: 'claude-sonnet-4-5' },
    }),
  });
  const events: PageEvent[] = [];
  session.subscribe((event) => {
    if (event.type === 'conversation-changed') void store.save(event.conversation);
  });
  const handlers = createHistoryHandlers({
    session,
    store,
    broadcast: (event) => events.push(event),
    now: () => Date.UTC(2026, 11, 3),
    ...(openedProfile === undefined ? {} : { openedProfile }),
    ...(pinnedConversation === undefined ? {} : { pinnedConversation }),
  });
  /** Two conversations: "older" (answered), then "newer" (answered, on screen). */
  const twoChats = async (): Promise<{ older: string; newer: string }> => {
    await session.send('older question');
    const older = session.conversation.id;
    session.newChat();
    await session.send('newer question');
    return { older, newer: session.conversation.id };
  };
  return { storage, store, session, handlers, events, twoChats };
}

describe('history requests', () => {
  test('the list is newest first, each with the profile and model it began with', async () => {
    const { handlers, twoChats } = await setup();
    const { older, newer } = await twoChats();
    const page = await handlers['history/list']({});
    expect(page.items.map((i) => [i.entry.id, i.entry.title])).toEqual([
      [newer, 'newer question'],
      [older, 'older question'],
    ]);
    expect(page.currentId).toBe(newer);
    expect(page.items[1]?.entry).toMatchObject({
      profile: { id: 'work', name: 'Work' },
      provider: { kind: 'anthropic', model: 'claude-sonnet-4-5' },
      messageCount: 2,
    });
  });

  test('open shows the stored one, without moving it to the top', async () => {
    const { handlers, session, twoChats } = await setup();
    const { older, newer } = await twoChats();
    const { conversation } = await handlers['history/open']({ id: older });
    expect(conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(session.conversation.id).toBe(older);
    const page = await handlers['history/list']({});
    expect(page.items.map((i) => i.entry.id)).toEqual([newer, older]);
    expect(page.currentId).toBe(older);
    await expect(handlers['history/open']({ id: 'nope' })).rejects.toBeInstanceOf(
      PageRequestRefused,
    );
  });

  test('opening one hands its recorded profile to the tracker before answering (issue 14)', async () => {
    const settled: string[] = [];
    const { handlers, twoChats } = await setup(async (conversation) => {
      await Promise.resolve();
      settled.push(`${conversation.id}:${conversation.profile?.id ?? '-'}`);
    });
    const { older } = await twoChats();
    await handlers['history/open']({ id: older });
    expect(settled).toEqual([`${older}:work`]);
  });

  test('renaming the conversation on screen survives its next message', async () => {
    const { handlers, session, store, events } = await setup();
    await session.send('older question');
    const id = session.conversation.id;
    expect(await handlers['history/rename']({ id, title: 'Renamed' })).toEqual({ renamed: true });
    await session.send('and another');
    expect((await store.load(id))?.title).toBe('Renamed');
    expect(events).toContainEqual({ type: 'history' });
  });

  test('renaming one not on screen leaves the chat alone', async () => {
    const { handlers, session, twoChats } = await setup();
    const { older, newer } = await twoChats();
    await handlers['history/rename']({ id: older, title: 'Old one' });
    expect(session.conversation.id).toBe(newer);
    expect(session.conversation.title).toBeUndefined();
    const page = await handlers['history/list']({ query: 'old one' });
    expect(page.items.map((i) => i.entry.id)).toEqual([older]);
  });

  test('deleting the conversation on screen starts a new chat', async () => {
    const { handlers, session, storage, twoChats } = await setup();
    const { older, newer } = await twoChats();
    expect(await handlers['history/delete']({ id: newer })).toEqual({ deleted: true });
    expect(session.conversation.id).not.toBe(newer);
    expect(session.conversation.messages).toEqual([]);
    const page = await handlers['history/list']({});
    expect(page.items.map((i) => i.entry.id)).toEqual([older]);
    expect([...storage.data.keys()].some((k) => k.includes(newer))).toBe(false);
  });

  test('Undo after a delete restores the entry and the transcript exactly (issue 14)', async () => {
    const { handlers, session, storage, twoChats } = await setup();
    const { older, newer } = await twoChats();
    const before = await handlers['history/list']({});
    const key = `conversation.v2.${older}`;
    const transcript = storage.data.get(key);
    await handlers['history/delete']({ id: older });
    expect(storage.data.has(key)).toBe(false);
    expect(await handlers['history/restore']({ id: older })).toEqual({ restored: true });
    expect(storage.data.get(key)).toEqual(transcript);
    const after = await handlers['history/list']({});
    expect(after.items).toEqual(before.items);
    expect(session.conversation.id).toBe(newer);
    // Once is all: a second Undo has nothing to restore.
    expect(await handlers['history/restore']({ id: older })).toEqual({ restored: false });
  });

  test('Undo of the conversation on screen brings it back on screen', async () => {
    const { handlers, session, twoChats } = await setup();
    const { newer } = await twoChats();
    const shown = session.conversation;
    await handlers['history/delete']({ id: newer });
    expect(session.conversation.id).not.toBe(newer);
    await handlers['history/restore']({ id: newer });
    expect(session.conversation).toEqual(shown);
    expect((await handlers['history/list']({})).currentId).toBe(newer);
  });

  test('Undo pins the profile again only for a conversation that was pinned on screen (issue 14)', async () => {
    // A stand-in for the worker's ProfileTracker: open pins, New Chat (or the deletion) unpins.
    let pinned: string | undefined;
    const pins: string[] = [];
    const { handlers, session, twoChats } = await setup(
      async (conversation) => {
        await Promise.resolve();
        pinned = conversation.id;
        pins.push(`${conversation.id}:${conversation.profile?.id ?? '-'}`);
      },
      () => pinned,
    );
    session.subscribe((event) => {
      if (event.type === 'conversation-changed' && event.conversation.id !== pinned) {
        pinned = undefined;
      }
    });
    const { older, newer } = await twoChats();
    await handlers['history/open']({ id: older });
    expect(pins).toEqual([`${older}:work`]);
    await handlers['history/delete']({ id: older });
    expect(pinned).toBeUndefined();
    await handlers['history/restore']({ id: older });
    expect(session.conversation.id).toBe(older);
    expect(pinned).toBe(older);
    expect(pins).toEqual([`${older}:work`, `${older}:work`]);

    // The one started here was never pinned: its Undo brings it back as it was, unpinned.
    await handlers['history/open']({ id: newer });
    pinned = undefined;
    session.newChat();
    await session.send('third question');
    const third = session.conversation.id;
    await handlers['history/delete']({ id: third });
    await handlers['history/restore']({ id: third });
    expect(session.conversation.id).toBe(third);
    expect(pinned).toBeUndefined();
    expect(pins).toHaveLength(3);
  });

  test('Undo is refused after the undo window, and for any but the last deletion', async () => {
    const { handlers, twoChats } = await setup();
    const { older, newer } = await twoChats();
    await handlers['history/delete']({ id: older });
    await handlers['history/delete']({ id: newer });
    expect(await handlers['history/restore']({ id: older })).toEqual({ restored: false });
    clock += UNDO_WINDOW_MS + UNDO_GRACE_MS + 1;
    expect(await handlers['history/restore']({ id: newer })).toEqual({ restored: false });
    expect((await handlers['history/list']({})).items).toEqual([]);
  });

  test('search runs in the worker over message text', async () => {
    const { handlers, twoChats } = await setup();
    const { older } = await twoChats();
    const page = await handlers['history/list']({ query: 'first answer' });
    expect(page.items.map((i) => [i.entry.id, i.snippet])).toEqual([[older, 'First answer.']]);
  });

  test('export gives Markdown and JSON of any stored conversation', async () => {
    const { handlers, twoChats } = await setup();
    const { older } = await twoChats();
    const markdown = await handlers['history/export']({ id: older, format: 'markdown' });
    expect(markdown.text).toContain('## You\n\nolder question');
    expect(markdown.text).toContain('- Model: claude-sonnet-4-5 (anthropic)');
    const json = await handlers['history/export']({ id: older, format: 'json' });
    expect(JSON.parse(json.text)).toMatchObject({ version: 1, conversation: { id: older } });
  });

  test('the bound: read, set (applied at once, the user told), dismissed', async () => {
    const { handlers, twoChats } = await setup();
    await twoChats();
    expect(await handlers['history/bound']({})).toEqual({ limit: 100, pruned: null });
    for (let n = 0; n < 5; n += 1) await twoChats();
    const bound = await handlers['history/bound']({ limit: 5 });
    expect(bound.limit).toBe(5);
    expect(bound.pruned?.count).toBeGreaterThan(0);
    expect((await handlers['history/list']({})).items).toHaveLength(5);
    await handlers['history/dismissPruned']({});
    expect((await handlers['history/bound']({})).pruned).toBeNull();
  });
});
