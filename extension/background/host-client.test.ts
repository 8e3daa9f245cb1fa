import { describe, expect, it, test } from 'vitest';
import { PROTOCOL_VERSION, type HostNotificationParams } from '../../protocol/methods';
import hostHello from '../../protocol/fixtures/host-hello.json';
import protocolMismatch from '../../protocol/fixtures/errors/protocol-mismatch.json';
import serversChanged from '../../protocol/fixtures/notifications-servers-changed.json';
import toolsCall from '../../protocol/fixtures/tools-call.json';
import { DEFAULT_BACKOFF } from './backoff';
import type { ConnectionState } from '../messaging/connection';
import { HostClient, type HostClientOptions } from './host-client';
import { ClientRequestError, HostRequestError } from './host-errors';
import { FakeClock } from './testing/fake-clock';
import { FakeNative } from './testing/fake-port';
import { flush } from '../testing/flush';

/*
 * The host client is the only way to the user's machine. Dangerous directions: a request that
 * hangs forever after the port dropped freezes the agent loop (and leaves a tool_use unpaired); a
 * late answer delivered to the wrong caller runs one tool's result as another's; a host error
 * that loses `data.reason` turns "needs your approval" into a generic failure.
 */

function setup(options: HostClientOptions = {}) {
  const native = new FakeNative();
  const clock = new FakeClock();
  const logs: string[] = [];
  const states: ConnectionState[] = [];
  const client = new HostClient({
    connect: native.connect,
    clock,
    client: { name: 'switchyard-extension', version: '0.1.0' },
    log: (level, message) => logs.push(`${level}: ${message}`),
    ...options,
  });
  client.onStateChange((state) => states.push(state));
  return { native, clock, client, logs, states };
}

async function connected(options: HostClientOptions = {}) {
  const setupResult = setup(options);
  setupResult.client.connect();
  setupResult.native.port.answerHello();
  await flush();
  expect(setupResult.client.state.state).toBe('connected');
  return setupResult;
}

describe('handshake', () => {
  it('sends host/hello first and holds other requests until it succeeds', async () => {
    const { native, client, states } = setup();
    client.connect();
    const list = client.request('servers/list', {});
    expect(native.port.requests().map((r) => r.method)).toEqual(['host/hello']);
    expect(native.port.lastRequest('host/hello').params).toEqual({
      protocolVersion: PROTOCOL_VERSION,
      client: { name: 'switchyard-extension', version: '0.1.0' },
    });

    native.port.answerHello({ configWarnings: ['config.json:1:1: bad entry'] });
    await flush();
    expect(native.port.requests().map((r) => r.method)).toEqual(['host/hello', 'servers/list']);
    native.port.respond(native.port.lastRequest('servers/list').id, { servers: [] });
    await expect(list).resolves.toEqual({ servers: [] });
    expect(states).toEqual([
      { state: 'connecting', attempt: 0 },
      {
        state: 'connected',
        hostVersion: '0.1.0',
        home: '/home/ada/.config/switchyard',
        configWarnings: ['config.json:1:1: bad entry'],
        runtime: null,
      },
    ]);
  });

  it('accepts the golden host/hello result', async () => {
    const { native, client } = setup();
    client.connect();
    native.port.respond(native.port.lastRequest('host/hello').id, hostHello.result);
    await flush();
    expect(client.state).toMatchObject({
      state: 'connected',
      home: hostHello.result.home,
      runtime: { node: '22.23.3', ended: false },
    });
  });

  it('delivers notifications that arrive before the hello answer', async () => {
    const { native, client } = setup();
    const seen: string[] = [];
    client.on('notifications/servers/changed', ({ server }) => seen.push(server.name));
    client.connect();
    native.port.deliver({
      jsonrpc: '2.0',
      method: 'notifications/servers/changed',
      params: serversChanged.params,
    });
    native.port.answerHello();
    await flush();
    expect(seen).toEqual([serversChanged.params.server.name]);
  });

  it('refuses requests at once when not connected', async () => {
    const { client } = setup();
    await expect(client.request('servers/list', {})).rejects.toMatchObject({
      kind: 'client',
      reason: 'not-connected',
    });
  });
});

describe('protocol mismatch', () => {
  it('stops on a protocol-mismatch hello error, closes the port and does not retry', async () => {
    const { native, client, clock } = setup();
    client.connect();
    const queued = client.request('servers/list', {});
    const assertion = expect(queued).rejects.toMatchObject({ reason: 'not-connected' });
    native.port.fail(native.port.lastRequest('host/hello').id, protocolMismatch.error);
    await flush();
    await assertion;
    expect(client.state).toEqual({
      state: 'protocol-mismatch',
      host: [1],
      extension: PROTOCOL_VERSION,
      message: protocolMismatch.error.message,
    });
    expect(native.port.disconnectedByExtension).toBe(true);
    expect(clock.pendingDelays()).toEqual([]);
  });

  it('stops when the host answers hello with another version', async () => {
    const { native, client } = setup();
    client.connect();
    native.port.answerHello({ protocolVersion: PROTOCOL_VERSION + 1 });
    await flush();
    expect(client.state).toMatchObject({
      state: 'protocol-mismatch',
      host: [PROTOCOL_VERSION + 1],
      extension: PROTOCOL_VERSION,
    });
  });
});

describe('not installed', () => {
  it('reports not-installed without retrying, and connect() tries again', async () => {
    const { native, client, clock } = setup();
    client.connect();
    native.port.drop('Specified native messaging host not found.');
    expect(client.state).toEqual({
      state: 'not-installed',
      message: 'Specified native messaging host not found.',
    });
    expect(clock.pendingDelays()).toEqual([]);

    client.connect();
    expect(native.ports).toHaveLength(2);
    native.port.answerHello();
    await flush();
    expect(client.state.state).toBe('connected');
  });
});

describe('reconnect backoff', () => {
  it('retries a crashing host after 1, 2, 4, 8, 16, 30, 30, 30 s, then gives up', () => {
    const { native, client, clock } = setup();
    client.connect();
    const delays: (number | null)[] = [];
    for (let i = 0; i < DEFAULT_BACKOFF.maxAttempts + 1; i += 1) {
      native.port.drop('Native host has exited.');
      const state = client.state;
      if (state.state !== 'crashed') throw new Error(`expected crashed, got ${state.state}`);
      delays.push(state.retryInMs);
      if (state.retryInMs !== null) {
        expect(clock.pendingDelays()).toEqual([state.retryInMs]);
        clock.advance(state.retryInMs);
        expect(client.state).toEqual({ state: 'connecting', attempt: i + 1 });
      }
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, null]);
    expect(clock.pendingDelays()).toEqual([]);
    expect(native.ports).toHaveLength(DEFAULT_BACKOFF.maxAttempts + 1);
  });

  it('starts the count over after a stable connection', async () => {
    const { native, client, clock } = await connected();
    native.port.drop();
    clock.advance(1000);
    native.port.answerHello();
    await flush();
    native.port.drop();
    expect(client.state).toMatchObject({ state: 'crashed', retryInMs: 2000 });
    clock.advance(2000);
    native.port.answerHello();
    await flush();
    clock.advance(DEFAULT_BACKOFF.stableMs);
    native.port.drop();
    expect(client.state).toMatchObject({ state: 'crashed', retryInMs: 1000 });
  });

  it('treats a hello that times out as a crash and closes that port', async () => {
    const { native, client, clock } = setup({ helloTimeoutMs: 500 });
    client.connect();
    const first = native.port;
    clock.advance(500);
    await flush();
    expect(client.state).toMatchObject({ state: 'crashed', retryInMs: 1000 });
    expect(first.disconnectedByExtension).toBe(true);
  });

  it('close() stops retrying and ends disconnected', async () => {
    const { native, client, clock } = await connected();
    native.port.drop();
    client.close();
    expect(client.state).toEqual({ state: 'disconnected' });
    expect(clock.pendingDelays()).toEqual([]);
  });
});

describe('requests', () => {
  it('correlates answers by id, whatever their order', async () => {
    const { native, client } = await connected();
    const a = client.request('servers/logs', { server: 'a' });
    const b = client.request('servers/logs', { server: 'b' });
    const [ra, rb] = native.port.requests().filter((r) => r.method === 'servers/logs');
    native.port.respond(rb!.id, { server: 'b', lines: ['B'], dropped: 0 });
    native.port.respond(ra!.id, { server: 'a', lines: ['A'], dropped: 0 });
    await expect(a).resolves.toMatchObject({ server: 'a', lines: ['A'] });
    await expect(b).resolves.toMatchObject({ server: 'b', lines: ['B'] });
  });

  it('rejects an answer that does not match the method table', async () => {
    const { native, client } = await connected();
    const list = client.request('servers/list', {});
    native.port.respond(native.port.lastRequest('servers/list').id, { servers: 'nope' });
    await expect(list).rejects.toMatchObject({ kind: 'client', reason: 'invalid-response' });
  });

  it('times out, tells the host to cancel, and ignores the late answer', async () => {
    const { native, client, clock, logs } = await connected({ timeouts: { 'servers/list': 100 } });
    const list = client.request('servers/list', {});
    const assertion = expect(list).rejects.toMatchObject({ kind: 'client', reason: 'timeout' });
    const id = native.port.lastRequest('servers/list').id;
    clock.advance(100);
    await assertion;
    expect(native.port.notifications()).toEqual([
      {
        method: 'notifications/cancelled',
        params: { requestId: id, reason: 'The extension stopped waiting (timeout).' },
      },
    ]);
    native.port.respond(id, { servers: [] });
    expect(logs.some((line) => line.startsWith('debug: ignored an answer'))).toBe(true);
  });

  it('restarts a tools/call deadline on progress and reports it', async () => {
    const { native, client, clock } = await connected({ timeouts: { 'tools/call': 1000 } });
    const progress: HostNotificationParams<'notifications/progress'>[] = [];
    const call = client.request(
      'tools/call',
      { name: 'everything__longRunningOperation' },
      { onProgress: (p) => progress.push(p) },
    );
    const id = native.port.lastRequest('tools/call').id;
    clock.advance(900);
    native.port.deliver({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { requestId: id, progress: 1, total: 2 },
    });
    clock.advance(900);
    native.port.respond(id, toolsCall.result);
    await expect(call).resolves.toEqual(toolsCall.result);
    expect(progress).toEqual([{ requestId: id, progress: 1, total: 2 }]);
  });

  it('cancel(id) rejects at once and sends notifications/cancelled', async () => {
    const { native, client } = await connected();
    const pending = client.start('tools/call', { name: 'everything__echo' });
    const assertion = expect(pending.result).rejects.toMatchObject({ reason: 'cancelled' });
    expect(client.cancel(pending.id, 'The user pressed Stop.')).toBe(true);
    await assertion;
    expect(native.port.notifications()).toEqual([
      {
        method: 'notifications/cancelled',
        params: { requestId: pending.id, reason: 'The user pressed Stop.' },
      },
    ]);
    expect(client.cancel(pending.id)).toBe(false);
  });

  it('an aborted signal cancels the request', async () => {
    const { native, client } = await connected();
    const controller = new AbortController();
    const call = client.request('tools/call', { name: 'x' }, { signal: controller.signal });
    const assertion = expect(call).rejects.toMatchObject({ reason: 'cancelled' });
    controller.abort();
    await assertion;
    expect(native.port.notifications().map((n) => n.method)).toEqual(['notifications/cancelled']);
  });

  test.each([
    ['the host exits', 'Native host has exited.'],
    ['a frame is refused', 'Error when communicating with the native messaging host.'],
  ])('rejects every pending request when %s', async (_, lastError) => {
    const { native, client } = await connected();
    const calls = [
      client.request('tools/call', { name: 'files__read_text_file' }),
      client.request('servers/list', {}),
      client.request('tools/list', {}),
    ];
    const assertions = calls.map((call) =>
      expect(call).rejects.toMatchObject({
        kind: 'client',
        reason: 'disconnected',
        message: expect.stringContaining(lastError) as unknown,
      }),
    );
    native.port.drop(lastError);
    await Promise.all(assertions);
    expect(client.state).toMatchObject({ state: 'crashed', message: lastError });
  });

  it('fails requests queued behind a hello that never completes with not-connected', async () => {
    const { native, client } = setup();
    client.connect();
    const queued = client.request('servers/list', {});
    const assertion = expect(queued).rejects.toMatchObject({ reason: 'not-connected' });
    native.port.drop();
    await assertion;
  });
});

describe('host errors keep data.reason', () => {
  const fixtures = import.meta.glob<{
    error: { code: number; message: string; data: Record<string, unknown> & { reason: string } };
  }>('../../protocol/fixtures/errors/*.json', { eager: true, import: 'default' });
  const rows = Object.entries(fixtures).map(([path, fixture]) => [path, fixture] as const);

  it('has fixtures to check', () => {
    expect(rows.length).toBeGreaterThan(10);
  });

  test.each(rows)('%s', async (_, fixture) => {
    const { native, client } = await connected();
    const call = client.request('tools/call', { name: 'everything__echo' });
    native.port.fail(native.port.lastRequest('tools/call').id, fixture.error);
    const error: unknown = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostRequestError);
    expect(error).toMatchObject({
      reason: fixture.error.data.reason,
      code: fixture.error.code,
      data: fixture.error.data,
    });
  });

  it('falls back to the JSON-RPC code when data.reason is missing', async () => {
    const { native, client } = await connected();
    const call = client.request('servers/list', {});
    native.port.fail(native.port.lastRequest('servers/list').id, {
      code: -32601,
      message: 'Method not found',
    });
    await expect(call).rejects.toMatchObject({ kind: 'host', reason: 'unknown-method' });
  });
});

describe('notifications', () => {
  const valid = { jsonrpc: '2.0', method: 'notifications/tools/changed', params: { server: 'a' } };

  test.each([
    ['valid', valid, ['a'], null],
    [
      'params of the wrong type',
      { ...valid, params: { server: 42 } },
      [],
      'warn: dropped an invalid notifications/tools/changed from the host (at server)',
    ],
    [
      'an unknown method',
      { jsonrpc: '2.0', method: 'notifications/evil', params: {} },
      [],
      'warn: dropped an unknown notification from the host (notifications/evil)',
    ],
    [
      'not JSON-RPC',
      { jsonrpc: '1.0', method: 'notifications/tools/changed' },
      [],
      'warn: dropped a message from the host that is not JSON-RPC 2.0',
    ],
    [
      'a request from the host',
      { ...valid, id: 3 },
      [],
      'warn: dropped a request from the host (notifications/tools/changed): hosts send none',
    ],
  ])('%s', async (_, message, expected, log) => {
    const { native, client, logs } = await connected();
    const seen: string[] = [];
    client.on('notifications/tools/changed', ({ server }) => seen.push(server));
    native.port.deliver(message);
    expect(seen).toEqual(expected);
    if (log !== null) expect(logs).toContain(log);
  });

  it('unsubscribes, and survives a throwing handler', async () => {
    const { native, client, logs } = await connected();
    const seen: string[] = [];
    const off = client.on('notifications/tools/changed', () => {
      throw new Error('boom');
    });
    client.on('notifications/tools/changed', ({ server }) => seen.push(server));
    native.port.deliver(valid);
    off();
    native.port.deliver(valid);
    expect(seen).toEqual(['a', 'a']);
    expect(logs.filter((l) => l.includes('handler threw'))).toHaveLength(1);
  });
});

describe('errors are typed', () => {
  it('ClientRequestError and HostRequestError are told apart by kind', () => {
    const client = new ClientRequestError('servers/list', 'timeout', 'late');
    const host = new HostRequestError('servers/list', 'internal', -32000, 'oops', {
      reason: 'internal',
    });
    expect([client.kind, host.kind]).toEqual(['client', 'host']);
  });
});
