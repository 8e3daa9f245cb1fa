import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startListening, stopListening, type ListeningProcess } from '../support/listening-process';
import { EVERYTHING_SERVER, HostHarness, ROOT, unwrap } from './host-harness';

// Remote servers through the bundled host (issue 11): server-everything in its Streamable HTTP
// and SSE modes (bound to 127.0.0.1 by a preload: it listens on every interface otherwise), a
// 2026-07-28 server on the v2 SDK over HTTP, and a server that answers every request with an
// error. The dangerous directions: a header (a token) sent where it should not go or written to
// a log; a remote server that fails taking the host down; a lost server never coming back.

const LOOPBACK_ONLY = join(ROOT, 'test/fixtures/loopback-only.mjs');
const REMOTE_MODERN = join(ROOT, 'test/fixtures/remote-modern-server.mjs');

const everything = (mode: 'streamableHttp' | 'sse', port = 0) =>
  startListening(['--import', LOOPBACK_ONLY, EVERYTHING_SERVER, mode], { PORT: String(port) });

type Status = { state: string } & Record<string, unknown>;

describe('remote servers', () => {
  let http: ListeningProcess;
  let sse: ListeningProcess;
  let modern: ListeningProcess;
  let broken: ListeningProcess;
  let host: HostHarness;

  beforeAll(async () => {
    // The host inherits the test's environment: the header's ${VAR} is expanded from it.
    process.env['REMOTE_TEST_TOKEN'] = 'remote-test-token-value';
    [http, sse, modern, broken] = await Promise.all([
      everything('streamableHttp'),
      everything('sse'),
      startListening([REMOTE_MODERN, '--record']),
      startListening([REMOTE_MODERN, '--status=500']),
    ]);
    host = await HostHarness.start(
      {
        http: { type: 'http', url: `http://127.0.0.1:${http.port}/mcp` },
        sse: { type: 'sse', url: `http://127.0.0.1:${sse.port}/sse` },
        // Only a URL: Streamable HTTP first, then the fallback to HTTP+SSE the server needs.
        guessed: { url: `http://127.0.0.1:${sse.port}/sse` },
        modern: {
          type: 'http',
          url: `http://127.0.0.1:${modern.port}/mcp`,
          headers: { Authorization: 'Bearer ${REMOTE_TEST_TOKEN}', 'X-Team': 'blue' },
        },
        broken: { type: 'http', url: `http://127.0.0.1:${broken.port}/mcp`, timeout: 5 },
      },
      {},
      {},
    );
  }, 60_000);

  afterAll(async () => {
    await host.close();
    await Promise.all([http, sse, modern, broken].map(stopListening));
  });

  const status = async (name: string): Promise<Status | undefined> => {
    const { servers } = await host.call<{ servers: Array<{ name: string; status: Status }> }>(
      'servers/list',
    );
    return servers.find((s) => s.name === name)?.status;
  };

  it('runs remote servers beside each other, with the revision each negotiated', async () => {
    const servers = await host.settled();
    const byName = new Map(servers.map((s) => [s.name, s.status]));
    for (const name of ['http', 'sse', 'guessed']) {
      expect(byName.get(name)).toMatchObject({ state: 'running', protocolVersion: '2025-11-25' });
    }
    expect(byName.get('modern')).toMatchObject({
      state: 'running',
      protocolVersion: '2026-07-28',
      serverInfo: { name: 'remote-modern-fixture' },
    });
  });

  it('lists their tools namespaced and relays calls over each transport', async () => {
    const { tools } = await host.call<{ tools: Array<{ name: string }> }>('tools/list');
    const names = tools.map((t) => t.name);
    for (const name of ['http__echo', 'sse__echo', 'guessed__echo', 'modern__echo']) {
      expect(names).toContain(name);
    }
    for (const name of ['http__echo', 'sse__echo', 'guessed__echo', 'modern__echo']) {
      const result = await host.call<{ content: Array<{ text: string }> }>('tools/call', {
        name,
        arguments: { message: `via ${name}` },
      });
      expect(unwrap(result.content[0]?.text ?? '')).toContain(`via ${name}`);
    }
  });

  it('sends the configured headers, expanded, to the server and shows only their names', async () => {
    const seen = (await (await fetch(`http://127.0.0.1:${modern.port}/seen`)).json()) as Record<
      string,
      string
    >;
    expect(seen['authorization']).toBe('Bearer remote-test-token-value');
    expect(seen['x-team']).toBe('blue');
    const { servers } = await host.call<{
      servers: Array<{ name: string; remote: unknown; command: string }>;
    }>('servers/list');
    const summary = servers.find((s) => s.name === 'modern');
    expect(summary?.remote).toEqual({
      url: `http://127.0.0.1:${modern.port}/mcp`,
      transport: 'streamable-http',
      headerNames: ['Authorization', 'X-Team'],
    });
    expect(JSON.stringify(servers)).not.toContain('remote-test-token-value');
  });

  it('cancels a call to a 2026-07-28 server by closing its request, as that revision says', async () => {
    // What the server received and did, in order (the fixture's record), from here on.
    const events = async (): Promise<string[]> =>
      (await (await fetch(`http://127.0.0.1:${modern.port}/events`)).json()) as string[];
    const before = (await events()).length;
    const pending = host.request(
      'tools/call',
      { name: 'modern__slow', arguments: {} },
      'remote-cancel',
    );
    // The tool is running at the server before the user stops it.
    await vi.waitFor(
      async () => {
        expect((await events()).slice(before)).toContain('slow started');
      },
      { timeout: 10_000 },
    );
    const cancelledAt = (await events()).length;
    host.notify('notifications/cancelled', { requestId: 'remote-cancel', reason: 'stop' });
    const reply = await pending;
    expect(reply.error?.data?.reason).toBe('cancelled');
    // The server's handler saw the cancel, and it came as the closed request: no
    // notifications/cancelled was POSTed, which is how a 2025-era client cancels.
    await vi.waitFor(
      async () => {
        expect((await events()).slice(cancelledAt)).toContain('slow aborted');
      },
      { timeout: 10_000 },
    );
    // Only that request was closed: the connection is the same one, and it still serves.
    const echo = await host.call<{ content: Array<{ text: string }> }>('tools/call', {
      name: 'modern__echo',
      arguments: { message: 'after the cancel' },
    });
    expect(unwrap(echo.content[0]?.text ?? '')).toContain('after the cancel');
    const after = (await events()).slice(cancelledAt);
    expect(after).not.toContain('notifications/cancelled');
    expect(after).not.toContain('server/discover');
    expect(after).not.toContain('initialize');
    expect(await status('modern')).toMatchObject({ state: 'running' });
  });

  it('fails a server that answers with errors, saying what it answered, redacted; the others run on', async () => {
    const failed = await status('broken');
    expect(failed).toMatchObject({ state: 'failed', reason: 'handshake-failed' });
    const message = String(failed?.['message']);
    expect(message).toContain(`could not connect to http://127.0.0.1:${broken.port}`);
    expect(message).toContain('HTTP 500');
    expect(message).toContain('upstream broke');
    expect(message).not.toContain('ghp_0123456789abcdefghijABCDEFGHIJ012345');
    const logs = await host.call<{ lines: string[] }>('servers/logs', { server: 'broken' });
    expect(logs.lines.join('\n')).toMatch(/POST \/mcp: HTTP 500/);
    expect(logs.lines.join('\n')).not.toContain('ghp_0123456789abcdefghijABCDEFGHIJ012345');
    expect(await status('http')).toMatchObject({ state: 'running' });
  });

  it('notices a lost server, restarts it with backoff, and runs again once it is back', async () => {
    const port = http.port;
    await stopListening(http);
    // The next request finds the server gone: the call fails as a lost connection, not a crash.
    // When the host has already noticed the loss (its stream closed first), the server's tools
    // are withdrawn and the call meets a server that is not running: which one wins is a race.
    const call = await host.request('tools/call', {
      name: 'http__echo',
      arguments: { message: 'x' },
    });
    expect(call.error?.data?.reason).toMatch(/server-exited|server-unavailable/);
    const crashed = await host.until(
      () =>
        host.notifications.find((n) => JSON.stringify(n.params).includes('lost its connection')),
      'a log of the lost connection',
    );
    expect(JSON.stringify(crashed.params)).toContain(`127.0.0.1:${port}`);
    http = await everything('streamableHttp', port);
    for (;;) {
      const now = await status('http');
      if (now?.state === 'running') break;
      expect(now?.state).toMatch(/crashed|starting/);
      await new Promise((r) => setTimeout(r, 200));
    }
    const result = await host.call<{ content: Array<{ text: string }> }>('tools/call', {
      name: 'http__echo',
      arguments: { message: 'back' },
    });
    expect(unwrap(result.content[0]?.text ?? '')).toContain('back');
  }, 60_000);
});
