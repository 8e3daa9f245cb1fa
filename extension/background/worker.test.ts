import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import approvalRequired from '../../protocol/fixtures/errors/approval-required.json';
import toolsList from '../../protocol/fixtures/tools-list.json';
import type { JsonRpcRequest } from '../../protocol/jsonrpc';
import { builtinDefaultProfile } from '../../protocol/profiles';
import type { SenderInfo } from '../messaging/sender';
import type { PageEvent } from '../messaging/ui-protocol';
import { createBuiltinTools, type TabInfo, type TabsApi } from './builtin-tools';
import { ConversationSchema, type Conversation } from '../messaging/conversation';
import { INTERRUPTED_RESULT, pairingProblems } from './pairing';
import { HostClient } from './host-client';
import type { ProviderSettings } from '../messaging/provider';
import {
  ScriptedProvider,
  textTurn,
  toolTurn,
  type ScriptedTurn,
} from './providers/scripted-provider';
import { ConversationStore } from './stores/conversation-store';
import { memoryStorage, type KeyValueStorage } from './stores/key-value';
import { SettingsStore } from './stores/settings-store';
import { FakeClock } from './testing/fake-clock';
import { FakePagePort } from './testing/fake-page-port';
import { FakeNative, type FakePort } from './testing/fake-port';
import { startWorker } from './worker';
import { flush } from '../testing/flush';

/*
 * The service worker's parts wired together, with the host, the browser's storage and tabs, the
 * model and the pages all in memory. Dangerous direction: the API key reaching a page, a content
 * script hearing the chat, or a transcript stored (or restored) with an unanswered tool call.
 */

const ID = 'ddbjoamfefamboaogaeefgfijojophel';
const ORIGIN = `chrome-extension://${ID}`;
const PANEL: SenderInfo = { id: ID, url: `${ORIGIN}/sidepanel.html`, origin: ORIGIN };
const POPUP: SenderInfo = { id: ID, url: `${ORIGIN}/popup.html`, origin: ORIGIN };
const OPTIONS: SenderInfo = { id: ID, url: `${ORIGIN}/options.html`, origin: ORIGIN };
/** A content script shares the extension's id but runs in the web page. */
const CONTENT_SCRIPT: SenderInfo = {
  id: ID,
  url: 'https://shop.example/orders',
  origin: 'https://shop.example',
};
const KEY = 'sk-proj-SECRET-a81f03c2e4d5';

const TAB: TabInfo = {
  id: 7,
  windowId: 1,
  title: 'Orders',
  url: 'https://shop.example/orders',
  active: true,
};
const tabs: TabsApi = {
  activeTab: () => Promise.resolve(TAB),
  getTab: (id) => Promise.resolve(id === TAB.id ? TAB : undefined),
  listTabs: () => Promise.resolve([TAB]),
  readPageText: () => Promise.resolve('Order A-10483: open'),
  readSelection: () => Promise.resolve(''),
  captureVisible: () => Promise.reject(new Error('no capture in this test')),
};

const SnapshotSchema = z.object({
  conversation: ConversationSchema,
  running: z.boolean(),
  pendingApprovals: z.array(z.object({ approvalId: z.string() })),
  connection: z.object({ state: z.string() }),
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** A storage as the options page leaves it: an OpenAI provider with its key. */
async function configuredStorage(): Promise<KeyValueStorage> {
  const storage = memoryStorage();
  const settings = await SettingsStore.open(storage);
  await settings.setProvider({ kind: 'openai', apiKey: KEY, model: 'gpt-4o-mini' });
  return storage;
}

/** How the fake host answers `tools/call` (default: never, like a slow server). */
type ToolCallAnswer = (port: FakePort, request: JsonRpcRequest) => void;

/** Starts a worker as the background entrypoint does, and connects its host. */
async function boot(
  storage: KeyValueStorage,
  turns: readonly ScriptedTurn[],
  onToolCall: ToolCallAnswer = () => undefined,
) {
  const native = new FakeNative();
  const host = new HostClient({
    connect: native.connect,
    clock: new FakeClock(),
    log: () => undefined,
  });
  const provider = new ScriptedProvider(turns);
  const providerSettings: ProviderSettings[] = [];
  /** Plays the browser's tab events: the active tab now shows this URL. */
  let showTab: (url: string | null) => void = () => undefined;
  const worker = await startWorker({
    host,
    storage,
    builtins: createBuiltinTools(tabs),
    createProvider: (settings) => {
      providerSettings.push(settings);
      return provider;
    },
    extensionId: ID,
    extensionOrigin: ORIGIN,
    watchActiveTab: (listener) => {
      showTab = listener;
    },
  });
  host.connect();
  const port = native.port;
  port.onRequest = (request) => {
    switch (request.method) {
      case 'tools/list':
        port.respond(request.id, toolsList.result);
        return;
      case 'tools/call':
        onToolCall(port, request);
        return;
      case 'approvals/deny':
        port.respond(request.id, { denied: true });
        return;
      case 'profiles/resolve':
        port.respond(request.id, { profile: builtinDefaultProfile(), matchedPattern: null });
        return;
      case 'profiles/remove':
        port.respond(request.id, { removed: true });
        return;
      default:
        port.fail(request.id, { message: `unexpected ${request.method}` });
    }
  };
  port.answerHello();
  await flush();
  const open = (sender: SenderInfo): FakePagePort => {
    const page = new FakePagePort(sender);
    expect(worker.acceptPort(page)).toBe(true);
    return page;
  };
  return { worker, native, provider, providerSettings, open, showTab };
}

function agentEvents(page: FakePagePort) {
  return page.events().flatMap((e) => (e.type === 'agent' ? [e.event] : []));
}

/** Every conversation the page was shown. */
function conversationsShown(page: FakePagePort): Conversation[] {
  return agentEvents(page).flatMap((e) =>
    e.type === 'conversation-changed' ? [e.conversation] : [],
  );
}

async function untilRunDone(page: FakePagePort): Promise<void> {
  await vi.waitFor(() => {
    expect(agentEvents(page).map((e) => e.type)).toContain('done');
  });
  await flush();
}

async function stored(storage: KeyValueStorage): Promise<Conversation | undefined> {
  return (await ConversationStore.open(storage)).current();
}

const answerOrders: ToolCallAnswer = (port, request) => {
  port.respond(request.id, { content: [{ type: 'text', text: '2 open orders' }] });
};

describe('startWorker', () => {
  test("a server's question goes to an open side panel, and is declined, saying why, with none", async () => {
    const { open, native } = await boot(await configuredStorage(), []);
    const port = native.port;
    port.onRequest = (request) => {
      if (request.method === 'elicitation/respond') port.respond(request.id, { settled: true });
    };
    const card = {
      id: 'q1',
      server: 'github',
      message: 'Which repository?',
      expiresAt: 0,
      mode: 'form',
      fields: [],
    };
    // Only the popup is open: nobody to ask in the side panel.
    const popup = open(POPUP);
    port.deliver({
      jsonrpc: '2.0',
      method: 'notifications/elicitation/requested',
      params: { request: card },
    });
    await flush();
    expect(port.lastRequest('elicitation/respond').params).toEqual({
      id: 'q1',
      action: 'decline',
      unanswered: 'no-page',
    });
    expect(popup.events().some((e) => e.type === 'elicitation')).toBe(false);

    const panel = open(PANEL);
    port.deliver({
      jsonrpc: '2.0',
      method: 'notifications/elicitation/requested',
      params: { request: { ...card, id: 'q2' } },
    });
    port.deliver({
      jsonrpc: '2.0',
      method: 'notifications/elicitation/settled',
      params: { id: 'q2', action: 'accept', by: 'user' },
    });
    await flush();
    expect(panel.events().filter((e) => e.type === 'elicitation')).toEqual([
      { type: 'elicitation', id: 'q2' },
      { type: 'elicitation', id: 'q2' },
    ]);
    // Nothing was answered for the user while the panel is open.
    expect(port.requests().filter((r) => r.method === 'elicitation/respond')).toHaveLength(1);
  });
  test('a page that opens gets the conversation, the connection and the context meter', async () => {
    const { open } = await boot(await configuredStorage(), []);
    const panel = open(PANEL);
    const snapshot = await panel.call('session/snapshot');
    expect(snapshot).toMatchObject({
      conversation: { version: 1, messages: [] },
      running: false,
      pendingApprovals: [],
      connection: { state: 'connected', hostVersion: '0.1.0' },
      provider: { kind: 'openai', model: 'gpt-4o-mini', hasApiKey: true },
      autopilot: false,
      context: {
        conversation: 0,
        mcpByServer: [{ server: 'shop-db', tokens: expect.any(Number) as unknown }],
      },
      profile: { id: 'default', name: 'Default', matchedPattern: null, url: null },
    });
  });

  test('a page opened mid-stream gets the text streamed so far', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { open } = await boot(await configuredStorage(), [
      {
        steps: [
          { type: 'text-delta', text: 'Half of ' },
          { type: 'text-delta', text: 'an answer' },
          { type: 'wait', until: released },
          { type: 'text-delta', text: '.' },
          { type: 'finish', reason: 'stop' },
        ],
      },
    ]);
    const first = open(PANEL);
    const { runId } = z
      .object({ runId: z.string() })
      .parse(await first.call('chat/send', { text: 'hi' }));
    await vi.waitFor(() => {
      expect(agentEvents(first).filter((e) => e.type === 'text-delta')).toHaveLength(2);
    });
    // Another model picked mid-turn changes the conversation's details, not its transcript.
    await first.call('chat/setModel', { model: 'gpt-4o-mini' });
    const late = open(PANEL);
    expect(await late.call('session/snapshot')).toMatchObject({
      running: true,
      run: { runId, streamingText: 'Half of an answer' },
    });
    release();
    await untilRunDone(first);
    expect(await late.call('session/snapshot')).toMatchObject({ running: false, run: null });
  });

  test('chat/send streams the run to the page and the conversation is stored', async () => {
    const storage = await configuredStorage();
    const { open, worker, native } = await boot(
      storage,
      [
        toolTurn([{ id: 'c1', name: 'shop-db__query_orders', arguments: { sql: 'SELECT 1' } }]),
        textTurn('There are 2 open orders.'),
      ],
      answerOrders,
    );
    const panel = open(PANEL);
    const { runId } = z
      .object({ runId: z.string() })
      .parse(await panel.call('chat/send', { text: 'Any open orders?' }));
    await untilRunDone(panel);

    expect(agentEvents(panel).map((e) => e.type)).toEqual(
      expect.arrayContaining([
        'run-started',
        'tool-call-started',
        'tool-call-finished',
        'text-delta',
        'done',
        'conversation-changed',
      ]),
    );
    expect(agentEvents(panel)).toContainEqual(
      expect.objectContaining({ type: 'done', runId, reason: 'completed', toolRounds: 1 }),
    );
    // The meter follows the transcript.
    expect(panel.events().some((e) => e.type === 'context')).toBe(true);

    const conversation = worker.session.conversation;
    expect(conversation.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    // The call went out under the active tab's profile.
    expect(native.port.lastRequest('tools/call').params).toMatchObject({ profile: 'default' });
    expect(conversationsShown(panel).at(-1)).toEqual(conversation);
    expect(await stored(storage)).toEqual(conversation);
    for (const shown of conversationsShown(panel)) {
      expect(pairingProblems(shown.messages)).toEqual([]);
    }
  });

  test('a restarted worker restores the conversation, paired, even mid-call', async () => {
    const storage = await configuredStorage();
    // The first worker dies while the host still runs the call.
    const first = await boot(storage, [
      toolTurn([{ id: 'c1', name: 'shop-db__query_orders', arguments: { sql: 'SELECT 1' } }]),
    ]);
    const panel = first.open(PANEL);
    await panel.call('chat/send', { text: 'Any open orders?' });
    await vi.waitFor(() => {
      expect(first.native.port.requests().map((r) => r.method)).toContain('tools/call');
    });
    await flush();
    const lost = first.worker.session.conversation;

    const second = await boot(storage, [
      textTurn('The call was interrupted; shall I try again?', (request) => {
        expect(pairingProblems(request.messages)).toEqual([]);
      }),
    ]);
    const reopened = second.open(PANEL);
    const snapshot = SnapshotSchema.parse(await reopened.call('session/snapshot'));
    expect(snapshot.running).toBe(false);
    expect(snapshot.conversation.id).toBe(lost.id);
    expect(pairingProblems(snapshot.conversation.messages)).toEqual([]);
    expect(snapshot.conversation.messages.at(-1)).toEqual({
      role: 'tool',
      results: [
        {
          type: 'tool-result',
          callId: 'c1',
          name: 'shop-db__query_orders',
          status: 'error',
          content: INTERRUPTED_RESULT,
        },
      ],
    });

    // The restored chat goes on: the model is sent the repaired transcript.
    await reopened.call('chat/send', { text: 'Yes please.' });
    await untilRunDone(reopened);
    expect(second.provider.remaining).toBe(0);
    expect(agentEvents(reopened)).toContainEqual(
      expect.objectContaining({ type: 'done', reason: 'completed' }),
    );
  });

  test('chat/new while a call waits for approval denies it at the host; the transcript stays paired', async () => {
    const storage = await configuredStorage();
    const { open, native, worker } = await boot(
      storage,
      [
        toolTurn([
          {
            id: 'c1',
            name: 'shop-db__refund_order',
            arguments: approvalRequired.error.data.approval.arguments,
          },
        ]),
      ],
      (port, request) => {
        port.fail(request.id, approvalRequired.error);
      },
    );
    const panel = open(PANEL);
    await panel.call('chat/send', { text: 'Refund A-10483' });
    let approvalId = '';
    await vi.waitFor(() => {
      const card = agentEvents(panel).find((e) => e.type === 'approval-needed');
      expect(card).toBeDefined();
      approvalId = card?.type === 'approval-needed' ? card.approvalId : '';
    });
    const before = SnapshotSchema.parse(await panel.call('session/snapshot'));
    expect(before.pendingApprovals.map((a) => a.approvalId)).toEqual([approvalId]);

    const { conversation } = z
      .object({ conversation: ConversationSchema })
      .parse(await panel.call('chat/new'));
    await vi.waitFor(() => {
      expect(native.port.lastRequest('approvals/deny').params).toEqual({
        requestId: approvalRequired.error.data.approval.requestId,
      });
    });
    await flush();

    expect(await panel.call('approval/resolve', { approvalId, decision: 'allow-once' })).toEqual({
      resolved: false,
    });
    expect(native.port.requests().filter((r) => r.method === 'tools/call')).toHaveLength(1);
    const after = SnapshotSchema.parse(await panel.call('session/snapshot'));
    expect(after).toMatchObject({ running: false, pendingApprovals: [], conversation });
    expect(worker.session.conversation).toEqual(conversation);
    // The new chat is current (listed from its first message); the old one stays, paired.
    const history = await ConversationStore.open(storage);
    const page = await history.list();
    expect(page.currentId).toBe(conversation.id);
    const old = await history.load(page.items[0]?.entry.id ?? '');
    expect(old?.messages[0]).toEqual({ role: 'user', content: 'Refund A-10483' });
    expect(pairingProblems(old?.messages ?? [])).toEqual([]);
    for (const shown of conversationsShown(panel)) {
      expect(pairingProblems(shown.messages)).toEqual([]);
    }
  });

  test('the stored API key is in no message posted to any page', async () => {
    const { open, providerSettings } = await boot(
      await configuredStorage(),
      [
        toolTurn([{ id: 'c1', name: 'shop-db__query_orders', arguments: { sql: 'SELECT 1' } }]),
        textTurn('There are 2 open orders.'),
      ],
      answerOrders,
    );
    const panel = open(PANEL);
    const popup = open(POPUP);
    const options = open(OPTIONS);

    await panel.call('session/snapshot');
    await popup.call('session/snapshot');
    await options.call('settings/get');
    // Saving without a key keeps it (same provider, same URL): the page still never sees it.
    await options.call('settings/set', { provider: { kind: 'openai', model: 'gpt-4o' } });
    await options.call('autopilot/set', { on: true });
    await popup.call('host/request', { method: 'tools/list', params: {} });
    await panel.call('chat/send', { text: 'Any open orders?' });
    await untilRunDone(panel);
    await panel.call('session/snapshot');

    // The key did reach the model provider, so its absence below means something.
    expect(providerSettings.map((s) => s.apiKey)).toEqual([KEY]);
    const settingsEvents = options.events().filter((e) => e.type === 'settings');
    expect(settingsEvents.at(-1)).toEqual<PageEvent>({
      type: 'settings',
      provider: { kind: 'openai', model: 'gpt-4o', hasApiKey: true },
      autopilot: true,
    });
    for (const page of [panel, popup, options]) {
      expect(page.posted.length).toBeGreaterThan(0);
      expect(JSON.stringify(page.posted)).not.toContain(KEY);
    }
  });

  test("the pages follow the active tab's profile, resolved again when a page changes the profiles", async () => {
    const { open, native, showTab } = await boot(await configuredStorage(), []);
    const panel = open(PANEL);
    // Connected, the host has answered for the tab: the panel may say what it answered.
    expect(await panel.call('session/snapshot')).toMatchObject({ profileSettled: true });
    const resolved = () =>
      native.port
        .requests()
        .filter((r) => r.method === 'profiles/resolve')
        .map((r) => r.params);

    showTab('https://shop.example/orders');
    await vi.waitFor(() => {
      expect(panel.events()).toContainEqual<PageEvent>({
        type: 'profile',
        profile: {
          id: 'default',
          name: 'Default',
          matchedPattern: null,
          url: 'https://shop.example/orders',
        },
        settled: true,
      });
    });
    expect(resolved().at(-1)).toEqual({ url: 'https://shop.example/orders' });

    const asked = resolved().length;
    await panel.call('host/request', { method: 'profiles/remove', params: { id: 'github' } });
    await vi.waitFor(() => {
      expect(resolved()).toHaveLength(asked + 1);
    });
  });

  test('a content script gets nothing: not the port, not an answer, not an event', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { worker, open } = await boot(
      await configuredStorage(),
      [textTurn('Hello.')],
      answerOrders,
    );
    const intruder = new FakePagePort(CONTENT_SCRIPT);
    expect(worker.acceptPort(intruder)).toBe(false);
    expect(intruder.disconnected).toBe(true);

    intruder.send({ kind: 'request', id: 0, method: 'session/snapshot', params: {} });
    intruder.send({ kind: 'request', id: 1, method: 'settings/get', params: {} });
    const panel = open(PANEL);
    await panel.call('chat/send', { text: 'hi' });
    await untilRunDone(panel);
    await panel.call('autopilot/set', { on: true });

    expect(panel.events().length).toBeGreaterThan(0);
    expect(intruder.posted).toEqual([]);
  });
});
