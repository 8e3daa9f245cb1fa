import { afterEach, describe, expect, test } from 'vitest';
import {
  startLoopbackServer,
  type LoopbackReply,
  type LoopbackServer,
  type RecordedRequest,
} from '../../../test/support/loopback-server';
import type { ConnectionCause } from '../../messaging/connection-test';
import type { ProviderSettings } from '../../messaging/provider';
import {
  classifyProbe,
  completionRequest,
  modelsRequest,
  testProviderConnection,
  type ProbeObservation,
} from './connection-test';
import type { ReachDeps } from './provider-reach';

/*
 * Test connection names the real cause. Dangerous direction: a result that sends the user to the
 * wrong place — "check the key" when access is missing, "is the server running?" when one click
 * would let the request through, or "connected" when the key was refused.
 */

const OPENAI: ProviderSettings = { kind: 'openai', apiKey: 'sk-test', model: 'gpt-4.1' };
const LOCAL: ProviderSettings = {
  kind: 'openai-compatible',
  name: 'Ollama',
  baseURL: 'http://localhost:11434/v1',
  model: 'llama3.1',
};
const models = (...ids: string[]) => ({ object: 'list', data: ids.map((id) => ({ id })) });
const response = (status: number, body: unknown = {}): ProbeObservation => ({
  kind: 'response',
  endpoint: 'models',
  status,
  body,
});

describe('classifyProbe', () => {
  test.each<[string, ProbeObservation, ProviderSettings, ConnectionCause, RegExp]>([
    [
      'a list with the model',
      response(200, models('gpt-4o', 'gpt-4.1')),
      OPENAI,
      'ok',
      /^Connected to OpenAI: 2 models available, including 'gpt-4\.1'\.$/,
    ],
    [
      "Ollama's `:latest` id names the model",
      response(200, models('llama3.1:latest')),
      LOCAL,
      'ok',
      /1 model available, including 'llama3\.1'/,
    ],
    [
      'a list without the model',
      response(200, models('gpt-4o')),
      OPENAI,
      'model-not-listed',
      /'gpt-4\.1' is not among them: check the model name/,
    ],
    [
      'a partial (paged) list without the model says nothing of it',
      response(200, { data: [{ id: 'claude-3' }], has_more: true }),
      OPENAI,
      'ok',
      /1\+ models available\.$/,
    ],
    [
      'a 200 that is no model list',
      response(200, '<html>'),
      OPENAI,
      'unexpected',
      /not with a model list: check the base URL/,
    ],
    [
      'a completion that answered',
      { kind: 'response', endpoint: 'completion', status: 200, body: {} },
      LOCAL,
      'ok',
      /model 'llama3\.1' answered/,
    ],
    [
      '401',
      response(401),
      OPENAI,
      'key-rejected',
      /rejected the API key \(HTTP 401\): check the key/,
    ],
    ['401 with no key', response(401), LOCAL, 'key-rejected', /wants an API key \(HTTP 401\)/],
    [
      '403 quotes the server',
      response(403, { error: { message: 'project lacks access' } }),
      OPENAI,
      'forbidden',
      /HTTP 403\): check the key.*"project lacks access"/,
    ],
    [
      '404 on the list',
      response(404),
      OPENAI,
      'not-found',
      /has no https:\/\/api\.openai\.com\/v1\/models \(HTTP 404\): check the base URL/,
    ],
    [
      '404 on the completion',
      { kind: 'response', endpoint: 'completion', status: 404, body: {} },
      LOCAL,
      'not-found',
      /model 'llama3\.1' or the address \(HTTP 404\): check the model name and the base URL/,
    ],
    ['429', response(429), OPENAI, 'rate-limited', /limiting requests \(HTTP 429\)/],
    [
      '503 quotes the server, shortened',
      response(503, { error: 'x'.repeat(500) }),
      OPENAI,
      'server-error',
      /server error \(HTTP 503\): try again later\. It said: "x{200}…"$/,
    ],
    ['418', response(418, 'teapot'), OPENAI, 'unexpected', /HTTP 418 at .*It said: "teapot"/],
    [
      "vLLM's bare message is quoted",
      response(400, { object: 'error', message: 'max_tokens is too large', type: 'x' }),
      LOCAL,
      'unexpected',
      /HTTP 400 at .*It said: "max_tokens is too large"$/,
    ],
    [
      'no access, the server answers',
      { kind: 'network', diagnosis: 'no-access' },
      LOCAL,
      'no-access',
      /no permission to reach localhost:11434.*allow Switchyard access to localhost:11434\./,
    ],
    [
      'nothing answers',
      { kind: 'network', diagnosis: 'unreachable' },
      LOCAL,
      'unreachable',
      /Cannot reach localhost:11434: the name does not resolve or the connection was refused/,
    ],
    [
      'access granted, still refused',
      { kind: 'network', diagnosis: 'blocked' },
      LOCAL,
      'blocked',
      /answers, but the browser refused the request although Switchyard has access/,
    ],
    [
      'timeout',
      { kind: 'timeout', afterMs: 15_000 },
      OPENAI,
      'timeout',
      /api\.openai\.com did not answer within 15 s/,
    ],
  ])('%s', (_, observation, settings, cause, message) => {
    const result = classifyProbe(observation, settings);
    expect(result.cause).toBe(cause);
    expect(result.message).toMatch(message);
    expect(result.tone).toBe(
      cause === 'ok'
        ? 'success'
        : cause === 'model-not-listed' || cause === 'rate-limited'
          ? 'warning'
          : 'error',
    );
  });

  test('only no-access carries the access to grant, for the provider origin', () => {
    expect(classifyProbe({ kind: 'network', diagnosis: 'no-access' }, LOCAL).access).toEqual({
      origin: 'localhost:11434',
      pattern: 'http://localhost:11434/*',
    });
    for (const diagnosis of ['unreachable', 'blocked'] as const) {
      expect(classifyProbe({ kind: 'network', diagnosis }, LOCAL).access).toBeUndefined();
    }
    expect(classifyProbe(response(401), OPENAI).access).toBeUndefined();
  });
});

describe('the probe requests', () => {
  test.each<[string, ProviderSettings, string, Record<string, string>]>([
    ['OpenAI', OPENAI, 'https://api.openai.com/v1/models', { authorization: 'Bearer sk-test' }],
    [
      'Anthropic (every page of the list at once)',
      { kind: 'anthropic', apiKey: 'sk-ant', model: 'claude-sonnet-4-5' },
      'https://api.anthropic.com/v1/models?limit=1000',
      {
        'x-api-key': 'sk-ant',
        'anthropic-version': '2023-06-01',
        'anthropic-dangerous-direct-browser-access': 'true',
      },
    ],
    ['a compatible server without a key', LOCAL, 'http://localhost:11434/v1/models', {}],
    [
      'a base URL with a trailing slash',
      { ...OPENAI, baseURL: 'https://proxy.example/v1/' },
      'https://proxy.example/v1/models',
      { authorization: 'Bearer sk-test' },
    ],
  ])('%s', (_, settings, url, headers) => {
    const request = modelsRequest(settings);
    expect(request.url).toBe(url);
    expect(request.init).toEqual({ method: 'GET', headers });
  });

  test('the completion asks for one token of the configured model, not streamed', () => {
    const request = completionRequest(LOCAL);
    expect(request.url).toBe('http://localhost:11434/v1/chat/completions');
    expect(JSON.parse(request.init.body ?? '')).toMatchObject({
      model: 'llama3.1',
      max_tokens: 1,
      stream: false,
    });
  });
});

// The whole test against a real HTTP server (Node's fetch ignores CORS, as a worker with access
// does; access itself is injected).
describe('testProviderConnection over HTTP', () => {
  let server: LoopbackServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const nodeReach = (granted: boolean): ReachDeps => ({
    fetch: (input, init) => fetch(input, init),
    hasAccess: () => Promise.resolve(granted),
    timeoutMs: 2_000,
  });
  async function serve(reply: (request: RecordedRequest) => LoopbackReply) {
    server = await startLoopbackServer((request) => reply(request));
    return server;
  }
  /** A base URL where nothing listens (a loopback server, closed). */
  async function closedBaseURL(): Promise<string> {
    const closed = await startLoopbackServer(() => ({ kind: 'json', status: 200, body: {} }));
    await closed.close();
    return closed.baseURL;
  }

  test('success counts the models and sends the key to the models endpoint', async () => {
    const { baseURL, requests } = await serve(() => ({
      kind: 'json',
      status: 200,
      body: models('gpt-4.1', 'gpt-4o'),
    }));
    const result = await testProviderConnection({ ...OPENAI, baseURL }, nodeReach(true));
    expect(result).toMatchObject({ cause: 'ok', tone: 'success' });
    expect(result.message).toContain('2 models available');
    expect(requests.map((r) => [r.method, r.url, r.headers.authorization])).toEqual([
      ['GET', '/v1/models', 'Bearer sk-test'],
    ]);
  });

  test('a 401 names the key', async () => {
    const { baseURL } = await serve(() => ({
      kind: 'json',
      status: 401,
      body: { error: { message: 'Incorrect API key' } },
    }));
    expect(await testProviderConnection({ ...OPENAI, baseURL }, nodeReach(true))).toMatchObject({
      cause: 'key-rejected',
    });
  });

  test('a compatible server without a model list is asked for one token instead', async () => {
    const { baseURL, requests } = await serve((request) =>
      request.url.endsWith('/models')
        ? { kind: 'json', status: 404, body: {} }
        : { kind: 'json', status: 200, body: { choices: [{ message: { content: 'OK' } }] } },
    );
    const result = await testProviderConnection({ ...LOCAL, baseURL }, nodeReach(true));
    expect(result.message).toBe("Connected to Ollama: model 'llama3.1' answered.");
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /v1/models',
      'POST /v1/chat/completions',
    ]);
  });

  test('a closed port is unreachable, with or without access', async () => {
    const baseURL = await closedBaseURL();
    for (const granted of [true, false]) {
      const result = await testProviderConnection({ ...LOCAL, baseURL }, nodeReach(granted));
      expect(result.cause).toBe('unreachable');
      expect(result.message).toContain('connection was refused');
    }
  });

  test('a fetch the browser refused, from a server that answers: access if not granted', async () => {
    const { baseURL } = await serve(() => ({ kind: 'json', status: 200, body: models() }));
    // The browser's refusal of a request without access (CORS): the first fetch fails as
    // Chromium's does; the plain request reaches the server.
    const refusing = (granted: boolean): ReachDeps => ({
      ...nodeReach(granted),
      fetch: (input, init) =>
        init?.mode === 'no-cors'
          ? fetch(input, init)
          : Promise.reject(new TypeError('Failed to fetch')),
    });
    const missing = await testProviderConnection({ ...LOCAL, baseURL }, refusing(false));
    expect(missing.cause).toBe('no-access');
    expect(missing.access?.pattern).toBe(`${new URL(baseURL).origin}/*`);
    const granted = await testProviderConnection({ ...LOCAL, baseURL }, refusing(true));
    expect(granted.cause).toBe('blocked');
  });

  test('a server that never answers times out, saying how long it waited', async () => {
    const { baseURL } = await serve(() => ({ kind: 'sse', events: [], hang: true }));
    const result = await testProviderConnection(
      { ...OPENAI, baseURL },
      { ...nodeReach(true), testTimeoutMs: 300 },
    );
    expect(result.cause).toBe('timeout');
    expect(result.message).toContain('within 0.3 s');
  });
});
