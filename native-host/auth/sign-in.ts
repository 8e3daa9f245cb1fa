import {
  auth,
  computeScopeUnion,
  extractWWWAuthenticateParams,
  type FetchLike,
} from '@modelcontextprotocol/client';
import { AuthFlowError } from './auth-errors';
import type { SwitchyardOAuthProvider } from './oauth-provider';
import { describeTokens, type SignInStatus } from './sign-in-status';

/** What an unauthenticated request to the server says about signing in (RFC 9728 §5.1). */
export interface Challenge {
  readonly status: number;
  readonly resourceMetadataUrl?: URL;
  readonly scope?: string;
}

const PROBE_TIMEOUT_MS = 15_000;

/**
 * Sends one unauthenticated MCP request (a `ping`) and reads the answer's `WWW-Authenticate`:
 * where the protected-resource metadata is, and the scope the server wants. A server that
 * answers without asking for a token gets an empty challenge (discovery then uses the
 * well-known URLs).
 */
export async function probeServer(
  serverUrl: string,
  fetchFn: FetchLike = fetch,
): Promise<Challenge> {
  const response = await fetchFn(serverUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }),
    redirect: 'manual',
    signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
  });
  await response.body?.cancel().catch(() => undefined);
  if (response.status !== 401) return { status: response.status };
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  return {
    status: response.status,
    ...(resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl }),
    ...(scope === undefined ? {} : { scope }),
  };
}

/**
 * Signs in to one server through the provider's user agent: probes the server for its
 * challenge, then runs the SDK's `auth()` with a fresh authorization (never just a refresh: the
 * user asked to sign in), asking for the union of what the server challenges for, what a
 * step-up still waits for, what is granted already (so signing in again never narrows) and the
 * scopes the entry's `oauth` names.
 */
export async function signIn(
  provider: SwitchyardOAuthProvider,
  serverUrl: string,
  fetchFn?: FetchLike,
): Promise<SignInStatus> {
  if (!provider.interactive) {
    throw new AuthFlowError('sign-in-required', 'signing in needs a user agent');
  }
  const challenge = await probeServer(serverUrl, fetchFn);
  const granted = (await provider.records.read('tokens'))?.tokens.scope;
  const scope = computeScopeUnion(
    challenge.scope,
    await provider.pendingScope(),
    granted,
    provider.configuredScope,
  );
  provider.completedAuthorization = false;
  const completed = (): boolean => provider.completedAuthorization;
  await auth(provider, {
    serverUrl,
    ...(challenge.resourceMetadataUrl === undefined
      ? {}
      : { resourceMetadataUrl: challenge.resourceMetadataUrl }),
    ...(scope === undefined ? {} : { scope }),
    forceReauthorization: true,
    ...(fetchFn === undefined ? {} : { fetchFn }),
  });
  const record = await provider.records.read('tokens');
  if (!completed() || record === undefined) {
    throw new AuthFlowError('sign-in-required', 'the sign-in ended without tokens');
  }
  return describeTokens(provider.records.server, record);
}
