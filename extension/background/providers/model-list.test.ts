import { afterEach, describe, expect, test } from 'vitest';
import type { ProviderSettings } from '../../messaging/provider';
import {
  startLoopbackServer,
  type LoopbackReply,
  type LoopbackServer,
} from '../../../test/support/loopback-server';
import { createModelLister } from './model-list';

/*
 * The picker's list from a real HTTP server on 127.0.0.1 (the provider's own models endpoint).
 * Dangerous direction: a list from settings the user has since changed (another server, another
 * key), or a failure that leaves the picker with nothing to say.
 */

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(reply: () => LoopbackReply) {
  server = await startLoopbackServer(reply);
  return server;
}

const reach = {
  fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init),
  hasAccess: () => Promise.resolve(true),
};

function openai(baseURL: string): ProviderSettings {
  return { kind: 'openai', apiKey: 'sk-test', model: 'gpt-4.1', baseURL };
}

describe('createModelLister', () => {
  test('lists the ids sorted and once each, and asks again only after the cache time', async () => {
    const ids = ['gpt-4o', 'gpt-4.1', 'gpt-4o', ' '];
    const { baseURL, requests } = await serve(() => ({
      kind: 'json',
      status: 200,
      body: { object: 'list', data: ids.map((id) => ({ id })) },
    }));
    let now = 0;
    const list = createModelLister({ ...reach, now: () => now, cacheMs: 1_000 });
    const settings = openai(baseURL);
    expect(await list(settings)).toEqual({ models: ['gpt-4.1', 'gpt-4o'], problem: null });
    now = 999;
    await list(settings);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers.authorization).toBe('Bearer sk-test');
    // Saved settings are a new object: asked again at once.
    await list({ ...settings });
    expect(requests).toHaveLength(2);
    now = 5_000;
    await list(settings);
    expect(requests).toHaveLength(3);
  });

  test('Anthropic is asked with its headers and its largest page', async () => {
    const { baseURL, requests } = await serve(() => ({
      kind: 'json',
      status: 200,
      body: { data: [{ id: 'claude-sonnet-4-5', type: 'model' }], has_more: false },
    }));
    const list = createModelLister(reach);
    const settings: ProviderSettings = {
      kind: 'anthropic',
      apiKey: 'sk-ant',
      model: 'claude-sonnet-4-5',
      baseURL,
    };
    expect((await list(settings)).models).toEqual(['claude-sonnet-4-5']);
    expect(requests[0]?.url).toBe('/v1/models?limit=1000');
    expect(requests[0]?.headers['x-api-key']).toBe('sk-ant');
  });

  test.each([
    [404, /lists no models: type the model id/],
    [401, /API key/],
  ])('HTTP %i: no list, a reason, and nothing cached', async (status, problem) => {
    const { baseURL, requests } = await serve(() => ({
      kind: 'json',
      status,
      body: { error: { message: 'nope' } },
    }));
    const list = createModelLister(reach);
    const listing = await list(openai(baseURL));
    expect(listing.models).toEqual([]);
    expect(listing.problem).toMatch(problem);
    await list(openai(baseURL));
    expect(requests).toHaveLength(2);
  });

  test('a body that is not a model list is a problem, not a crash', async () => {
    const { baseURL } = await serve(() => ({ kind: 'json', status: 200, body: { models: 3 } }));
    const listing = await createModelLister(reach)(openai(baseURL));
    expect(listing).toMatchObject({
      models: [],
      problem: expect.stringMatching(/not with a model list/) as unknown,
    });
  });
});
