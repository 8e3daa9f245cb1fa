import type { SecretStore } from '../secrets/secret-store';
import { MAX_SCOPE_CHARS, MAX_SCOPES } from '../config/oauth-entry';
import { untrustedAuthText } from './auth-errors';
import { readUnbound, type TokensRecord } from './records';
import { parseOAuthKey } from './resource';

/** What `switchyard auth --status` and the popup show for one server; never a token. */
export interface SignInStatus {
  readonly server: string;
  readonly resource: string;
  readonly issuer: string | undefined;
  /** Who, if the ID token says (`name`, `email`, `preferred_username` or `sub`), gated text. */
  readonly subject: string | undefined;
  readonly scopes: readonly string[];
  /** When the access token expires (ms since the epoch), if the server said. */
  readonly expiresAt: number | undefined;
  readonly refreshable: boolean;
}

export function describeTokens(server: string, record: TokensRecord): SignInStatus {
  const { tokens } = record;
  return {
    server,
    resource: record.resource,
    issuer: tokens.issuer === undefined ? undefined : untrustedAuthText(tokens.issuer),
    subject: tokens.id_token === undefined ? undefined : subjectOf(tokens.id_token),
    // What the authorization server says it granted: its text, shown in a terminal and the popup.
    scopes: (tokens.scope ?? '')
      .split(' ')
      .filter((s) => s !== '')
      .slice(0, MAX_SCOPES)
      .map((scope) => untrustedAuthText(scope).slice(0, MAX_SCOPE_CHARS)),
    expiresAt:
      tokens.expires_in === undefined ? undefined : record.savedAt + tokens.expires_in * 1000,
    refreshable: tokens.refresh_token !== undefined,
  };
}

/**
 * A display name from an ID token's payload. Not verified: it is a label for the user, never a
 * decision, and it is server text, so it goes through the untrusted-text gate.
 */
export function subjectOf(idToken: string): string | undefined {
  const payload = idToken.split('.')[1];
  if (payload === undefined || payload.length > 16_384) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof claims !== 'object' || claims === null) return undefined;
  const record = claims as Record<string, unknown>;
  for (const claim of ['name', 'email', 'preferred_username', 'sub']) {
    const value = record[claim];
    if (typeof value === 'string' && value !== '') return untrustedAuthText(value).slice(0, 120);
  }
  return undefined;
}

/** Every server with stored tokens, by name. */
export async function listSignIns(store: SecretStore): Promise<SignInStatus[]> {
  const servers = new Set<string>();
  for (const key of await store.list('oauth:')) {
    const parsed = parseOAuthKey(key);
    if (parsed?.what === 'tokens') servers.add(parsed.server);
  }
  const out: SignInStatus[] = [];
  for (const server of [...servers].sort()) {
    const record = await readUnbound(store, server, 'tokens');
    if (record !== undefined) out.push(describeTokens(server, record));
  }
  return out;
}
