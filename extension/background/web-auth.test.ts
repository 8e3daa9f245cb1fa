import { describe, expect, test } from 'vitest';
import type { RequestMethod } from '../../protocol/methods';
import { signInThroughBrowser, type WebAuthFlow } from './web-auth';

const REDIRECT = 'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/';
const STATUS = {
  server: 'linear',
  resource: 'https://mcp.linear.app/mcp',
  issuer: 'https://linear.app',
  subject: 'ada@example.com',
  scopes: ['read'],
  expiresAt: null,
  refreshable: true,
};

/** A host that records the requests and answers auth/begin and auth/complete. */
function fakeHost() {
  const sent: { method: RequestMethod; params: unknown }[] = [];
  const host = {
    request: (method: RequestMethod, params: unknown): Promise<never> => {
      sent.push({ method, params });
      const answer =
        method === 'auth/begin'
          ? { flowId: 'f1', authorizationUrl: 'https://linear.app/oauth/authorize?state=s' }
          : { status: STATUS };
      return Promise.resolve(answer as never);
    },
  };
  return { host, sent };
}

function flow(result: string | null): WebAuthFlow & { shown: string[] } {
  const shown: string[] = [];
  return {
    shown,
    redirectUri: () => REDIRECT,
    launch: (url) => {
      shown.push(url);
      return Promise.resolve(result);
    },
  };
}

describe('signInThroughBrowser', () => {
  test('begins with the browser redirect, shows the page, and completes with its callback', async () => {
    const { host, sent } = fakeHost();
    const web = flow(`${REDIRECT}?code=abc&state=s`);
    await expect(signInThroughBrowser(host, web, 'linear')).resolves.toEqual(STATUS);
    expect(web.shown).toEqual(['https://linear.app/oauth/authorize?state=s']);
    expect(sent).toEqual([
      { method: 'auth/begin', params: { server: 'linear', redirectUri: REDIRECT } },
      {
        method: 'auth/complete',
        params: { flowId: 'f1', callbackUrl: `${REDIRECT}?code=abc&state=s` },
      },
    ]);
  });

  test('a closed window completes the flow with null, so the host ends it at once', async () => {
    const { host, sent } = fakeHost();
    await signInThroughBrowser(host, flow(null), 'linear');
    expect(sent[1]).toEqual({
      method: 'auth/complete',
      params: { flowId: 'f1', callbackUrl: null },
    });
  });
});
