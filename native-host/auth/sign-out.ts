import type { FetchLike } from '@modelcontextprotocol/client';
import type { SecretStore } from '../secrets/secret-store';
import { readUnbound } from './records';
import { isLoopbackHost } from '../../protocol/remote-url';
import { oauthKey, OAUTH_RECORDS } from './resource';

/** What sign-out did. */
export interface SignOutResult {
  /** `revoked`: the AS accepted the revocation; `unsupported`: it has no revocation endpoint;
   * `not-sent`: the tokens were issued for another URL of the server than the one whose
   * authorization server is known now, so they were not sent there; `failed`: it did not accept
   * (the tokens are deleted anyway); `nothing`: no tokens stored. */
  readonly revocation: 'revoked' | 'unsupported' | 'not-sent' | 'failed' | 'nothing';
  /** How many stored records were deleted. */
  readonly deleted: number;
}

const REVOKE_TIMEOUT_MS = 10_000;

/**
 * Signs out of one server: revokes the refresh token, then the access token, at the
 * authorization server's `revocation_endpoint` (RFC 7009) when its metadata names one over https
 * (or loopback), then deletes every `oauth:<server>:*` record. Deleting does not wait on the
 * revocation: a server that cannot be reached still leaves this machine without its tokens.
 *
 * The tokens go only where they were issued: the client and the authorization server's metadata
 * must be records of the tokens' own resource. After the entry's URL changed, the metadata on
 * record is the new URL's (any connection to it rewrites it), and that server's authorization
 * server must never see the old server's tokens.
 */
export async function signOut(
  store: SecretStore,
  server: string,
  fetchFn: FetchLike = fetch,
): Promise<SignOutResult> {
  const stored = await readUnbound(store, server, 'tokens');
  const tokens = stored?.tokens;
  const clientRecord = await readUnbound(store, server, 'client');
  const discovery = await readUnbound(store, server, 'discovery');
  const client = clientRecord?.info;
  const metadata = discovery?.state.authorizationServerMetadata;
  let revocation: SignOutResult['revocation'] = 'nothing';
  if (stored !== undefined && tokens !== undefined) {
    const elsewhere = [clientRecord, discovery].some(
      (record) => record !== undefined && record.resource !== stored.resource,
    );
    revocation = elsewhere ? 'not-sent' : await revokeAt(fetchFn, metadata, client, tokens);
  }
  let deleted = 0;
  for (const what of OAUTH_RECORDS) {
    if (await store.delete(oauthKey(server, what))) deleted += 1;
  }
  return { revocation, deleted };
}

/** Revokes `tokens` at the revocation endpoint `metadata` names, if it names a secure one. */
async function revokeAt(
  fetchFn: FetchLike,
  metadata: object | undefined,
  client: { client_id: string; client_secret?: string | undefined } | undefined,
  tokens: { access_token: string; refresh_token?: string | undefined },
): Promise<SignOutResult['revocation']> {
  const named =
    metadata !== undefined && 'revocation_endpoint' in metadata
      ? metadata.revocation_endpoint
      : undefined;
  const endpoint = secureEndpoint(typeof named === 'string' ? named : undefined);
  if (endpoint === undefined || client === undefined) return 'unsupported';
  const results: boolean[] = [];
  if (tokens.refresh_token !== undefined) {
    results.push(await revoke(fetchFn, endpoint, client, tokens.refresh_token, 'refresh_token'));
  }
  results.push(await revoke(fetchFn, endpoint, client, tokens.access_token, 'access_token'));
  return results.every(Boolean) ? 'revoked' : 'failed';
}

function secureEndpoint(raw: string | undefined): URL | undefined {
  if (raw === undefined) return undefined;
  try {
    const url = new URL(raw);
    if (url.protocol === 'https:') return url;
    return url.protocol === 'http:' && isLoopbackHost(url.hostname) ? url : undefined;
  } catch {
    return undefined;
  }
}

async function revoke(
  fetchFn: FetchLike,
  endpoint: URL,
  client: { client_id: string; client_secret?: string | undefined },
  token: string,
  hint: 'refresh_token' | 'access_token',
): Promise<boolean> {
  const body = new URLSearchParams({ token, token_type_hint: hint, client_id: client.client_id });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (client.client_secret !== undefined) {
    // RFC 6749 §2.3.1: a confidential client authenticates to the endpoint.
    headers['authorization'] =
      `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`;
    body.delete('client_id');
  }
  try {
    const response = await fetchFn(endpoint, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(REVOKE_TIMEOUT_MS),
    });
    await response.body?.cancel().catch(() => undefined);
    return response.ok;
  } catch {
    return false;
  }
}
