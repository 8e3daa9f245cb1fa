import { isLoopbackHost } from '../../protocol/remote-url';
/**
 * The canonical resource URL of an MCP server (MCP authorization, "Canonical Server URI"; RFC
 * 8707 §2): lowercase scheme and host (the URL parser does that), no fragment, no default port,
 * and no trailing slash, so `https://Example.com:443/mcp/#x` and `https://example.com/mcp` are
 * one resource. Stored tokens carry it, and a token is only handed out for the resource it was
 * stored for: a server whose URL changes to another resource is signed out, never sent the old
 * server's token.
 *
 * Returns undefined for a URL that cannot be a remote MCP server (not http(s), credentials in it,
 * or unparsable). Plain http is accepted only for loopback hosts (RFC 8252 §8.3 style local
 * development); everything else must be https, because a bearer token over plain http is a
 * token given away.
 */
export function canonicalResource(serverUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(serverUrl);
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '') return undefined;
  if (url.protocol === 'http:') {
    if (!isLoopbackHost(url.hostname)) return undefined;
  } else if (url.protocol !== 'https:') {
    return undefined;
  }
  url.hash = '';
  const path = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/** What the store holds for one server, each under `oauth:<server>:<what>`. */
export const OAUTH_RECORDS = [
  'client',
  'tokens',
  'verifier',
  'discovery',
  'pending',
  /** The issuer a machine-to-machine client was first sent to (decision 0024). */
  'issuer',
] as const;
export type OAuthRecord = (typeof OAUTH_RECORDS)[number];

/** The secret-store key of one record (`secrets/secret-store.ts`: `oauth:<server>:<what>`). */
export function oauthKey(server: string, what: OAuthRecord): string {
  return `oauth:${server}:${what}`;
}

/** The server a key belongs to and which record it is, or undefined for another key. */
export function parseOAuthKey(key: string): { server: string; what: OAuthRecord } | undefined {
  if (!key.startsWith('oauth:')) return undefined;
  const rest = key.slice('oauth:'.length);
  const at = rest.lastIndexOf(':');
  if (at <= 0) return undefined;
  const what = rest.slice(at + 1);
  const record = OAUTH_RECORDS.find((r) => r === what);
  return record === undefined ? undefined : { server: rest.slice(0, at), what: record };
}

/**
 * Whether a redirect URI registered for a client covers the one a flow uses now. Exact match, or,
 * for loopback `http` redirects, equal but for the port (RFC 8252 §7.3: the port is chosen at
 * each sign-in and the authorization server must accept any).
 */
export function redirectCovered(registered: readonly string[], current: string): boolean {
  if (registered.includes(current)) return true;
  const portless = loopbackWithoutPort(current);
  return portless !== undefined && registered.some((r) => loopbackWithoutPort(r) === portless);
}

function loopbackWithoutPort(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || !isLoopbackHost(url.hostname)) return undefined;
  url.port = '';
  return url.href;
}
