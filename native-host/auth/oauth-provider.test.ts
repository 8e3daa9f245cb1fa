import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test } from 'vitest';
import {
  ADMIN_SCOPE,
  BASE_SCOPE,
  startOAuthFixture,
  TEST_USER,
  type OAuthFixture,
  type OAuthFixtureOptions,
} from '../../test/fixtures/oauth/index';
import { followToRedirect } from '../../test/fixtures/oauth/test-browser';
import { MemorySecretStore } from '../testing/memory-secret-store';
import { describeAuthError } from './auth-errors';
import { startLoopbackUserAgent, type LoopbackUserAgent } from './loopback-receiver';
import { clientMetadataDocument } from './client-metadata-document';
import { SwitchyardOAuthProvider } from './oauth-provider';
import { canonicalResource, oauthKey } from './resource';
import { signIn } from './sign-in';
import { listSignIns } from './sign-in-status';
import { signOut } from './sign-out';
import type { UserAgent } from './user-agent';

// The provider against a real authorization server (oidc-provider) and a real protected MCP
// server (the v2 server SDK's bearer gate), through the SDK's own auth(). The "browser" follows
// the authorization URL through the auto-consent and then requests the loopback redirect.

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fixture(options: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
  const f = await startOAuthFixture(options);
  cleanups.push(() => f.stop());
  return f;
}

interface Browser {
  /** Every authorization URL the browser was sent to. */
  readonly seen: URL[];
  /** Rewrites the callback before it reaches the receiver (an attacker in the browser). */
  tamper?: (callback: URL) => void;
}

/** The loopback receiver with a fetch-driven browser behind it. */
async function loopback(browser: Browser): Promise<LoopbackUserAgent> {
  const agent: LoopbackUserAgent = await startLoopbackUserAgent({
    timeoutMs: 10_000,
    show: (url) => {
      browser.seen.push(url);
      void followToRedirect(url.href, agent.redirectUri)
        .then(async ({ callbackUrl }) => {
          const callback = new URL(callbackUrl);
          browser.tamper?.(callback);
          await fetch(callback);
        })
        .catch(() => undefined);
    },
  });
  cleanups.push(() => agent.close());
  return agent;
}

function provider(
  f: OAuthFixture,
  store: MemorySecretStore,
  userAgent?: UserAgent,
  extra: { clientMetadataUrl?: string; now?: () => number; serverUrl?: string } = {},
): SwitchyardOAuthProvider {
  const serverUrl = extra.serverUrl ?? f.mcpUrl;
  return new SwitchyardOAuthProvider({
    server: 'remote',
    serverUrl,
    resource: canonicalResource(serverUrl) ?? '',
    store,
    ...(userAgent === undefined ? {} : { userAgent }),
    ...(extra.clientMetadataUrl === undefined
      ? {}
      : { clientMetadataUrl: extra.clientMetadataUrl }),
    ...(extra.now === undefined ? {} : { now: extra.now }),
  });
}

async function callTool(f: OAuthFixture, p: SwitchyardOAuthProvider, name: string) {
  const client = new Client({ name: 'test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(f.mcpUrl), { authProvider: p });
  await client.connect(transport);
  try {
    return await client.callTool({ name, arguments: {} });
  } finally {
    await client.close();
  }
}

function textOf(result: Awaited<ReturnType<typeof callTool>>): string {
  const [first] = result.content as Array<{ type: string; text?: string }>;
  return first?.text ?? '';
}

describe('sign-in through the loopback receiver', () => {
  test('registers dynamically, sends PKCE S256, the resource and a state, and gets working tokens', async () => {
    const f = await fixture();
    const store = new MemorySecretStore();
    const browser: Browser = { seen: [] };
    const status = await signIn(provider(f, store, await loopback(browser)), f.mcpUrl);

    expect(f.counters.as.registrations).toBe(1);
    expect(f.counters.as.issued).toBe(1);
    const [url] = browser.seen;
    expect(url?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url?.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url?.searchParams.get('resource')).toBe(f.mcpUrl);
    expect(url?.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The scope comes from the 401's challenge (not every scope the resource knows).
    expect(url?.searchParams.get('scope')?.split(' ')).toContain(BASE_SCOPE);
    expect(url?.searchParams.get('scope')?.split(' ')).not.toContain(ADMIN_SCOPE);
    expect(status.scopes).toContain(BASE_SCOPE);
    expect(status.refreshable).toBe(true);
    expect(status.issuer).toBe(f.issuer);

    // The same tokens, from the store, by a provider that cannot start a sign-in (the host).
    const result = await callTool(f, provider(f, store), 'whoami');
    expect(textOf(result)).toContain(`user ${TEST_USER}`);
    // Nothing secret in what status reports.
    expect(JSON.stringify(await listSignIns(store))).not.toMatch(/access_token|refresh_token/);
  });

  test('a provider for another URL under the same name sees no tokens', async () => {
    const f = await fixture();
    const store = new MemorySecretStore();
    await signIn(provider(f, store, await loopback({ seen: [] })), f.mcpUrl);
    const moved = provider(f, store, undefined, { serverUrl: `${f.mcpUrl}/elsewhere` });
    expect(await moved.tokens()).toBeUndefined();
    expect(await provider(f, store).tokens()).toBeDefined();
  });

  test('a callback whose iss is not the authorization server is refused before the code is used', async () => {
    const f = await fixture();
    const store = new MemorySecretStore();
    const browser: Browser = {
      seen: [],
      tamper: (callback) => {
        callback.searchParams.set('iss', 'https://evil.example');
      },
    };
    const error = await signIn(provider(f, store, await loopback(browser)), f.mcpUrl).catch(
      (e: unknown) => e,
    );
    expect(describeAuthError(error, 'remote').kind).toBe('issuer-mismatch');
    expect(f.counters.as.issued).toBe(0);
    expect(await store.get(oauthKey('remote', 'tokens'))).toBeUndefined();
  });

  test('a callback with another state is refused by the provider', async () => {
    const f = await fixture();
    const store = new MemorySecretStore();
    const agent: UserAgent = {
      redirectUri: 'http://127.0.0.1:9/callback',
      authorize: async (url, redirectUri) => {
        const { callbackUrl } = await followToRedirect(url.href, redirectUri);
        const forged = new URL(callbackUrl);
        forged.searchParams.set('state', 'forged-state-forged-state-forged-state-123');
        return forged.href;
      },
    };
    const error = await signIn(provider(f, store, agent), f.mcpUrl).catch((e: unknown) => e);
    expect(describeAuthError(error, 'remote').kind).toBe('state-mismatch');
    expect(f.counters.as.issued).toBe(0);
  });

  test('the loopback receiver answers a wrong state 400 and keeps waiting for the right one', async () => {
    const f = await fixture();
    const store = new MemorySecretStore();
    const statuses: number[] = [];
    const agent: LoopbackUserAgent = await startLoopbackUserAgent({
      timeoutMs: 10_000,
      show: (url) => {
        void (async () => {
          const { callbackUrl } = await followToRedirect(url.href, agent.redirectUri);
          const wrong = new URL(callbackUrl);
          wrong.searchParams.set('state', 'nope');
          statuses.push((await fetch(wrong)).status);
          statuses.push((await fetch(new URL('/other', agent.redirectUri))).status);
          statuses.push((await fetch(callbackUrl)).status);
        })();
      },
    });
    cleanups.push(() => agent.close());
    await signIn(provider(f, store, agent), f.mcpUrl);
    expect(statuses).toEqual([400, 404, 200]);
  });

  test('a declined sign-in says so, with the server text gated', async () => {
    const f = await fixture({ consent: 'deny' });
    const error = await signIn(
      provider(f, new MemorySecretStore(), await loopback({ seen: [] })),
      f.mcpUrl,
    ).catch((e: unknown) => e);
    const described = describeAuthError(error, 'remote');
    expect(described.kind).toBe('denied');
    expect(described.message).toContain('declined');
  });

  test('a client ID metadata document is used where the AS supports one: no registration', async () => {
    const documentUrl = 'https://switchyard.test/oauth/client.json';
    const f = await fixture({
      clientIdMetadataDocuments: true,
      // The document `switchyard oauth-client-metadata` prints, as oidc-provider reads it.
      metadataDocuments: new Map([
        [
          documentUrl,
          clientMetadataDocument(documentUrl, [
            'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/',
          ]),
        ],
      ]),
    });
    const store = new MemorySecretStore();
    const browser: Browser = { seen: [] };
    await signIn(
      provider(f, store, await loopback(browser), { clientMetadataUrl: documentUrl }),
      f.mcpUrl,
    );
    expect(f.counters.as.registrations).toBe(0);
    expect(browser.seen[0]?.searchParams.get('client_id')).toBe(documentUrl);
    expect(textOf(await callTool(f, provider(f, store), 'whoami'))).toContain(TEST_USER);
  });
});

describe('refresh', () => {
  test('a token about to expire is refreshed before the request', async () => {
    const f = await fixture({ accessTokenTtlSeconds: 30 });
    const store = new MemorySecretStore();
    await signIn(provider(f, store, await loopback({ seen: [] })), f.mcpUrl);
    const before = await store.get(oauthKey('remote', 'tokens'));
    // 20 s later, 10 s are left of a 30 s token: past half its life, so it is refreshed once.
    const later = () => Date.now() + 20_000;
    const result = await callTool(f, provider(f, store, undefined, { now: later }), 'whoami');
    expect(textOf(result)).toContain(TEST_USER);
    expect(f.counters.as.refreshed).toBe(1);
    expect(await store.get(oauthKey('remote', 'tokens'))).not.toBe(before);
  });

  test('a 401 for a stored token refreshes it and retries', async () => {
    const f = await fixture();
    const store = new MemorySecretStore();
    await signIn(provider(f, store, await loopback({ seen: [] })), f.mcpUrl);
    const key = oauthKey('remote', 'tokens');
    const record = JSON.parse((await store.get(key)) ?? '{}') as {
      tokens: { access_token: string };
    };
    record.tokens.access_token = 'not-a-token-the-server-knows';
    await store.set(key, JSON.stringify(record));
    expect(textOf(await callTool(f, provider(f, store), 'whoami'))).toContain(TEST_USER);
    expect(f.counters.as.refreshed).toBe(1);
    expect(f.counters.mcp.unauthorized).toBeGreaterThanOrEqual(1);
  });
});

describe('sign-out', () => {
  test('revokes at the AS, deletes the records, and the old token stops working', async () => {
    const f = await fixture();
    const store = new MemorySecretStore();
    await signIn(provider(f, store, await loopback({ seen: [] })), f.mcpUrl);
    const stored = JSON.parse((await store.get(oauthKey('remote', 'tokens'))) ?? '{}') as {
      tokens: { access_token: string };
    };
    const result = await signOut(store, 'remote');
    expect(result.revocation).toBe('revoked');
    expect(f.counters.as.revoked).toBeGreaterThanOrEqual(1);
    expect(await store.list('oauth:remote:')).toEqual([]);
    const response = await fetch(f.mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stored.tokens.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(401);
    expect(await signOut(store, 'remote')).toEqual({ revocation: 'nothing', deleted: 0 });
  });
});

describe('step-up on 403 insufficient_scope', () => {
  test('without a user agent: fails with a sign-in message and remembers the scope it needs', async () => {
    const f = await fixture();
    const store = new MemorySecretStore();
    await signIn(provider(f, store, await loopback({ seen: [] })), f.mcpUrl);
    const error = await callTool(f, provider(f, store), 'admin_reset').catch((e: unknown) => e);
    expect(describeAuthError(error, 'remote').kind).toBe('sign-in-required');
    const again = provider(f, store, await loopback({ seen: [] }));
    expect((await again.pendingScope())?.split(' ')).toContain(ADMIN_SCOPE);
    const status = await signIn(again, f.mcpUrl);
    expect(status.scopes).toEqual(expect.arrayContaining([BASE_SCOPE, ADMIN_SCOPE]));
    expect(textOf(await callTool(f, provider(f, store), 'admin_reset'))).toBe('reset done');
  });

  test('with a user agent: the transport reauthorizes with the wider scope, and a retry succeeds', async () => {
    const f = await fixture();
    const store = new MemorySecretStore();
    const browser: Browser = { seen: [] };
    // A user agent that stays open for a second authorization (the browser relay's shape).
    const agent: UserAgent = {
      redirectUri: 'http://127.0.0.1:9/callback',
      authorize: async (url, redirectUri) => {
        browser.seen.push(url);
        return (await followToRedirect(url.href, redirectUri)).callbackUrl;
      },
    };
    const interactive = provider(f, store, agent);
    await signIn(interactive, f.mcpUrl);
    interactive.completedAuthorization = false;
    // The first attempt ends with the SDK's UnauthorizedError (auth() reports REDIRECT even
    // though the nested leg saved tokens); the host retries once when completedAuthorization.
    const first = await callTool(f, interactive, 'admin_reset').catch((e: unknown) => e);
    expect(first).toBeInstanceOf(Error);
    expect(interactive.completedAuthorization).toBe(true);
    expect(browser.seen.at(-1)?.searchParams.get('scope')?.split(' ')).toContain(ADMIN_SCOPE);
    expect(textOf(await callTool(f, interactive, 'admin_reset'))).toBe('reset done');
    expect(f.counters.as.issued).toBe(2);
  });
});

describe('what the authorization server checks', () => {
  test('a code redeemed with another PKCE verifier is refused (S256 is enforced, not trusted)', async () => {
    const f = await fixture();
    const store = new MemorySecretStore();
    const box: { provider?: SwitchyardOAuthProvider } = {};
    const agent: UserAgent = {
      redirectUri: 'http://127.0.0.1:9/callback',
      authorize: async (url, redirectUri) => {
        const { callbackUrl } = await followToRedirect(url.href, redirectUri);
        // Swapped through the provider's own records (it caches what it read).
        await box.provider?.records.write('verifier', {
          resource: f.mcpUrl,
          verifier: 'x'.repeat(43),
        });
        return callbackUrl;
      },
    };
    box.provider = provider(f, store, agent);
    await expect(signIn(box.provider, f.mcpUrl)).rejects.toThrow();
    expect(f.counters.as.issued).toBe(0);
  });
});
