import { randomBytes } from 'node:crypto';
import {
  auth,
  checkResourceAllowed,
  OAuthError,
  validateAuthorizationResponseIssuer,
  validateClientMetadataUrl,
  type FetchLike,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { SecretStore } from '../secrets/secret-store';
import { HOST_VERSION } from '../shared/version';
import { AuthFlowError, signInRequired, untrustedAuthText } from './auth-errors';
import { parseCallback } from './callback';
import type { ClientCredentials } from './pre-registered-client';
import { OAuthRecords, type TokensRecord } from './records';
import { redirectCovered } from './resource';
import type { UserAgent } from './user-agent';

/** Refresh this long before the access token expires (and on any 401). */
export const REFRESH_SKEW_MS = 60_000;

/** The redirect a non-interactive provider reports: it never redirects, but the SDK needs one. */
const NON_INTERACTIVE_REDIRECT = 'http://127.0.0.1/callback';

export interface OAuthProviderOptions {
  /** The server's name in config.json: the store's key namespace. */
  readonly server: string;
  /** The server's URL (`url` of its entry). */
  readonly serverUrl: string;
  /** Its canonical resource (`canonicalResource(serverUrl)`): every record is bound to it. */
  readonly resource: string;
  readonly store: SecretStore;
  /**
   * Who shows the authorization page. Absent: the provider never starts an authorization (the
   * host starting servers in the background); a server that needs one fails with a message
   * saying how to sign in, and no client is registered behind the user's back.
   */
  readonly userAgent?: UserAgent;
  /**
   * Switchyard's client ID metadata document (an https URL whose document names this client),
   * used as the client id where the authorization server advertises
   * `client_id_metadata_document_supported`; dynamic registration otherwise.
   */
  readonly clientMetadataUrl?: string;
  /**
   * A client registered beforehand at the authorization server (the entry's `oauth`, its secret
   * resolved): presented as is, and nothing is ever registered. Absent: dynamic registration.
   */
  readonly preRegistered?: ClientCredentials;
  readonly fetchFn?: FetchLike;
  readonly now?: () => number;
}

/**
 * Switchyard's `OAuthClientProvider` for one remote server (decision 0018). The SDK's `auth()`
 * runs the flow (discovery from the 401's `WWW-Authenticate`, RFC 9728 and RFC 8414 metadata,
 * PKCE S256, the `resource` indicator, the RFC 9207 `iss` check, refresh, registration); this
 * class keeps its state in the secret store under `oauth:<server>:*`, each record bound to the
 * server's canonical resource, and drives the user agent when the SDK asks to redirect.
 *
 * With a pre-registered client (the entry's `oauth`) nothing is registered: `clientInformation`
 * presents that client, its secret held in memory only, and the SDK authenticates at the token
 * endpoint as the authorization server's metadata allows.
 *
 * The user agent's callback is checked here (our redirect URI, our `state`, then `iss` for an
 * error answer) and the code is exchanged at once by a nested `auth()`; the outer `auth()` then
 * reports `REDIRECT`, and `completedAuthorization` says the tokens are in.
 */
export class SwitchyardOAuthProvider implements OAuthClientProvider {
  readonly clientMetadataUrl: string | undefined;
  readonly records: OAuthRecords;
  /** Set when an authorization through the user agent finished with tokens saved. */
  completedAuthorization = false;
  private readonly now: () => number;
  private expectedState: string | undefined;
  private refreshing: Promise<void> | undefined;
  /** While refreshing ahead of expiry, a redirect is a failed refresh, never a page. */
  private refreshOnly = false;
  private reregistering = false;

  constructor(private readonly options: OAuthProviderOptions) {
    validateClientMetadataUrl(options.clientMetadataUrl);
    this.clientMetadataUrl = options.clientMetadataUrl;
    this.records = new OAuthRecords(options.store, options.server, options.resource);
    this.now = options.now ?? Date.now;
  }

  get interactive(): boolean {
    return this.options.userAgent !== undefined && !this.refreshOnly;
  }

  get redirectUrl(): string {
    return this.options.userAgent?.redirectUri ?? NON_INTERACTIVE_REDIRECT;
  }

  /**
   * The RFC 8707 resource indicator every authorization request, code exchange and refresh
   * carries: the one the server's protected-resource metadata (RFC 9728) names, if it is this
   * server's (its origin, a prefix of its path: the SDK's own check), else the server's canonical
   * URL. Without this hook the SDK sends none to a server that publishes no such metadata (the
   * older fallback where its origin is the authorization server), and the tokens would be bound
   * to no audience.
   */
  validateResourceURL(serverUrl: string | URL, resource?: string): Promise<URL | undefined> {
    if (resource === undefined) return Promise.resolve(new URL(this.options.resource));
    if (!checkResourceAllowed({ requestedResource: serverUrl, configuredResource: resource })) {
      return Promise.reject(
        new AuthFlowError(
          'authorization-server',
          `The server's metadata names the protected resource ${untrustedAuthText(resource)}, which is not ${this.options.resource} or a part of it; not signing in.`,
        ),
      );
    }
    return Promise.resolve(new URL(resource));
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Switchyard',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A public client (OAuth 2.1 §2.1): a secret on the user's machine is no secret.
      token_endpoint_auth_method: 'none',
      software_id: 'switchyard',
      software_version: HOST_VERSION,
    };
  }

  state(): string {
    this.expectedState = randomBytes(32).toString('base64url');
    return this.expectedState;
  }

  /** The scopes the entry asks for on every sign-in (space-separated), if it names any. */
  get configuredScope(): string | undefined {
    const scopes = this.options.preRegistered?.scopes ?? [];
    return scopes.length === 0 ? undefined : scopes.join(' ');
  }

  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    const client = this.options.preRegistered;
    if (client !== undefined) {
      // No token_endpoint_auth_method: the SDK picks one from the authorization server's
      // metadata (client_secret_basic, then _post, when there is a secret; `none` without).
      return {
        client_id: client.clientId,
        ...(client.clientSecret === undefined ? {} : { client_secret: client.clientSecret }),
      };
    }
    const record = await this.records.read('client');
    if (record === undefined) {
      // Registering is a side effect on the authorization server: only when the user signs in.
      if (!this.interactive) {
        throw signInRequired(this.options.server, 'needs sign-in');
      }
      return undefined;
    }
    const info = record.info;
    const registered = info.redirect_uris ?? [];
    // A URL client id (a metadata document) names its redirects in the document, not here.
    const urlClientId = info.client_id === this.clientMetadataUrl;
    if (this.interactive && !urlClientId && !redirectCovered(registered, this.redirectUrl)) {
      return undefined; // registered for another user agent's redirect: register again
    }
    return info;
  }

  async saveClientInformation(info: StoredOAuthClientInformation): Promise<void> {
    // A pre-registered client lives in config.json, and its secret never in a record.
    if (this.options.preRegistered !== undefined) return;
    await this.records.write('client', {
      resource: this.options.resource,
      info: {
        ...info,
        redirect_uris:
          'redirect_uris' in info && Array.isArray(info.redirect_uris)
            ? info.redirect_uris
            : [this.redirectUrl],
      },
    });
  }

  /**
   * The stored tokens. Called without `ctx` by the transport before each request: then a token
   * that expires within `REFRESH_SKEW_MS` is refreshed first (once at a time).
   */
  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const record = await this.records.read('tokens');
    if (record === undefined) return undefined;
    if (ctx === undefined && this.expiresSoon(record) && record.tokens.refresh_token) {
      await this.refreshAhead();
      return (await this.records.read('tokens'))?.tokens;
    }
    return record.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    await this.records.write('tokens', {
      resource: this.options.resource,
      savedAt: this.now(),
      tokens,
    });
  }

  /** When the access token expires (ms since the epoch), if the server said. */
  static expiresAt(record: TokensRecord): number | undefined {
    const seconds = record.tokens.expires_in;
    return seconds === undefined ? undefined : record.savedAt + seconds * 1000;
  }

  /** Within `REFRESH_SKEW_MS` of expiry, or past half its lifetime for a short-lived token. */
  private expiresSoon(record: TokensRecord): boolean {
    const at = SwitchyardOAuthProvider.expiresAt(record);
    if (at === undefined) return false;
    const window = Math.min(REFRESH_SKEW_MS, (at - record.savedAt) / 2);
    return at - this.now() < window;
  }

  private refreshAhead(): Promise<void> {
    this.refreshing ??= (async () => {
      this.refreshOnly = true;
      try {
        await auth(this, {
          serverUrl: this.options.serverUrl,
          ...(this.options.fetchFn === undefined ? {} : { fetchFn: this.options.fetchFn }),
        });
      } catch {
        // Keep the old token: the server's 401 (or the next sign-in) deals with it.
      } finally {
        this.refreshOnly = false;
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const scope = authorizationUrl.searchParams.get('scope') ?? undefined;
    const state = this.expectedState;
    await this.records.write('pending', {
      resource: this.options.resource,
      state: state ?? '',
      redirectUri: this.redirectUrl,
      ...(scope === undefined ? {} : { scope }),
    });
    const agent = this.options.userAgent;
    if (agent === undefined || this.refreshOnly) {
      throw signInRequired(this.options.server, 'needs sign-in');
    }
    if (state === undefined || authorizationUrl.searchParams.get('state') !== state) {
      throw new AuthFlowError('state-mismatch', 'the authorization request lost its state');
    }
    // A registration made for a narrower scope (RFC 7591 `scope`) may be refused a wider
    // request by the authorization server (step-up): register again for the scope asked now.
    const registered = (await this.records.read('client'))?.info.scope;
    if (
      this.options.preRegistered === undefined &&
      !this.reregistering &&
      scope !== undefined &&
      !scopeCovers(registered, scope)
    ) {
      await this.records.remove('client');
      this.reregistering = true;
      try {
        await auth(this, {
          serverUrl: this.options.serverUrl,
          scope,
          forceReauthorization: true,
          ...(this.options.fetchFn === undefined ? {} : { fetchFn: this.options.fetchFn }),
        });
      } finally {
        this.reregistering = false;
      }
      return;
    }
    // MCP authorization: an authorization server's metadata must say it supports PKCE with S256;
    // one that does not may ignore the challenge, leaving a stolen code redeemable by anyone. (A
    // server with no metadata at all, 2025-03-26's default endpoints, gets the challenge anyway.)
    const metadata = (await this.discoveryState())?.authorizationServerMetadata;
    const methods = metadata?.code_challenge_methods_supported;
    if (metadata !== undefined && !(Array.isArray(methods) && methods.includes('S256'))) {
      throw new AuthFlowError(
        'authorization-server',
        `'${this.options.server}': its authorization server does not say it supports PKCE (S256 in "code_challenge_methods_supported"), which MCP requires; not signing in.`,
      );
    }
    const callbackUrl = await agent.authorize(authorizationUrl, this.redirectUrl);
    await this.finishAuthorization(callbackUrl, state);
  }

  /** Checks the callback and exchanges its code (the second leg of `auth()`). */
  private async finishAuthorization(callbackUrl: string, state: string): Promise<void> {
    this.expectedState = undefined;
    const result = parseCallback(callbackUrl, this.redirectUrl, state);
    const server = this.options.server;
    switch (result.kind) {
      case 'refused':
        throw new AuthFlowError(
          result.why === 'state-mismatch' ? 'state-mismatch' : 'invalid-callback',
          result.why === 'state-mismatch'
            ? `'${server}': the sign-in answer carried another state than this sign-in sent; it was ignored. Sign in again.`
            : `'${server}': the sign-in answer did not come back to Switchyard's redirect; it was ignored. Sign in again.`,
        );
      case 'error': {
        // RFC 9207 §2.4: an error answer's text is only believed from the expected issuer.
        const metadata = (await this.discoveryState())?.authorizationServerMetadata;
        validateAuthorizationResponseIssuer({
          iss: result.iss,
          expectedIssuer: metadata?.issuer,
          issParameterSupported: metadata?.authorization_response_iss_parameter_supported === true,
        });
        throw new OAuthError(result.error, result.description ?? result.error);
      }
      case 'code':
        break;
    }
    await auth(this, {
      serverUrl: this.options.serverUrl,
      authorizationCode: result.code,
      ...(result.iss === undefined ? {} : { iss: result.iss }),
      ...(this.options.fetchFn === undefined ? {} : { fetchFn: this.options.fetchFn }),
    });
    this.completedAuthorization = true;
    await this.records.remove('pending');
    await this.records.remove('verifier');
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.records.write('verifier', {
      resource: this.options.resource,
      verifier: codeVerifier,
    });
  }

  async codeVerifier(): Promise<string> {
    const record = await this.records.read('verifier');
    if (record === undefined) {
      throw new AuthFlowError(
        'invalid-callback',
        `'${this.options.server}': no sign-in is in progress (its PKCE verifier is gone); sign in again.`,
      );
    }
    return record.verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.records.write('discovery', { resource: this.options.resource, state });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.records.read('discovery'))?.state;
  }

  async invalidateCredentials(
    scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery',
  ): Promise<void> {
    const what =
      scope === 'all' ? (['client', 'tokens', 'verifier', 'discovery'] as const) : [scope];
    for (const record of what) await this.records.remove(record);
    const client = this.options.preRegistered;
    if (client !== undefined && scope === 'client') {
      // The SDK discards a client the AS refused (invalid_client) and starts over to register
      // another; a pre-registered one would only be refused again, after a second page.
      throw new AuthFlowError(
        'authorization-server',
        `'${this.options.server}': the authorization server refused the OAuth client ${JSON.stringify(untrustedAuthText(client.clientId))}: check oauth.clientId in config.json and the value of its oauth.clientSecret variable (\`switchyard secret set\`).`,
      );
    }
  }

  /** The scope a step-up asked for that no sign-in has granted yet, if any. */
  async pendingScope(): Promise<string | undefined> {
    return (await this.records.read('pending'))?.scope;
  }
}

/** Whether a registration's scope (absent: unrestricted) covers every scope in `wanted`. */
function scopeCovers(registered: string | undefined, wanted: string): boolean {
  if (registered === undefined) return true;
  const have = new Set(registered.split(' '));
  return wanted.split(' ').every((s) => s === '' || have.has(s));
}

export { untrustedAuthText };
