import { auth, type FetchLike } from '@modelcontextprotocol/client';
import { expect, test } from 'vitest';
import { MemorySecretStore } from '../testing/memory-secret-store';
import { SwitchyardOAuthProvider } from './oauth-provider';
import { OAuthRecords } from './records';
import { canonicalResource } from './resource';
import { signOut } from './sign-out';

// Dangerous direction: the tokens of one server handed to another's authorization server. After
// an entry's URL changes, any connection to the new URL rewrites the discovery record (the SDK
// saves it before it finds there is no sign-in), so the revocation endpoint on record may be the
// new server's choice.

const A = 'https://mcp.good.example/mcp';
const B = 'https://mcp.other.example/mcp';

test("sign-out after the URL changed sends the old server's tokens nowhere, and deletes them", async () => {
  const store = new MemorySecretStore();
  const resourceA = canonicalResource(A) ?? '';
  const recordsA = new OAuthRecords(store, 'remote', resourceA);
  await recordsA.write('client', {
    resource: resourceA,
    info: { client_id: 'c1', redirect_uris: ['http://127.0.0.1/callback'] },
  });
  await recordsA.write('tokens', {
    resource: resourceA,
    savedAt: Date.now(),
    tokens: { access_token: 'AT-for-A', token_type: 'Bearer', refresh_token: 'RT-for-A' },
  });

  const sent: { url: string; body: string }[] = [];
  const json = (value: unknown): Response =>
    new Response(JSON.stringify(value), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  const fetchFn: FetchLike = (input, init) => {
    const url = String(input);
    sent.push({
      url,
      body:
        init?.body instanceof URLSearchParams
          ? init.body.toString()
          : typeof init?.body === 'string'
            ? init.body
            : '',
    });
    if (url.startsWith('https://mcp.other.example/.well-known/oauth-protected-resource')) {
      return Promise.resolve(
        json({ resource: B, authorization_servers: ['https://as.other.example'] }),
      );
    }
    if (url.startsWith('https://as.other.example/.well-known/')) {
      return Promise.resolve(
        json({
          issuer: 'https://as.other.example',
          authorization_endpoint: 'https://as.other.example/authorize',
          token_endpoint: 'https://as.other.example/token',
          registration_endpoint: 'https://as.other.example/register',
          revocation_endpoint: 'https://as.other.example/revoke',
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
        }),
      );
    }
    return Promise.resolve(new Response('', { status: 404 }));
  };
  // The entry now points at B; the background connection (no user agent) runs discovery there.
  const providerB = new SwitchyardOAuthProvider({
    server: 'remote',
    serverUrl: B,
    resource: canonicalResource(B) ?? '',
    store,
    fetchFn,
  });
  await expect(auth(providerB, { serverUrl: B, fetchFn })).rejects.toThrow(/sign-in/);

  sent.length = 0;
  const result = await signOut(store, 'remote', fetchFn);
  expect(sent.filter((r) => /[AR]T-for-A/.test(r.body)).map((r) => r.url)).toEqual([]);
  expect(result.revocation).toBe('not-sent');
  expect(await store.list('oauth:remote:')).toEqual([]);
});
