import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../protocol/methods';
import { CANCEL_REASON, Dispatcher, type Handlers } from './dispatcher';
import { FrameTooLargeError } from '../transport/frame-codec';
import { HostError } from '../shared/host-error';
import { FileLockTimeoutError } from '../shared/file-lock';

const emptyListing = { tools: [], tokens: { total: 0, byServer: {} } };

function handlers(overrides: Partial<Handlers> = {}): Handlers {
  const base: Handlers = {
    'host/hello': () =>
      Promise.resolve({
        protocolVersion: PROTOCOL_VERSION,
        host: { name: 'switchyard', version: 'test' },
        home: '/tmp',
        configWarnings: [],
      }),
    'servers/list': () => Promise.resolve({ servers: [] }),
    'servers/start': ({ server }) => Promise.reject(new HostError('unknown-server', server)),
    'servers/stop': ({ server }) => Promise.reject(new HostError('unknown-server', server)),
    'servers/restart': ({ server }) => Promise.reject(new HostError('unknown-server', server)),
    'servers/add': ({ name }) => Promise.reject(new HostError('already-exists', name)),
    'servers/remove': () => Promise.resolve({ removed: true }),
    'servers/setApps': ({ server }) => Promise.reject(new HostError('unknown-server', server)),
    'servers/update': ({ server }) => Promise.reject(new HostError('unknown-server', server)),
    'servers/logs': ({ server }) => Promise.resolve({ server, lines: [], dropped: 0 }),
    'tools/list': () => Promise.resolve(emptyListing),
    'tools/call': () => Promise.resolve({ content: [{ type: 'text', text: 'ok' }] }),
    'approvals/deny': () => Promise.resolve({ denied: false }),
    'policy/set': () => Promise.resolve({ rules: {}, effective: null }),
    'policy/setMany': () => Promise.resolve({ rules: {}, effective: {} }),
    'trust/pending': () => Promise.resolve({ requests: [] }),
    'trust/approve': ({ server }) => Promise.reject(new HostError('not-pending', server)),
    'trust/revoke': () => Promise.resolve({ servers: [] }),
    'trust/forget': () => Promise.resolve({ launch: false, pins: 0, server: null }),
    'trust/list': () => Promise.resolve({ approvals: [], unapprovedPins: [] }),
    'profiles/list': () =>
      Promise.resolve({
        profiles: [],
        defaultProfile: { id: 'default', name: 'Default', match: [], mode: 'full' },
      }),
    'profiles/set': ({ profile }) => Promise.resolve({ profile, warnings: [] }),
    'profiles/remove': () => Promise.resolve({ removed: false }),
    'profiles/resolve': () =>
      Promise.resolve({
        profile: { id: 'default', name: 'Default', match: [], mode: 'full' },
        matchedPattern: null,
      }),
    'import/preview': () => Promise.resolve({ configFile: '/tmp/config.json', sources: [] }),
    'import/apply': () => Promise.resolve({ written: [], unchanged: [], servers: [] }),
    'activity/list': () => Promise.resolve({ entries: [], nextCursor: null, skipped: 0 }),
    'auth/begin': ({ server }) => Promise.reject(new HostError('unknown-server', server)),
    'auth/complete': () =>
      Promise.reject(new HostError('sign-in-failed', 'no flow', { kind: 'invalid-callback' })),
    'auth/status': () => Promise.resolve({ status: null }),
    'auth/signOut': () => Promise.resolve({ revocation: 'nothing', deleted: 0 }),
    'resources/list': () => Promise.resolve({ resources: [], problems: [] }),
    'resources/templates/list': () => Promise.resolve({ resourceTemplates: [], problems: [] }),
    'resources/templates/expand': () => Promise.resolve({ uri: 'x://1' }),
    'resources/read': ({ server }) => Promise.resolve({ server, contents: [] }),
    'apps/read': () => Promise.reject(new Error('not used')),
    'resources/subscribe': () => Promise.resolve({ subscribed: false }),
    'resources/unsubscribe': () => Promise.resolve({ unsubscribed: false }),
    'prompts/list': () => Promise.resolve({ prompts: [], problems: [] }),
    'prompts/get': ({ server }) => Promise.resolve({ server, messages: [] }),
    'completion/complete': () => Promise.resolve({ values: [] }),
    'elicitation/pending': () => Promise.resolve({ requests: [] }),
    'elicitation/respond': () => Promise.resolve({ settled: true }),
  };
  return { ...base, ...overrides };
}

function setup(overrides: Partial<Handlers> = {}, send?: (m: unknown) => Promise<void>) {
  const sent: unknown[] = [];
  const logs: string[] = [];
  const dispatcher = new Dispatcher({
    handlers: handlers(overrides),
    send:
      send ??
      ((message) => {
        sent.push(message);
        return Promise.resolve();
      }),
    log: (level, message) => logs.push(`${level}: ${message}`),
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  const hello = async () => {
    dispatcher.handle({
      jsonrpc: '2.0',
      id: 0,
      method: 'host/hello',
      params: { protocolVersion: PROTOCOL_VERSION, client: { name: 't', version: '1' } },
    });
    await settle();
    sent.length = 0;
  };
  return { dispatcher, sent, logs, settle, hello };
}

function errorOf(message: unknown): { code: number; data: { reason: string } } {
  const m = message as { error: { code: number; data: { reason: string } } };
  return m.error;
}

describe('Dispatcher', () => {
  it('refuses any request before host/hello', async () => {
    const { dispatcher, sent, settle } = setup();
    dispatcher.handle({ jsonrpc: '2.0', id: 1, method: 'servers/list' });
    await settle();
    expect(errorOf(sent[0]).data.reason).toBe('protocol-mismatch');
  });

  it('answers requests at once when the first stage already answered the hello', async () => {
    const sent: unknown[] = [];
    const dispatcher = new Dispatcher({
      handlers: handlers(),
      send: (message) => {
        sent.push(message);
        return Promise.resolve();
      },
      log: () => undefined,
      helloAnswered: true,
    });
    dispatcher.handle({ jsonrpc: '2.0', id: 'a', method: 'servers/list' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 'a', result: { servers: [] } }]);
  });

  it('answers a valid request after hello', async () => {
    const { dispatcher, sent, settle, hello } = setup();
    await hello();
    dispatcher.handle({ jsonrpc: '2.0', id: 'a', method: 'servers/list' });
    await settle();
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 'a', result: { servers: [] } }]);
  });

  it.each([
    ['not an object', 42, -32600],
    ['an array', [1, 2], -32600],
    ['wrong version', { jsonrpc: '1.0', id: 1, method: 'servers/list' }, -32600],
    ['unknown method', { jsonrpc: '2.0', id: 1, method: 'servers/explode' }, -32601],
    ['bad params', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 7 } }, -32602],
    ['params not an object', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: 'x' }, -32602],
  ])('answers %s with a JSON-RPC error and keeps going', async (_label, message, code) => {
    const { dispatcher, sent, settle, hello } = setup();
    await hello();
    dispatcher.handle(message);
    await settle();
    expect(errorOf(sent[0]).code).toBe(code);
    dispatcher.handle({ jsonrpc: '2.0', id: 99, method: 'servers/list' });
    await settle();
    expect(sent[1]).toEqual({ jsonrpc: '2.0', id: 99, result: { servers: [] } });
  });

  // Found by the frame fuzz (issue 13): arguments nested past JSON.stringify's stack reached the
  // call pipeline, whose hashing threw ('internal'), or the server transport (blamed on the
  // server). They are refused as params now, before any handler runs.
  it.each([
    ['an array', (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`],
    ['an object', (depth: number) => `${'{"a":'.repeat(depth)}0${'}'.repeat(depth)}`],
  ])('refuses tools/call arguments nested deeper than 64 levels (%s)', async (_kind, nest) => {
    const called: unknown[] = [];
    const { dispatcher, sent, settle, hello } = setup({
      'tools/call': (params) => {
        called.push(params);
        return Promise.resolve({ content: [] });
      },
    });
    await hello();
    const call = (id: number, depth: number): void => {
      // Parsed from text, as the channel does: this value is too deep to build and stringify.
      const text = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"t","arguments":{"x":${nest(depth)}}}}`;
      dispatcher.handle(JSON.parse(text));
    };
    call(1, 100_000);
    call(2, 64);
    call(3, 63);
    await settle();
    expect(errorOf(sent[0])).toMatchObject({
      code: -32602,
      data: { reason: 'invalid-params', issues: [{ path: 'arguments' }] },
    });
    expect(errorOf(sent[1])).toMatchObject({ data: { reason: 'invalid-params' } });
    // The arguments object is level 1: 63 more levels inside it is the most accepted.
    expect(sent[2]).toEqual({ jsonrpc: '2.0', id: 3, result: { content: [] } });
    expect(called).toHaveLength(1);
  });

  it('turns a HostError into its reason and details', async () => {
    const { dispatcher, sent, settle, hello } = setup();
    await hello();
    dispatcher.handle({ jsonrpc: '2.0', id: 1, method: 'servers/start', params: { server: 'x' } });
    await settle();
    expect(errorOf(sent[0])).toMatchObject({ code: -32000, data: { reason: 'unknown-server' } });
  });

  it('turns an unexpected throw into an internal error', async () => {
    const { dispatcher, sent, settle, hello } = setup({
      'servers/list': () => Promise.reject(new Error('boom')),
    });
    await hello();
    dispatcher.handle({ jsonrpc: '2.0', id: 1, method: 'servers/list' });
    await settle();
    expect(errorOf(sent[0])).toMatchObject({ code: -32603, data: { reason: 'internal' } });
  });

  it('turns a lock held by another process too long into busy, naming the lock file', async () => {
    const { dispatcher, sent, settle, hello } = setup({
      'policy/set': () =>
        Promise.reject(new FileLockTimeoutError('/h/config.json.lock', 'held by process 7')),
    });
    await hello();
    dispatcher.handle({
      jsonrpc: '2.0',
      id: 1,
      method: 'policy/set',
      params: { tool: 'a__*', policy: 'allow' },
    });
    await settle();
    expect(errorOf(sent[0])).toMatchObject({
      code: -32000,
      message: 'held by process 7',
      data: { reason: 'busy', file: '/h/config.json.lock' },
    });
  });

  it('aborts an in-flight call on notifications/cancelled for its id', async () => {
    let seen: unknown;
    const { dispatcher, sent, settle, hello } = setup({
      'tools/call': (_params, context) =>
        new Promise((_resolve, reject) => {
          context.cancellation.onCancel(() => {
            seen = context.cancellation.reason;
            reject(new HostError('cancelled', 'cancelled'));
          });
        }),
    });
    await hello();
    dispatcher.handle({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 't' } });
    await settle();
    expect(dispatcher.pending).toBe(1);
    dispatcher.handle({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 5 },
    });
    await settle();
    expect(seen).toBe(CANCEL_REASON);
    expect(errorOf(sent[0]).data.reason).toBe('cancelled');
    expect(dispatcher.pending).toBe(0);
  });

  it('cancels every in-flight request on abortAll, with the reason given (host shutdown)', async () => {
    const seen: unknown[] = [];
    const { dispatcher, settle, hello } = setup({
      'tools/call': (_params, context) =>
        new Promise((_resolve, reject) => {
          context.cancellation.onCancel(() => {
            seen.push(context.cancellation.reason);
            reject(new HostError('cancelled', 'cancelled'));
          });
        }),
    });
    await hello();
    dispatcher.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } });
    dispatcher.handle({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 't' } });
    await settle();
    dispatcher.abortAll('shutdown');
    await settle();
    expect(seen).toEqual(['shutdown', 'shutdown']);
    expect(dispatcher.pending).toBe(0);
  });

  it("still cancels the other requests when one request's cancel listener throws", async () => {
    const seen: number[] = [];
    const { dispatcher, logs, settle, hello } = setup({
      'tools/call': (params, context) =>
        new Promise((_resolve, reject) => {
          context.cancellation.onCancel(() => {
            if (params.name === 'broken') throw new Error('listener broke');
          });
          context.cancellation.onCancel(() => {
            seen.push(Number(context.id));
            reject(new HostError('cancelled', 'cancelled'));
          });
        }),
    });
    await hello();
    dispatcher.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'broken' } });
    dispatcher.handle({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 't' } });
    await settle();
    expect(() => {
      dispatcher.abortAll('shutdown');
    }).not.toThrow();
    await settle();
    expect(seen).toEqual([1, 2]);
    expect(dispatcher.pending).toBe(0);
    expect(logs).toEqual(['error: Cancelling a request failed: listener broke']);
  });

  it('refuses a second request with an id that is still in flight', async () => {
    const { dispatcher, sent, settle, hello } = setup({
      'tools/call': () => new Promise(() => undefined),
    });
    await hello();
    dispatcher.handle({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 't' } });
    dispatcher.handle({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 't' } });
    await settle();
    expect(errorOf(sent[0]).code).toBe(-32600);
  });

  it('answers result-too-large when the result cannot be framed', async () => {
    const sent: unknown[] = [];
    const { dispatcher, settle, hello } = setup({}, (message) => {
      if (
        typeof message === 'object' &&
        message !== null &&
        'result' in message &&
        'id' in message &&
        message.id === 7
      ) {
        return Promise.reject(new FrameTooLargeError(2_000_000, 1_048_576, 'outgoing'));
      }
      sent.push(message);
      return Promise.resolve();
    });
    await hello();
    dispatcher.handle({ jsonrpc: '2.0', id: 7, method: 'servers/list' });
    await settle();
    expect(errorOf(sent.at(-1)).data.reason).toBe('result-too-large');
  });

  it('ignores unknown and malformed notifications', async () => {
    const { dispatcher, sent, settle, hello } = setup();
    await hello();
    dispatcher.handle({ jsonrpc: '2.0', method: 'notifications/whatever' });
    dispatcher.handle({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: {} },
    });
    await settle();
    expect(sent).toEqual([]);
  });
});

describe('Dispatcher error replies', () => {
  it('caps a huge error message so the reply still fits a frame', async () => {
    const { dispatcher, sent, settle, hello } = setup({
      'tools/call': () => Promise.reject(new HostError('server-error', 'x'.repeat(3_000_000))),
    });
    await hello();
    dispatcher.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } });
    await settle();
    const error = errorOf(sent[0]);
    expect(error.data.reason).toBe('server-error');
    expect(JSON.stringify(sent[0]).length).toBeLessThan(20_000);
  });

  it('labels a send failure that is not about size as internal', async () => {
    const sent: unknown[] = [];
    const { dispatcher, settle, hello } = setup({}, (message) => {
      if (
        typeof message === 'object' &&
        message !== null &&
        'result' in message &&
        'id' in message &&
        message.id === 3
      ) {
        return Promise.reject(new Error('EPIPE'));
      }
      sent.push(message);
      return Promise.resolve();
    });
    await hello();
    dispatcher.handle({ jsonrpc: '2.0', id: 3, method: 'servers/list' });
    await settle();
    expect(errorOf(sent.at(-1)).data.reason).toBe('internal');
  });
});
