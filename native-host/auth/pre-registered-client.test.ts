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
import { variableKey } from '../secrets/keys';
import { MemorySecretStore } from '../testing/memory-secret-store';
import { describeAuthError } from './auth-errors';
import { startLoopbackUserAgent, type LoopbackUserAgent } from './loopback-receiver';
import { SwitchyardOAuthProvider } from './oauth-provider';
import {
  resolveClient,
  type ClientCredentials,
  type ClientResolution,
} from './pre-registered-client';
import { canonicalResource, oauthKey } from './resource';
import { signIn } from './sign-in';

// A client registered beforehand (the entry's `oauth`) against the real oidc-provider fixture with
// dynamic registration turned off, as GitHub's OAuth apps and many enterprise IdPs are.
// Dangerous direction: a registration request sent anyway (a side effect on the user's IdP, and
// a client the user never approved), or the client secret written to a record.

const CLIENT_ID = 'switchyard-test-app';
const CLIENT_SECRET = 'test-secret-4f1c9a';
// RFC 8252 §7.3: registered without a port, the loopback redirect matches on any port.
const LOOPBACK = 'http://127.0.0.1/callback';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fixture(options: OAuthFixtureOptions): Promise<OAuthFixture> {
  const f = await startOAuthFixture({ registration: false, ...options });
  cleanups.push(() => f.stop());
  return f;
}

/** The loopback receiver with a fetch-driven browser behind it. */
async function loopback(seen: URL[]): Promise<LoopbackUserAgent> {
  const agent: LoopbackUserAgent = await startLoopbackUserAgent({
    timeoutMs: 10_000,
    show: (url) => {
      seen.push(url);
      void followToRedirect(url.href, agent.redirectUri)
        .then(({ callbackUrl }) => fetch(callbackUrl))
        .catch(() => undefined);
    },
  });
  cleanups.push(() => agent.close());
  return agent;
}

function provider(
  f: OAuthFixture,
  store: MemorySecretStore,
  preRegistered: ClientCredentials | undefined,
  extra: { userAgent?: LoopbackUserAgent; now?: () => number } = {},
): SwitchyardOAuthProvider {
  return new SwitchyardOAuthProvider({
    server: 'remote',
    serverUrl: f.mcpUrl,
    resource: canonicalResource(f.mcpUrl) ?? '',
    store,
    ...(preRegistered === undefined ? {} : { preRegistered }),
    ...(extra.userAgent === undefined ? {} : { userAgent: extra.userAgent }),
    ...(extra.now === undefined ? {} : { now: extra.now }),
  });
}

async function whoami(f: OAuthFixture, p: SwitchyardOAuthProvider): Promise<string> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(f.mcpUrl), { authProvider: p }));
  try {
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    const [first] = result.content as Array<{ type: string; text?: string }>;
    return first?.text ?? '';
  } finally {
    await client.close();
  }
}

describe('sign-in with a pre-registered client', () => {
  test('a confidential client signs in, asks for its configured scopes, and never registers', async () => {
    const f = await fixture({
      accessTokenTtlSeconds: 30,
      clients: [{ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris: [LOOPBACK] }],
    });
    const store = new MemorySecretStore();
    const seen: URL[] = [];
    const client = { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, scopes: [ADMIN_SCOPE] };
    const status = await signIn(
      provider(f, store, client, { userAgent: await loopback(seen) }),
      f.mcpUrl,
    );

    expect(f.counters.as.registrations).toBe(0);
    expect(f.counters.as.issued).toBe(1);
    const [url] = seen;
    expect(url?.searchParams.get('client_id')).toBe(CLIENT_ID);
    // The challenge's scope and the entry's, together.
    expect(url?.searchParams.get('scope')?.split(' ')).toEqual(
      expect.arrayContaining([BASE_SCOPE, ADMIN_SCOPE]),
    );
    expect(status.scopes).toEqual(expect.arrayContaining([BASE_SCOPE, ADMIN_SCOPE]));
    // The client lives in config.json: no client record, and the secret nowhere in the store.
    expect(await store.get(oauthKey('remote', 'client'))).toBeUndefined();
    for (const key of await store.list('')) {
      expect(await store.get(key)).not.toContain(CLIENT_SECRET);
    }

    // The host's own provider (no user agent) refreshes with the secret: 20 s into a 30 s token.
    const later = () => Date.now() + 20_000;
    expect(await whoami(f, provider(f, store, client, { now: later }))).toContain(TEST_USER);
    expect(f.counters.as.refreshed).toBe(1);
    expect(f.counters.as.registrations).toBe(0);
  });

  test('a public client (no secret) signs in too', async () => {
    const f = await fixture({ clients: [{ clientId: CLIENT_ID, redirectUris: [LOOPBACK] }] });
    const store = new MemorySecretStore();
    const client = { clientId: CLIENT_ID, scopes: [] };
    await signIn(provider(f, store, client, { userAgent: await loopback([]) }), f.mcpUrl);
    expect(f.counters.as.registrations).toBe(0);
    expect(await whoami(f, provider(f, store, client))).toContain(TEST_USER);
  });

  test('a wrong secret is refused by the authorization server, and nothing is registered', async () => {
    const f = await fixture({
      clients: [{ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris: [LOOPBACK] }],
    });
    const client = { clientId: CLIENT_ID, clientSecret: 'not-it', scopes: [] };
    const attempt = signIn(
      provider(f, new MemorySecretStore(), client, { userAgent: await loopback([]) }),
      f.mcpUrl,
    );
    const error = await attempt.catch((e: unknown) => e);
    expect(describeAuthError(error, 'remote')).toEqual({
      kind: 'authorization-server',
      message: expect.stringMatching(/refused the OAuth client "switchyard-test-app"/) as unknown,
    });
    expect(f.counters.as.issued).toBe(0);
    expect(f.counters.as.registrations).toBe(0);
  });

  test('without one, an authorization server that offers no registration cannot be signed in to', async () => {
    const f = await fixture({});
    const attempt = signIn(
      provider(f, new MemorySecretStore(), undefined, { userAgent: await loopback([]) }),
      f.mcpUrl,
    );
    await expect(attempt).rejects.toThrow(/dynamic client registration/);
  });

  test('the host never starts an authorization for it in the background', async () => {
    const f = await fixture({ clients: [{ clientId: CLIENT_ID, redirectUris: [LOOPBACK] }] });
    const background = provider(f, new MemorySecretStore(), { clientId: CLIENT_ID, scopes: [] });
    await expect(whoami(f, background)).rejects.toThrow(/sign in/i);
    expect(f.counters.as.interactions).toBe(0);
  });
});

describe('resolveClient', () => {
  // Dangerous direction: a secret sent empty or as the literal `${VAR}` text, or a message that
  // leaves the user guessing which variable to set.
  const store = new MemorySecretStore();
  test.each<
    [string, string | undefined, Record<string, string>, Record<string, string>, ClientResolution]
  >([
    ['a public client', undefined, {}, {}, { ok: true, client: { clientId: 'c', scopes: ['s'] } }],
    [
      'the secret from the environment',
      '${S}',
      { S: 'from-env' },
      { S: 'from-store' },
      { ok: true, client: { clientId: 'c', clientSecret: 'from-env', scopes: ['s'] } },
    ],
    [
      'the secret from the store',
      '${env:S}',
      {},
      { S: 'from-store' },
      { ok: true, client: { clientId: 'c', clientSecret: 'from-store', scopes: ['s'] } },
    ],
  ])('%s', async (_label, secret, env, stored, expected) => {
    for (const [name, value] of Object.entries(stored)) await store.set(variableKey(name), value);
    const client = {
      clientId: 'c',
      ...(secret === undefined ? {} : { clientSecret: secret }),
      scopes: ['s'],
    };
    const sources = { env, platform: 'linux' as const, store: () => Promise.resolve(store) };
    expect(await resolveClient('gh', client, sources)).toEqual(expected);
    await store.delete(variableKey('S'));
  });

  test.each<[string, Record<string, string>, RegExp]>([
    [
      'set nowhere',
      {},
      /'gh' needs GH_SECRET, which is not set: .*switchyard secret set GH_SECRET/,
    ],
    ['set empty', { GH_SECRET: '' }, /set but empty/],
  ])('refuses a secret %s, naming the variable', async (_label, env, message) => {
    const client = { clientId: 'c', clientSecret: '${GH_SECRET}', scopes: [] };
    const resolved = await resolveClient('gh', client, {
      env,
      platform: 'linux',
      store: () => Promise.resolve(new MemorySecretStore()),
    });
    expect(resolved.ok).toBe(false);
    if (!resolved.ok) expect(resolved.message).toMatch(message);
  });
});
