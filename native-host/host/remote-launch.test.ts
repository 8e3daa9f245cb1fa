import type { FetchLike, JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it, test } from 'vitest';
import { LaunchError } from '../mcp/runtime-types';
import type { RemoteEndpoint } from '../shared/server-spec';
import { observedFetch, type FetchObserver } from './observed-fetch';
import { connectRemote } from './remote-launch';

// Dangerous direction: a configured token sent to an origin other than the server's, a secret
// (a header value, a query string, a token the server echoes) reaching a log line, or a lost
// server not noticed. A cancelled call reported as an outage only costs a needless restart.

/** One request the fake fetch received, as the network would see it. */
interface Sent {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: string | undefined;
  readonly signal: AbortSignal | undefined;
}

type Answer = (request: Sent) => Response | Promise<Response>;

/** A FetchLike that records every request and answers with `answer`. */
function fakeFetch(answer: Answer): { fetch: FetchLike; sent: Sent[] } {
  const sent: Sent[] = [];
  const fetch: FetchLike = async (input, init) => {
    const request: Sent = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? init.body : undefined,
      signal: init?.signal ?? undefined,
    };
    sent.push(request);
    return answer(request);
  };
  return { fetch, sent };
}

const INITIALIZE: JSONRPCMessage = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'switchyard-test', version: '0' },
  },
};

function initialized(): Response {
  const result = {
    jsonrpc: '2.0',
    id: 1,
    result: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      serverInfo: { name: 'remote', version: '1' },
    },
  };
  return Response.json(result, { headers: { 'mcp-session-id': 'session-1' } });
}

const SERVER = 'https://mcp.example.com/mcp';

function endpoint(over: Partial<RemoteEndpoint> = {}): RemoteEndpoint {
  return { transport: 'streamable-http', url: SERVER, headers: {}, ...over };
}

/** connectRemote with a fake fetch, collecting the log lines it writes. */
function connect(
  answer: Answer,
  over: Partial<RemoteEndpoint> = {},
  values: Record<string, string> = {},
) {
  const { fetch, sent } = fakeFetch(answer);
  const lines: string[] = [];
  const server = connectRemote('remote', endpoint(over), {
    lookup: (variable) => values[variable],
    platform: 'linux',
    fetch,
    onLogLine: (_name, line) => lines.push(line),
  });
  return { server, sent, lines };
}

/** Resolves on the next turn of the event loop: after everything already queued has run. */
function settled(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

const GITHUB_TOKEN = `ghp_${'A1b2C3d4E5'.repeat(3)}f6G7h8`;

describe('connectRemote', () => {
  it('sends the configured headers, expanded, with the transport its own', async () => {
    const { server, sent } = connect(
      () => initialized(),
      { headers: { Authorization: 'Bearer ${API_TOKEN}', 'X-Tenant': 'acme' } },
      { API_TOKEN: 'tok-123' },
    );
    await server.transport.start();
    await server.transport.send(INITIALIZE);
    expect(sent).toHaveLength(1);
    const [request] = sent;
    expect(request?.url).toBe(SERVER);
    expect(request?.method).toBe('POST');
    expect(request?.headers.get('authorization')).toBe('Bearer tok-123');
    expect(request?.headers.get('x-tenant')).toBe('acme');
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(request?.headers.get('accept')).toContain('text/event-stream');
    expect(server.remote).toMatchObject({ url: SERVER, origin: 'https://mcp.example.com' });
    expect(server.remote?.transport()).toBe('streamable-http');
    expect(server.pid).toBeUndefined();
    await server.transport.close();
  });

  it('throws a LaunchError naming the header and the variable, never a value', () => {
    const attempt = () =>
      connect(() => initialized(), {
        headers: { 'X-Static': 'static-secret', Authorization: 'Bearer ${API_TOKEN}' },
      });
    expect(attempt).toThrow(LaunchError);
    expect(attempt).toThrow(/header Authorization uses \$\{API_TOKEN\}, which is not set/);
    let message = '';
    try {
      attempt();
    } catch (error) {
      message = error instanceof Error ? error.message : '';
    }
    expect(message).not.toContain('static-secret');
    expect(message).not.toContain('Bearer');
  });

  test.each<[string, string, RegExp]>([
    ['a line break', 'tok\r\nX-Injected: 1', /line breaks or control characters/],
    ['a character fetch refuses', 'tok\u20ac', /Latin-1/],
  ])('refuses a variable whose value holds %s, without quoting it', (_label, value, problem) => {
    const attempt = () =>
      connect(
        () => initialized(),
        { headers: { Authorization: 'Bearer ${API_TOKEN}' } },
        { API_TOKEN: value },
      );
    expect(attempt).toThrow(LaunchError);
    expect(attempt).toThrow(problem);
    expect(attempt).toThrow(/'remote': header Authorization:/);
    try {
      attempt();
    } catch (error) {
      expect(error instanceof Error ? error.message : '').not.toContain('tok');
    }
  });

  it('logs a failed exchange with the body redacted and capped, and no query string', async () => {
    const body = `{"error": "bad credentials ${GITHUB_TOKEN}",\n  "detail": "${'x'.repeat(2_000)}"}`;
    const { server, lines } = connect(
      () => new Response(body, { status: 500, statusText: 'Internal Server Error' }),
      { url: `${SERVER}?api_key=query-secret&tenant=acme` },
    );
    await server.transport.start();
    await expect(server.transport.send(INITIALIZE)).rejects.toThrow();
    expect(lines).toHaveLength(1);
    const [line = ''] = lines;
    expect(line).toMatch(/^POST \/mcp: HTTP 500 Internal Server Error: \{"error": "bad/);
    expect(line).toContain('[REDACTED:github]');
    expect(line).not.toContain(GITHUB_TOKEN);
    expect(line).not.toContain('query-secret');
    expect(line).not.toContain('tenant=acme');
    expect(line).not.toContain('\n');
    expect(line).toContain('…[truncated: showing');
    expect(line.length).toBeLessThan(700);
    expect(server.stderrTail(5)).toEqual([line]);
    expect(server.remote?.lastProblem()).toBeUndefined();
    await server.transport.close();
  });

  it('does not leak part of a token that the cap would cut in half', async () => {
    // The token starts just before the 500-character cap: the kept part is a token prefix that
    // the redactor would no longer recognise if the cap ran first.
    const body = `${'a'.repeat(480)} ${GITHUB_TOKEN} trailing`;
    const { server, lines } = connect(() => new Response(body, { status: 500 }));
    await server.transport.start();
    await expect(server.transport.send(INITIALIZE)).rejects.toThrow();
    const [line = ''] = lines;
    expect(line).not.toContain(GITHUB_TOKEN.slice(0, 12));
    expect(line).toContain('truncated');
    await server.transport.close();
  });

  it('reports a refused connection and closes the transport', async () => {
    const { server, lines } = connect(() => {
      throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    });
    const closed = new Promise<void>((resolve) => {
      server.transport.onclose = resolve;
    });
    await server.transport.start();
    await expect(server.transport.send(INITIALIZE)).rejects.toThrow(TypeError);
    await closed;
    expect(server.remote?.lastProblem()).toBe('connection refused (ECONNREFUSED)');
    expect(lines).toEqual(['POST /mcp: connection refused (ECONNREFUSED)']);
  });

  it('does not report a cancelled request as a lost server', async () => {
    const controller = new AbortController();
    controller.abort();
    const { server, lines } = connect((request) => {
      expect(request.signal?.aborted).toBe(true);
      throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
    });
    let closes = 0;
    server.transport.onclose = () => {
      closes += 1;
    };
    await server.transport.start();
    await expect(
      server.transport.send(INITIALIZE, { requestSignal: controller.signal }),
    ).rejects.toThrow();
    await settled();
    expect(server.remote?.lastProblem()).toBeUndefined();
    expect(lines).toEqual([]);
    expect(closes).toBe(0);
    await server.transport.close();
  });

  test.each<[number, 'sse' | 'streamable-http']>([
    [400, 'sse'],
    [404, 'sse'],
    [405, 'sse'],
    [500, 'streamable-http'],
    [401, 'streamable-http'],
  ])('auto after a %i to initialize uses %s', async (status, settledOn) => {
    const { server, sent, lines } = connect(
      (request) => {
        if (request.method === 'POST' && request.url === SERVER) {
          return new Response('no', { status });
        }
        if (request.method === 'GET') {
          return new Response('event: endpoint\ndata: /messages?session=7\n\n', {
            headers: { 'content-type': 'text/event-stream' },
          });
        }
        return new Response(null, { status: 202 });
      },
      { transport: 'auto', headers: { 'X-Tenant': 'acme' } },
    );
    await server.transport.start();
    const sending = server.transport.send(INITIALIZE);
    if (settledOn === 'streamable-http') {
      await expect(sending).rejects.toThrow();
    } else {
      await sending;
      expect(lines).toContain(
        'the server refused Streamable HTTP; trying the legacy HTTP+SSE transport at the same URL',
      );
      const followUps = sent.slice(1).map((request) => `${request.method} ${request.url}`);
      expect(followUps).toEqual([
        `GET ${SERVER}`,
        'POST https://mcp.example.com/messages?session=7',
      ]);
      // The configured headers go on every request of the legacy transport too.
      for (const request of sent) expect(request.headers.get('x-tenant')).toBe('acme');
    }
    expect(server.remote?.transport()).toBe(settledOn);
    // What the SDK reads before each request to cancel the 2026-07-28 way (closing that request's
    // stream): only Streamable HTTP has a stream per request.
    expect(server.transport.hasPerRequestStream === true).toBe(settledOn === 'streamable-http');
    await server.transport.close();
  });
});

describe('observedFetch', () => {
  function observe(headers: Record<string, string>) {
    const { fetch, sent } = fakeFetch(() => new Response('{}'));
    const lines: string[] = [];
    const problems: string[] = [];
    const observer: FetchObserver = {
      write: (line) => lines.push(line),
      onNetworkFailure: (problem) => problems.push(problem),
    };
    return {
      fetch: observedFetch(fetch, new URL(SERVER), headers, observer),
      sent,
      lines,
      problems,
    };
  }

  const configured = { Authorization: 'Bearer configured', 'X-Tenant': 'acme' };

  // A token for the MCP server must never reach an authorization server, a redirect target or a
  // lookalike host.
  test.each<[string, boolean]>([
    [SERVER, true],
    ['https://mcp.example.com/other/path?x=1', true],
    ['https://mcp.example.com:443/mcp', true],
    ['https://auth.example.com/token', false],
    ['https://example.com/mcp', false],
    ['https://mcp.example.com:8443/mcp', false],
    ['http://mcp.example.com/mcp', false],
    ['https://mcp.example.com.evil.com/mcp', false],
  ])('%s gets the configured headers: %s', async (url, gets) => {
    const { fetch, sent } = observe(configured);
    await fetch(url, { method: 'GET' });
    const headers = sent[0]?.headers;
    expect(headers?.get('authorization')).toBe(gets ? 'Bearer configured' : null);
    expect(headers?.get('x-tenant')).toBe(gets ? 'acme' : null);
  });

  it("keeps the transport's own headers over configured ones of the same name", async () => {
    const { fetch, sent } = observe(configured);
    await fetch(new URL(SERVER), {
      method: 'POST',
      headers: { authorization: 'Bearer from-provider', 'mcp-session-id': 's1' },
    });
    const headers = sent[0]?.headers;
    expect(headers?.get('authorization')).toBe('Bearer from-provider');
    expect(headers?.get('x-tenant')).toBe('acme');
    expect(headers?.get('mcp-session-id')).toBe('s1');
  });

  it('passes a request to another origin through untouched', async () => {
    const { fetch, sent } = observe(configured);
    const init: RequestInit = { method: 'POST', headers: { accept: 'application/json' } };
    await fetch('https://auth.example.com/token', init);
    expect([...(sent[0]?.headers.keys() ?? [])]).toEqual(['accept']);
  });

  it('does not report a failure to reach another origin as a lost server', async () => {
    const { fetch: base } = fakeFetch(() => {
      throw new TypeError('fetch failed', { cause: { code: 'ENOTFOUND' } });
    });
    const lines: string[] = [];
    const problems: string[] = [];
    const fetch = observedFetch(
      base,
      new URL(SERVER),
      {},
      {
        write: (line) => lines.push(line),
        onNetworkFailure: (problem) => problems.push(problem),
      },
    );
    await expect(fetch('https://auth.example.com/token?code=secret')).rejects.toThrow(TypeError);
    expect(lines).toEqual(['GET /token: host not found (ENOTFOUND)']);
    expect(problems).toEqual([]);
  });

  test.each<[string, unknown, string]>([
    ['ECONNRESET', { code: 'ECONNRESET' }, 'connection reset (ECONNRESET)'],
    ['ETIMEDOUT', { code: 'ETIMEDOUT' }, 'connection timed out (ETIMEDOUT)'],
    [
      'an expired certificate',
      { code: 'CERT_HAS_EXPIRED' },
      'the server certificate has expired (CERT_HAS_EXPIRED)',
    ],
    ['an unknown code', { code: 'EWHATEVER' }, 'could not connect (EWHATEVER)'],
    ['a cause without a code', new Error('socket hang up'), 'could not connect: socket hang up'],
  ])('names %s', async (_label, cause, problem) => {
    const { fetch: base } = fakeFetch(() => {
      throw new TypeError('fetch failed', { cause });
    });
    const problems: string[] = [];
    const fetch = observedFetch(
      base,
      new URL(SERVER),
      {},
      {
        write: () => undefined,
        onNetworkFailure: (text) => problems.push(text),
      },
    );
    await expect(fetch(SERVER)).rejects.toThrow(TypeError);
    expect(problems).toEqual([problem]);
  });

  it('logs a failed exchange without consuming the body the transport reads', async () => {
    const { fetch: base } = fakeFetch(
      () => new Response('  server\n  says   no ', { status: 404 }),
    );
    const lines: string[] = [];
    const fetch = observedFetch(
      base,
      new URL(SERVER),
      {},
      {
        write: (line) => lines.push(line),
        onNetworkFailure: () => undefined,
      },
    );
    const response = await fetch(`${SERVER}?token=abc`, { method: 'DELETE' });
    expect(await response.text()).toBe('  server\n  says   no ');
    expect(lines).toEqual(['DELETE /mcp: HTTP 404: server says no']);
  });

  it('logs nothing for a success', async () => {
    const { fetch, lines } = observe(configured);
    await fetch(SERVER);
    expect(lines).toEqual([]);
  });
});
