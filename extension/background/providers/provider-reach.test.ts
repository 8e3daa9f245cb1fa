import { describe, expect, test } from 'vitest';
import { startLoopbackServer } from '../../../test/support/loopback-server';
import { diagnoseNetworkFailure, isNetworkFailure, type ReachDeps } from './provider-reach';

/*
 * Telling missing site access from a server that is down. Dangerous direction: "check that the
 * server is running" when it runs and one click on "Allow access" would fix it.
 */

describe('isNetworkFailure', () => {
  test.each([
    ['Chromium', new TypeError('Failed to fetch'), true],
    ['Node', new TypeError('fetch failed'), true],
    ['Firefox', new TypeError('NetworkError when attempting to fetch resource.'), true],
    ['Safari', new TypeError('Load failed'), true],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'x')"), false],
    ['an abort', new DOMException('The operation was aborted.', 'AbortError'), false],
    ['a string', 'Failed to fetch', false],
  ])('%s', (_, error, expected) => {
    expect(isNetworkFailure(error)).toBe(expected);
  });
});

describe('diagnoseNetworkFailure (a plain request to a real server)', () => {
  const settings = (baseURL: string) => ({ kind: 'openai-compatible' as const, baseURL });
  const reach = (granted: boolean, asked: string[] = []): ReachDeps => ({
    fetch: (input, init) => fetch(input, init),
    hasAccess: (pattern) => {
      asked.push(pattern);
      return Promise.resolve(granted);
    },
    timeoutMs: 2_000,
  });

  test.each([
    [false, 'no-access'],
    [true, 'blocked'],
  ] as const)('a server that answers, access granted %s: %s', async (granted, diagnosis) => {
    // Any answer counts, even an error status: the server is there.
    const server = await startLoopbackServer(() => ({ kind: 'json', status: 401, body: {} }));
    try {
      const asked: string[] = [];
      const url = `${server.baseURL}/models`;
      expect(
        await diagnoseNetworkFailure(settings(server.baseURL), url, reach(granted, asked)),
      ).toBe(diagnosis);
      expect(asked).toEqual([`${new URL(server.baseURL).origin}/*`]);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/models']);
    } finally {
      await server.close();
    }
  });

  test.each([false, true])(
    'nothing listening (access granted %s): unreachable',
    async (granted) => {
      const server = await startLoopbackServer(() => ({ kind: 'json', status: 200, body: {} }));
      await server.close();
      const url = `${server.baseURL}/models`;
      expect(await diagnoseNetworkFailure(settings(server.baseURL), url, reach(granted))).toBe(
        'unreachable',
      );
    },
  );

  test('a permission check that fails counts as not granted', async () => {
    const server = await startLoopbackServer(() => ({ kind: 'json', status: 200, body: {} }));
    try {
      const failing: ReachDeps = {
        ...reach(true),
        hasAccess: () => Promise.reject(new Error('no permissions API')),
      };
      expect(await diagnoseNetworkFailure(settings(server.baseURL), server.baseURL, failing)).toBe(
        'no-access',
      );
    } finally {
      await server.close();
    }
  });
});
