import { describe, expect, test } from 'vitest';
import { newConversation } from './pairing';
import { HostRequestError } from './host-errors';
import { FakePagePort } from './testing/fake-page-port';
import { UiServer, type PageHandlers } from './ui-server';
import { UI_PORT_NAME } from '../messaging/ui-protocol';
import type { SenderInfo } from '../messaging/sender';

const ID = 'ddbjoamfefamboaogaeefgfijojophel';
const ORIGIN = `chrome-extension://${ID}`;
const PANEL: SenderInfo = { id: ID, url: `${ORIGIN}/sidepanel.html`, origin: ORIGIN };

/** The page sends a message; the worker's handlers run (they answer within a macrotask). */
async function deliver(port: FakePagePort, message: unknown): Promise<void> {
  port.send(message);
  await new Promise((resolve) => setTimeout(resolve, 0));
}

function fail(): never {
  throw new Error('not in this test');
}

function handlers(overrides: Partial<PageHandlers> = {}): PageHandlers {
  const conversation = newConversation('c1', 0);
  return {
    'session/snapshot': fail,
    'chat/send': ({ text }) => Promise.resolve({ runId: `run for ${text}` }),
    'chat/stop': () => Promise.resolve({}),
    'chat/cancelCall': () => Promise.resolve({ cancelled: false }),
    'chat/resend': () => Promise.resolve({ runId: 'r' }),
    'chat/new': () => Promise.resolve({ conversation }),
    'models/list': () => Promise.resolve({ models: [], problem: null }),
    'chat/setModel': () => Promise.resolve({ conversation }),
    'approval/resolve': () => Promise.resolve({ resolved: true }),
    'autopilot/set': ({ on }) => Promise.resolve({ autopilot: on }),
    'settings/get': () => Promise.resolve({ provider: null }),
    'settings/set': fail,
    'provider/test': fail,
    'host/request': fail,
    'apps/call': fail,
    'host/reconnect': () => Promise.resolve({}),
    'auth/signIn': fail,
    'history/list': fail,
    'history/open': fail,
    'history/rename': fail,
    'history/delete': fail,
    'history/restore': fail,
    'page/selection': fail,
    'history/export': fail,
    'history/bound': fail,
    'history/dismissPruned': fail,
    ...overrides,
  };
}

function server(overrides: Partial<PageHandlers> = {}): UiServer {
  return new UiServer({ extensionId: ID, extensionOrigin: ORIGIN, handlers: handlers(overrides) });
}

describe('UiServer', () => {
  test.each<[string, SenderInfo | undefined, string]>([
    ['a content script', { id: ID, url: 'https://evil.example/' }, UI_PORT_NAME],
    [
      'another extension',
      { id: 'b'.repeat(32), url: `chrome-extension://${'b'.repeat(32)}/` },
      UI_PORT_NAME,
    ],
    ['no sender', undefined, UI_PORT_NAME],
    ['our page on a port with another name', PANEL, 'something-else'],
  ])('refuses %s: the port is closed and gets nothing', (_label, sender, name) => {
    const ui = server();
    const port = new FakePagePort(sender, name);
    expect(ui.accept(port)).toBe(false);
    expect(port.disconnected).toBe(true);
    ui.broadcast({ type: 'context', context: null });
    expect(port.posted).toEqual([]);
  });

  test('answers a request with its id and result', async () => {
    const ui = server();
    const port = new FakePagePort(PANEL);
    ui.accept(port);
    await deliver(port, { kind: 'request', id: 7, method: 'chat/send', params: { text: 'hi' } });
    expect(port.posted).toEqual([
      { kind: 'response', id: 7, ok: true, result: { runId: 'run for hi' } },
    ]);
  });

  test('params are parsed before the handler runs', async () => {
    const ui = server();
    const port = new FakePagePort(PANEL);
    ui.accept(port);
    await deliver(port, { kind: 'request', id: 1, method: 'chat/send', params: { text: '   ' } });
    await deliver(port, { kind: 'request', id: 2, method: 'autopilot/set', params: { on: 'yes' } });
    expect(port.posted.map((m) => m.kind === 'response' && !m.ok && m.reason)).toEqual([
      'invalid-request',
      'invalid-request',
    ]);
  });

  test('a message of an image alone is taken; one of nothing at all is not (issue 14)', async () => {
    const ui = server();
    const port = new FakePagePort(PANEL);
    ui.accept(port);
    const image = { kind: 'image', name: 'a.png', mimeType: 'image/png', data: 'iVBORw==' };
    await deliver(port, {
      kind: 'request',
      id: 1,
      method: 'chat/send',
      params: { text: '', files: [image] },
    });
    await deliver(port, {
      kind: 'request',
      id: 2,
      method: 'chat/send',
      params: { text: ' ', files: [] },
    });
    expect(port.posted.map((m) => m.kind === 'response' && m.ok)).toEqual([true, false]);
  });

  test('an unknown method is answered, a malformed message is dropped', async () => {
    const ui = server();
    const port = new FakePagePort(PANEL);
    ui.accept(port);
    await deliver(port, { kind: 'request', id: 3, method: 'tools/call', params: {} });
    await deliver(port, { kind: 'request', id: 'x', method: 'chat/stop' });
    await deliver(port, 'hello');
    expect(port.posted).toEqual([
      {
        kind: 'response',
        id: 3,
        ok: false,
        error: "Unknown request 'tools/call'.",
        reason: 'unknown-method',
      },
    ]);
  });

  test("a handler's error answers the request with its message and the host's reason", async () => {
    const ui = server({
      'host/request': () =>
        Promise.reject(
          new HostRequestError('servers/start', 'unknown-server', -32000, 'No server "x".', {
            reason: 'unknown-server',
          }),
        ),
    });
    const port = new FakePagePort(PANEL);
    ui.accept(port);
    await deliver(port, {
      kind: 'request',
      id: 4,
      method: 'host/request',
      params: { method: 'servers/start', params: { server: 'x' } },
    });
    expect(port.posted).toEqual([
      { kind: 'response', id: 4, ok: false, error: 'No server "x".', reason: 'unknown-server' },
    ]);
  });

  test('events reach every open page and stop after a page closes', () => {
    const ui = server();
    const a = new FakePagePort(PANEL);
    const b = new FakePagePort({ id: ID, url: `${ORIGIN}/popup.html` });
    ui.accept(a);
    ui.accept(b);
    ui.broadcast({ type: 'context', context: null });
    b.close();
    ui.broadcast({ type: 'profile', profile: null, settled: true });
    expect(a.posted).toHaveLength(2);
    expect(b.posted).toHaveLength(1);
    expect(ui.pageCount).toBe(1);
  });
});
