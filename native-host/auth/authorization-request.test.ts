import { auth, type FetchLike } from '@modelcontextprotocol/client';
import { expect, test } from 'vitest';
import { MemorySecretStore } from '../testing/memory-secret-store';
import { SwitchyardOAuthProvider } from './oauth-provider';
import { canonicalResource } from './resource';

// Dangerous direction: a token good for any audience, or a code good for anyone who steals it.
// Every sign-in names the server it is for (RFC 8707), also when the server publishes no
// protected-resource metadata (RFC 9728) and its own origin serves the authorization server's
// metadata, the older arrangement; and none starts at an authorization server that does not say
// it supports PKCE with S256.

const SERVER = 'https://mcp.example/mcp';

function fetchWith(resourceMetadata: unknown, pkce: unknown): FetchLike {
  const json = (value: unknown): Response =>
    new Response(JSON.stringify(value), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  return (input) => {
    const url = String(input);
    if (url.includes('oauth-protected-resource')) {
      return Promise.resolve(
        resourceMetadata === undefined ? new Response('', { status: 404 }) : json(resourceMetadata),
      );
    }
    if (url.startsWith('https://mcp.example/.well-known/oauth-authorization-server')) {
      return Promise.resolve(
        json({
          issuer: 'https://mcp.example/',
          authorization_endpoint: 'https://mcp.example/authorize',
          token_endpoint: 'https://mcp.example/token',
          registration_endpoint: 'https://mcp.example/register',
          response_types_supported: ['code'],
          ...(pkce === null ? {} : { code_challenge_methods_supported: pkce }),
        }),
      );
    }
    if (url === 'https://mcp.example/register') {
      return Promise.resolve(
        json({ client_id: 'c1', redirect_uris: ['http://127.0.0.1:1/callback'] }),
      );
    }
    return Promise.resolve(new Response('', { status: 404 }));
  };
}

/** The authorization request the user agent is sent to, or the error that stopped it. */
async function authorizationRequest(
  resourceMetadata: unknown,
  pkce: unknown = ['S256'],
): Promise<URL | Error> {
  const fetchFn = fetchWith(resourceMetadata, pkce);
  let seen: URL | undefined;
  const provider = new SwitchyardOAuthProvider({
    server: 'remote',
    serverUrl: SERVER,
    resource: canonicalResource(SERVER) ?? '',
    store: new MemorySecretStore(),
    fetchFn,
    userAgent: {
      redirectUri: 'http://127.0.0.1:1/callback',
      authorize: (url) => {
        seen = url;
        return Promise.reject(new Error('stopped at the authorization request'));
      },
    },
  });
  const failure = await auth(provider, { serverUrl: SERVER, fetchFn }).then(
    () => undefined,
    (error: unknown) => error,
  );
  return seen ?? (failure instanceof Error ? failure : new Error(String(failure)));
}

test('without protected-resource metadata, the request names the server itself', async () => {
  const request = await authorizationRequest(undefined);
  if (request instanceof Error) throw request;
  expect(request.searchParams.get('resource')).toBe(canonicalResource(SERVER));
});

test("with metadata, it names the metadata's resource when that is this server's", async () => {
  const request = await authorizationRequest({
    resource: 'https://mcp.example/',
    authorization_servers: ['https://mcp.example/'],
  });
  if (request instanceof Error) throw request;
  expect(request.searchParams.get('resource')).toBe('https://mcp.example/');
});

test("metadata naming another server's resource stops the sign-in", async () => {
  const request = await authorizationRequest({
    resource: 'https://other.example/mcp',
    authorization_servers: ['https://mcp.example/'],
  });
  expect(request).toBeInstanceOf(Error);
  expect(String(request)).toMatch(/protected resource/i);
});

test.each([
  ['does not say which PKCE methods it supports', null, /does not say it supports PKCE/],
  ['supports only plain', ['plain'], /code challenge method S256/],
  ['says something else', 'S256', /expected array/],
])(
  'an authorization server that %s is refused before the user agent opens',
  async (_, pkce, why) => {
    const request = await authorizationRequest(undefined, pkce);
    expect(request).toBeInstanceOf(Error);
    expect(String(request)).toMatch(why);
  },
);
