import type { WebAuthFlow } from './web-auth';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import serversLogs from '../../protocol/fixtures/servers-logs.json';
import type { SenderInfo } from '../messaging/sender';
import type { ActiveProfileView, PageEvent } from '../messaging/ui-protocol';
import type { ProviderSettings } from '../messaging/provider';
import { AgentSession, RunInProgressError } from './agent-session';
import type { AgentEvent } from '../messaging/agent-events';
import {
  CONVERSATION_CHANGED_MESSAGE,
  PROFILE_UNKNOWN_MESSAGE,
  PageRequestRefused,
  createPageHandlers,
} from './page-handlers';
import { ScriptedProvider, textTurn, type ScriptedTurn } from './providers/scripted-provider';
import { NO_PROVIDER_MESSAGE } from './providers/settings-provider';
import { createHistoryHandlers } from './history-handlers';
import { ConversationStore } from './stores/conversation-store';
import { memoryStorage } from './stores/key-value';
import { SettingsStore } from './stores/settings-store';
import { FakePagePort } from './testing/fake-page-port';
import { FakeTools } from './testing/fake-tools';
import { UiServer } from './ui-server';
import { connectedHostClient } from './testing/connected-host-client';
import { FakeClock } from './testing/fake-clock';
import { FakeNative } from './testing/fake-port';
import { HostClient } from './host-client';
import { flush } from '../testing/flush';

/** These tests never sign in (web-auth.test.ts does). */
const NO_WEB_AUTH: WebAuthFlow = {
  redirectUri: () => 'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/',
  launch: () => Promise.reject(new Error('not in this test')),
};

/*
 * What each page request does in the worker. Dangerous direction: a page that reaches the agent's
 * own host methods (runs a tool past the approval card, withdraws an approval), or an API key that
 * leaves the worker in an answer or an event.
 */

const ID = 'ddbjoamfefamboaogaeefgfijojophel';
const ORIGIN = `chrome-extension://${ID}`;
const OPTIONS_PAGE: SenderInfo = { id: ID, url: `${ORIGIN}/options.html`, origin: ORIGIN };
const KEY = 'sk-proj-SECRET-6f1e0c9a4b';

afterEach(() => {
  vi.restoreAllMocks();
});

async function setup(
  turns: readonly ScriptedTurn[] = [],
  options: { readonly profile?: ActiveProfileView } = {},
) {
  const { native, host } = await connectedHostClient();
  const settings = await SettingsStore.open(memoryStorage());
  const provider = new ScriptedProvider(turns);
  const session = new AgentSession({ provider, tools: new FakeTools({}) });
  const agentEvents: AgentEvent[] = [];
  session.subscribe((event) => agentEvents.push(event));
  const broadcasts: PageEvent[] = [];
  /** Host methods a page's request reached and the host answered. */
  const relayed: string[] = [];
  /** The settings each provider/test ran with (the key resolved). */
  const testedWith: ProviderSettings[] = [];
  const history = createHistoryHandlers({
    session,
    store: await ConversationStore.open(memoryStorage()),
    broadcast: (event) => broadcasts.push(event),
  });
  const pageHandlers = createPageHandlers({
    session,
    settings,
    host,
    context: () => Promise.resolve(null),
    profile: () => options.profile ?? null,
    profileSettled: () => true,
    run: () => null,
    broadcast: (event) => broadcasts.push(event),
    afterHostRequest: (method) => relayed.push(method),
    webAuth: NO_WEB_AUTH,
    testConnection: (tested) => {
      testedWith.push(tested);
      return Promise.resolve({ cause: 'ok', tone: 'success', message: 'Connected.' });
    },
    listModels: (listed) =>
      Promise.resolve({ models: [listed.model, `${listed.model}-mini`], problem: null }),
  });
  const handlers = { ...history, ...pageHandlers };
  /** Host methods the worker sent after the handshake. */
  const hostMethods = (): string[] =>
    native.port
      .requests()
      .map((r) => r.method)
      .filter((m) => m !== 'host/hello');
  return {
    native,
    host,
    settings,
    provider,
    session,
    agentEvents,
    broadcasts,
    relayed,
    testedWith,
    handlers,
    hostMethods,
  };
}

describe("host/request: a page reaches the host, but not the agent's own methods", () => {
  test.each([
    'tools/call',
    'host/hello',
    'approvals/deny',
    'no/such-method',
    'chat/send',
    '__proto__',
    'constructor',
  ])("'%s' is refused as unknown-method and never reaches the host", async (method) => {
    const { handlers, hostMethods, relayed } = await setup();
    const attempt = handlers['host/request']({
      method,
      params: { name: 'shop-db__refund_order', arguments: {}, requestId: 'r' },
    });
    await expect(attempt).rejects.toBeInstanceOf(PageRequestRefused);
    await expect(attempt).rejects.toMatchObject({
      reason: 'unknown-method',
      message: `'${method}' cannot be requested from a page.`,
    });
    expect(hostMethods()).toEqual([]);
    expect(relayed).toEqual([]);
  });

  test('bad params for an allowed method fail the zod parse and are not sent', async () => {
    const { handlers, hostMethods, relayed } = await setup();
    await expect(
      handlers['host/request']({ method: 'servers/start', params: { server: '' } }),
    ).rejects.toBeInstanceOf(z.ZodError);
    await expect(
      handlers['host/request']({ method: 'servers/logs', params: undefined }),
    ).rejects.toBeInstanceOf(z.ZodError);
    expect(hostMethods()).toEqual([]);
    expect(relayed).toEqual([]);
  });

  test('the page server answers bad params as invalid-request', async () => {
    const { handlers } = await setup();
    const ui = new UiServer({ extensionId: ID, extensionOrigin: ORIGIN, handlers });
    const page = new FakePagePort(OPTIONS_PAGE);
    ui.accept(page);
    const answer = await page.request('host/request', {
      method: 'servers/start',
      params: { server: 42 },
    });
    expect(answer).toMatchObject({ ok: false, reason: 'invalid-request' });
    expect(answer.ok ? '' : answer.error).toMatch(/^Invalid request: .*server/s);
  });

  test("an allowed method is relayed with its parsed params, and the host's answer comes back", async () => {
    const { native, handlers, hostMethods, relayed } = await setup();
    native.port.onRequest = (request) => {
      if (request.method === 'servers/logs') native.port.respond(request.id, serversLogs.result);
    };
    const result = await handlers['host/request']({
      method: 'servers/logs',
      // Keys the schema does not know are dropped before the host sees them.
      params: { server: 'shop-db', limit: 3, shell: 'rm -rf ~' },
    });
    expect(result).toEqual(serversLogs.result);
    expect(hostMethods()).toEqual(['servers/logs']);
    expect(relayed).toEqual(['servers/logs']);
    expect(native.port.lastRequest('servers/logs').params).toEqual({ server: 'shop-db', limit: 3 });
  });

  test('a host error reaches the page, and afterHostRequest hears only of successes', async () => {
    const { native, handlers, relayed } = await setup();
    native.port.onRequest = (request) => {
      native.port.fail(request.id, {
        message: 'No server "x".',
        data: { reason: 'unknown-server' },
      });
    };
    await expect(
      handlers['host/request']({ method: 'servers/start', params: { server: 'x' } }),
    ).rejects.toMatchObject({ reason: 'unknown-server', message: 'No server "x".' });
    expect(relayed).toEqual([]);
  });
});

describe('settings: the API key never leaves the worker', () => {
  test('settings/set and settings/get answer (and broadcast) the settings without the key', async () => {
    const { handlers, broadcasts, settings } = await setup();
    const set = await handlers['settings/set']({
      provider: { kind: 'openai', apiKey: KEY, model: 'gpt-4o-mini' },
    });
    // The key was saved: a test that never stored it would pass trivially below.
    expect(settings.provider?.apiKey).toBe(KEY);
    const kept = await handlers['settings/set']({
      provider: { kind: 'openai', model: 'gpt-4o' },
    });
    const got = await handlers['settings/get']({});
    const autopilot = await handlers['autopilot/set']({ on: true });

    expect(set.provider).toEqual({ kind: 'openai', model: 'gpt-4o-mini', hasApiKey: true });
    expect(kept.provider).toEqual({ kind: 'openai', model: 'gpt-4o', hasApiKey: true });
    expect(got.provider).toEqual(kept.provider);
    expect(broadcasts).toHaveLength(3);
    const everything = JSON.stringify([set, kept, got, autopilot, broadcasts]);
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain('apiKey');
  });

  test('a refused settings/set answers with the sentence and broadcasts nothing', async () => {
    const { handlers, broadcasts } = await setup();
    await expect(
      handlers['settings/set']({ provider: { kind: 'anthropic', model: 'claude' } }),
    ).rejects.toThrow('Enter an Anthropic API key.');
    expect(broadcasts).toEqual([]);
  });
});

describe('provider/test: the form as typed, the saved key only for its own server', () => {
  test('an omitted key is the saved one for the same server, nothing is saved, no key in the answer', async () => {
    const { handlers, settings, testedWith, broadcasts } = await setup();
    await settings.setProvider({ kind: 'openai', apiKey: KEY, model: 'gpt-4o' });
    const result = await handlers['provider/test']({
      provider: { kind: 'openai', model: 'gpt-4.1' },
    });
    expect(testedWith).toEqual([{ kind: 'openai', apiKey: KEY, model: 'gpt-4.1' }]);
    expect(settings.provider?.model).toBe('gpt-4o');
    expect(broadcasts).toEqual([]);
    expect(JSON.stringify(result)).not.toContain(KEY);
  });

  // Dangerous direction: the saved key sent to a server the user did not save it for.
  test.each([
    ['another base URL', { kind: 'openai', model: 'gpt-4.1', baseURL: 'https://evil.example/v1' }],
    ['another kind', { kind: 'anthropic', model: 'claude-sonnet-4-5' }],
  ] as const)('with %s the saved key is not used: refused for want of one', async (_, provider) => {
    const { handlers, settings, testedWith } = await setup();
    await settings.setProvider({ kind: 'openai', apiKey: KEY, model: 'gpt-4o' });
    await expect(handlers['provider/test']({ provider })).rejects.toThrow(/API key/);
    expect(testedWith).toEqual([]);
  });
});

describe('chat', () => {
  test('without a provider, chat/send is refused with no-provider and nothing runs', async () => {
    const { handlers, provider, session } = await setup([textTurn('never')]);
    const attempt = handlers['chat/send']({ text: 'hello' });
    await expect(attempt).rejects.toBeInstanceOf(PageRequestRefused);
    await expect(attempt).rejects.toMatchObject({
      reason: 'no-provider',
      message: NO_PROVIDER_MESSAGE,
    });
    expect(provider.requests).toEqual([]);
    expect(session.conversation.messages).toEqual([]);
  });

  test("chat/send answers with the run's id at once; a second send while it runs is refused", async () => {
    let release: () => void = () => undefined;
    const { handlers, settings, session, agentEvents } = await setup([
      {
        steps: [
          { type: 'wait', until: new Promise<void>((resolve) => (release = resolve)) },
          { type: 'text-delta', text: 'Hello!' },
          { type: 'finish', reason: 'stop' },
        ],
      },
    ]);
    await settings.setProvider({ kind: 'openai', apiKey: KEY, model: 'gpt-4o' });
    const { runId } = await handlers['chat/send']({ text: 'hi' });
    expect(agentEvents).toContainEqual({ type: 'run-started', runId });
    expect(session.running).toBe(true);

    await expect(handlers['chat/send']({ text: 'again' })).rejects.toBeInstanceOf(
      RunInProgressError,
    );

    release();
    await vi.waitFor(() => {
      expect(session.running).toBe(false);
    });
    expect(agentEvents).toContainEqual(expect.objectContaining({ type: 'done', runId }));
    expect(session.conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  test('a send whose attachments are read while another conversation is opened is refused: nothing lands anywhere', async () => {
    const work: ActiveProfileView = { id: 'work', name: 'Work', matchedPattern: null, url: null };
    const { handlers, settings, session, native, provider } = await setup([textTurn('never')], {
      profile: work,
    });
    await settings.setProvider({ kind: 'openai', apiKey: KEY, model: 'gpt-4o' });
    let answer: () => void = () => undefined;
    native.port.onRequest = (request) => {
      if (request.method !== 'resources/read') return;
      answer = () => {
        native.port.respond(request.id, {
          server: 'docs',
          contents: [{ uri: 'docs://a', text: 'notes of A' }],
        });
      };
    };
    const sent = handlers['chat/send']({
      text: 'Summarise this.',
      attachments: [{ server: 'docs', uri: 'docs://a', name: 'a' }],
    });
    await vi.waitFor(() => {
      expect(native.port.lastRequest('resources/read').params).toMatchObject({ profile: 'work' });
    });
    await handlers['chat/new']({});
    answer();
    await expect(sent).rejects.toMatchObject({
      reason: 'conversation-changed',
      message: CONVERSATION_CHANGED_MESSAGE,
    });
    expect(session.conversation.messages).toEqual([]);
    expect(provider.requests).toEqual([]);
  });

  test('chat/new answers with the empty conversation the session now holds', async () => {
    const { handlers, session } = await setup();
    const { conversation } = await handlers['chat/new']({});
    expect(conversation).toBe(session.conversation);
    expect(conversation.messages).toEqual([]);
  });

  test("models/list asks the saved provider's models endpoint; without a provider it says so", async () => {
    const { handlers, settings } = await setup();
    expect(await handlers['models/list']({})).toEqual({ models: [], problem: NO_PROVIDER_MESSAGE });
    await settings.setProvider({ kind: 'openai', apiKey: KEY, model: 'gpt-4o' });
    expect(await handlers['models/list']({})).toEqual({
      models: ['gpt-4o', 'gpt-4o-mini'],
      problem: null,
    });
  });

  test('chat/setModel sets the model of this conversation only; null goes back to the default', async () => {
    const { handlers, session, agentEvents } = await setup();
    const { conversation } = await handlers['chat/setModel']({ model: 'gpt-4o-mini' });
    expect(conversation.model).toBe('gpt-4o-mini');
    expect(agentEvents.at(-1)).toEqual({ type: 'conversation-changed', conversation });
    expect((await handlers['chat/setModel']({ model: null })).conversation.model).toBeUndefined();
    await handlers['chat/setModel']({ model: 'gpt-4o-mini' });
    expect(session.newChat().model).toBeUndefined();
  });

  test('approval/resolve of an approval nobody waits for says so', async () => {
    const { handlers } = await setup();
    expect(
      await handlers['approval/resolve']({ approvalId: 'gone', decision: 'allow-once' }),
    ).toEqual({ resolved: false });
  });
});

describe('session/snapshot', () => {
  test('is read after the meter it waits for: a change meanwhile is in it, not undone by it', async () => {
    const { host, settings, session } = await setup();
    let listed: (meter: null) => void = () => undefined;
    const handlers = createPageHandlers({
      session,
      settings,
      host,
      webAuth: NO_WEB_AUTH,
      // The meter waits for the host's tool listing, which takes a while as the host starts.
      context: () => new Promise((resolve) => (listed = resolve)),
      profile: () => null,
      profileSettled: () => true,
      run: () => null,
      broadcast: () => undefined,
      testConnection: () => Promise.reject(new Error('not in this test')),
      listModels: () => Promise.reject(new Error('not in this test')),
    });

    const snapshot = handlers['session/snapshot']({});
    // Broadcast to the page while the snapshot waits; the snapshot lands after it.
    await settings.setProvider({ kind: 'openai', apiKey: KEY, model: 'gpt-4o' });
    listed(null);

    expect(await snapshot).toMatchObject({
      provider: { kind: 'openai', model: 'gpt-4o', hasApiKey: true },
      connection: { state: 'connected' },
    });
  });
});

describe('while the active tab has no profile (fail closed)', () => {
  const attachment = { server: 'docs', uri: 'docs://readme', name: 'readme' };

  test("an attached resource is not read under the host's default, and nothing runs", async () => {
    const { handlers, settings, provider, hostMethods, session } = await setup([textTurn('never')]);
    await settings.setProvider({ kind: 'openai', apiKey: KEY, model: 'gpt-4o' });
    const attempt = handlers['chat/send']({ text: 'read this', attachments: [attachment] });
    await expect(attempt).rejects.toMatchObject({
      reason: 'profile-unknown',
      message: PROFILE_UNKNOWN_MESSAGE,
    });
    expect(hostMethods()).toEqual([]);
    expect(provider.requests).toEqual([]);
    expect(session.conversation.messages).toEqual([]);
  });

  test.each(['resources/list', 'resources/templates/list', 'prompts/list', 'resources/read'])(
    "the side panel's %s is refused, not answered for the host's default",
    async (method) => {
      const { handlers, hostMethods } = await setup();
      const params = method === 'resources/read' ? { server: 'docs', uri: 'docs://readme' } : {};
      await expect(handlers['host/request']({ method, params })).rejects.toMatchObject({
        reason: 'profile-unknown',
      });
      expect(hostMethods()).toEqual([]);
    },
  );

  test("an app's tool call is refused before it reaches the host", async () => {
    const { handlers, hostMethods } = await setup();
    const attempt = handlers['apps/call']({
      server: 'probe',
      name: 'probe__probe_report',
      arguments: {},
    });
    await expect(attempt).rejects.toMatchObject({ reason: 'profile-unknown' });
    expect(hostMethods()).toEqual([]);
  });
});

describe('while the host is still connecting and the tab has no profile yet', () => {
  test("an app's tool call is refused, not queued to go without one after the handshake", async () => {
    const native = new FakeNative();
    const host = new HostClient({ connect: native.connect, clock: new FakeClock() });
    host.connect();
    expect(host.state.state).toBe('connecting');
    const settings = await SettingsStore.open(memoryStorage());
    const handlers = createPageHandlers({
      session: new AgentSession({ provider: new ScriptedProvider([]), tools: new FakeTools({}) }),
      settings,
      host,
      webAuth: NO_WEB_AUTH,
      context: () => Promise.resolve(null),
      profile: () => null,
      profileSettled: () => true,
      run: () => null,
      broadcast: () => undefined,
      testConnection: () => Promise.reject(new Error('not in this test')),
      listModels: () => Promise.reject(new Error('not in this test')),
    });
    await expect(
      handlers['apps/call']({ server: 'probe', name: 'probe__report', arguments: {} }),
    ).rejects.toMatchObject({ reason: 'profile-unknown' });
    await expect(
      handlers['host/request']({
        method: 'resources/read',
        params: { server: 'probe', uri: 'ui://probe/app.html' },
      }),
    ).rejects.toMatchObject({ reason: 'profile-unknown' });
    native.port.answerHello();
    await flush();
    expect(native.port.requests().map((r) => r.method)).toEqual(['host/hello']);
  });
});
