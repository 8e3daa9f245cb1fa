import { createPrivateKey } from 'node:crypto';
import {
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  PrivateKeyJwtProvider,
  type AddClientAuthentication,
  type AssertionCallback,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { JwtAlgorithm, OAuthGrant } from '../shared/server-spec';
import { AuthFlowError, untrustedAuthText } from './auth-errors';
import type { ClientCredentials } from './pre-registered-client';

/**
 * A machine-to-machine client (SEP-1046, decision 0024): an entry's `oauth` with
 * `"grant": "client_credentials"`. The SDK's own providers run the grant and sign the assertion
 * (`ClientCredentialsProvider` for a secret, `PrivateKeyJwtProvider` for `private_key_jwt`,
 * RFC 7523); this class adds what the host needs around them:
 *
 * - **The issuer pin.** The credentials go to one authorization server: the entry's `issuer`,
 *   else the one the server named the first time, remembered (`IssuerPin`) so that a server
 *   that later names another (compromised, or its metadata swapped) is refused before anything
 *   is sent. The SDK enforces the stamp (SEP-2352): a client stamped for another issuer throws
 *   `AuthorizationServerMismatchError` and no token request is made.
 * - **Tokens in memory only.** A token is minted at each connection and on each 401; nothing of
 *   it reaches the secret store (there is no refresh token to keep, and a fresh grant is one
 *   request).
 * - **A refused client fails once, by name**, instead of the SDK's retry after discarding it.
 *
 * The secret or key is resolved from its `${VAR}` before this is built and lives only here.
 *
 * A cross-app access client (`"grant": "cross-app-access"`, SEP-990, decision 0032) is the same
 * with the SDK's `CrossAppAccessProvider` inside: its token request presents an ID-JAG that
 * `assertion` (cross-app-access.ts) got from the company IdP, with `client_secret_basic`.
 */

/** What a sign-in asked of a machine client says: there is none to do. */
export function machineNeedsNoSignIn(
  server: string,
  grant: OAuthGrant = 'client_credentials',
): string {
  if (grant === 'cross-app-access') {
    return `'${server}' uses cross-app access ("grant": "cross-app-access" in its oauth): it gets its tokens with your company IdP's ID token (oauth.idp.idToken) when it starts, with no sign-in here. Update that variable when the ID token expires, then restart the server.`;
  }
  return `'${server}' uses client credentials ("grant": "client_credentials" in its oauth): it gets its tokens itself when it starts, with no sign-in. Restart it to get a fresh token.`;
}

/** Where the first-use issuer is remembered (the secret store, under `oauth:<server>:issuer`). */
export interface IssuerPin {
  read(): Promise<string | undefined>;
  write(issuer: string): Promise<void>;
}

export interface MachineClientOptions {
  readonly server: string;
  readonly client: ClientCredentials;
  /** Absent (no usable store): the first issuer is pinned for the life of this provider only. */
  readonly pin?: IssuerPin;
  /** Cross-app access: where the ID-JAG comes from (cross-app-access.ts). */
  readonly assertion?: AssertionCallback;
}

type Inner = ClientCredentialsProvider | PrivateKeyJwtProvider | CrossAppAccessProvider;

export class MachineClientProvider implements OAuthClientProvider {
  readonly addClientAuthentication?: AddClientAuthentication;
  private inner: Inner | undefined;
  private pinned: string | undefined;
  private current: StoredOAuthTokens | undefined;
  private readonly privateKeyPem: string | undefined;
  private readonly algorithm: JwtAlgorithm | undefined;
  /** What the SDK discovered (RFC 9728), for a cross-app access grant's ID-JAG. */
  private discovered: { issuer?: string; resource?: string } = {};

  private constructor(
    private readonly options: MachineClientOptions,
    pinned: string | undefined,
  ) {
    this.pinned = options.client.issuer ?? pinned;
    const key = options.client.privateKey;
    if (key !== undefined) {
      const read = readPrivateKey(options.server, key, options.client.algorithm);
      this.privateKeyPem = read.pem;
      this.algorithm = read.algorithm;
      // The SDK's provider signs the assertion; it is built once the issuer is known.
      this.addClientAuthentication = async (headers, params, url, metadata) => {
        const inner = this.innerFor(undefined);
        if (inner instanceof PrivateKeyJwtProvider) {
          await inner.addClientAuthentication(headers, params, url, metadata);
        }
      };
    }
  }

  /** Reads the pin first, so a pinned issuer is enforced from the first request. */
  static async create(options: MachineClientOptions): Promise<MachineClientProvider> {
    const pinned = options.client.issuer === undefined ? await options.pin?.read() : undefined;
    return new MachineClientProvider(options, pinned);
  }

  /** No redirect: the SDK's `auth()` then asks for tokens directly (a non-interactive flow). */
  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.options.client.scopes.join(' ');
    const crossApp = this.options.assertion !== undefined;
    return {
      client_name: 'Switchyard',
      redirect_uris: [],
      grant_types: [
        crossApp ? 'urn:ietf:params:oauth:grant-type:jwt-bearer' : 'client_credentials',
      ],
      token_endpoint_auth_method:
        this.privateKeyPem === undefined ? 'client_secret_basic' : 'private_key_jwt',
      ...(scope === '' ? {} : { scope }),
    };
  }

  /** The issuer the credentials are sent to: the entry's, the pinned one, or (first use) ctx's. */
  get issuer(): string | undefined {
    return this.pinned;
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation {
    const pinned = this.pinned;
    if (pinned !== undefined && ctx !== undefined && !sameIssuer(pinned, ctx.issuer)) {
      // The SDK would refuse too (the stamp); this names the pin and how to move it.
      const where =
        this.options.client.issuer === undefined
          ? 'the one it named when first used'
          : 'oauth.issuer in config.json';
      throw new AuthFlowError(
        'issuer-mismatch',
        `'${this.options.server}': its server now names the authorization server ${JSON.stringify(untrustedAuthText(ctx.issuer))}, not ${JSON.stringify(pinned)} (${where}); its client credentials were not sent. If the server really moved, set oauth.issuer, or forget the old one with \`switchyard auth ${this.options.server} --sign-out\`.`,
      );
    }
    return this.innerFor(ctx?.issuer).clientInformation();
  }

  private innerFor(offered: string | undefined): Inner {
    if (this.inner !== undefined) return this.inner;
    // First use without an entry's issuer: the one the server names now is stamped (and, once a
    // token came back, remembered); every later request must meet the same one.
    const expectedIssuer = this.pinned ?? offered;
    if (expectedIssuer === undefined) {
      throw new AuthFlowError(
        'authorization-server',
        `'${this.options.server}': no authorization server is known for its client credentials yet`,
      );
    }
    this.pinned = expectedIssuer;
    const { clientId, clientSecret } = this.options.client;
    const scope = this.options.client.scopes.join(' ') || undefined;
    const common = { clientId, clientName: 'Switchyard', expectedIssuer, scope };
    if (this.options.assertion !== undefined) {
      this.inner = new CrossAppAccessProvider({
        assertion: this.options.assertion,
        clientId,
        clientSecret: clientSecret ?? '',
        clientName: 'Switchyard',
        expectedIssuer,
      });
    } else if (this.privateKeyPem !== undefined && this.algorithm !== undefined) {
      this.inner = new PrivateKeyJwtProvider({
        ...common,
        privateKey: this.privateKeyPem,
        algorithm: this.algorithm,
      });
    } else {
      this.inner = new ClientCredentialsProvider({ ...common, clientSecret: clientSecret ?? '' });
    }
    return this.inner;
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.current;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    this.current = tokens;
    if (this.options.client.issuer === undefined && tokens.issuer !== undefined) {
      const known = await this.options.pin?.read();
      if (known === undefined) await this.options.pin?.write(tokens.issuer);
    }
  }

  prepareTokenRequest(scope?: string): URLSearchParams | Promise<URLSearchParams> {
    const inner = this.innerFor(undefined);
    if (inner instanceof CrossAppAccessProvider) {
      // The SDK tells the outer provider what it discovered; the inner one builds the grant.
      if (this.discovered.issuer !== undefined) {
        // Deprecated for providers that store an issuer stamp; CrossAppAccessProvider still reads
        // it for the ID-JAG's audience (the SDK's own note names it), so it is the one way in.
        // eslint-disable-next-line @typescript-eslint/no-deprecated
        inner.saveAuthorizationServerUrl(this.discovered.issuer);
      }
      if (this.discovered.resource !== undefined) inner.saveResourceUrl?.(this.discovered.resource);
    }
    return inner.prepareTokenRequest(scope);
  }

  /** The issuer the SDK discovered (called before `clientInformation`, which checks the pin). */
  saveAuthorizationServerUrl(issuer: string): void {
    this.discovered = { ...this.discovered, issuer };
  }

  /** The MCP server's resource (RFC 9728): the ID-JAG is asked for it. */
  saveResourceUrl(resource: string): void {
    this.discovered = { ...this.discovered, resource };
  }

  redirectToAuthorization(): void {
    throw new AuthFlowError(
      'authorization-server',
      `'${this.options.server}' uses client credentials: it has no sign-in page to open`,
    );
  }

  saveCodeVerifier(): void {
    // No authorization code, no verifier.
  }

  codeVerifier(): string {
    throw new AuthFlowError('authorization-server', 'client credentials have no PKCE verifier');
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.current = undefined;
    if (scope !== 'client') return;
    this.current = undefined;
    // The SDK discards a refused client to register another; this one would be refused again.
    const credential = this.privateKeyPem === undefined ? 'oauth.clientSecret' : 'oauth.privateKey';
    throw new AuthFlowError(
      'authorization-server',
      `'${this.options.server}': the authorization server refused the client credentials of ${JSON.stringify(untrustedAuthText(this.options.client.clientId))}: check oauth.clientId in config.json and the value of the ${credential} variable (\`switchyard secret set\`).`,
    );
  }
}

/**
 * The key as PKCS #8 PEM (what the SDK's signer imports; a PKCS #1 or SEC 1 key is converted)
 * and the algorithm it signs with: the entry's, else the key's own (ES256 for P-256, ES384 for
 * P-384, ES512 for P-521, RS256 for RSA, PS256 for RSA-PSS). A value that is no private key is
 * an error naming the server, never the value.
 */
export function readPrivateKey(
  server: string,
  pem: string,
  configured: JwtAlgorithm | undefined,
): { pem: string; algorithm: JwtAlgorithm } {
  let key;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new AuthFlowError(
      'authorization-server',
      `'${server}': the oauth.privateKey variable does not hold a PEM private key`,
    );
  }
  const algorithm = configured ?? defaultAlgorithm(key.asymmetricKeyType, key.asymmetricKeyDetails);
  if (algorithm === undefined) {
    throw new AuthFlowError(
      'authorization-server',
      `'${server}': its private key is of a kind with no default algorithm (${key.asymmetricKeyType ?? 'unknown'}); set oauth.algorithm`,
    );
  }
  return { pem: key.export({ type: 'pkcs8', format: 'pem' }).toString(), algorithm };
}

function defaultAlgorithm(
  type: string | undefined,
  details: { namedCurve?: string } | undefined,
): JwtAlgorithm | undefined {
  if (type === 'rsa') return 'RS256';
  if (type === 'rsa-pss') return 'PS256';
  if (type !== 'ec') return undefined;
  const curves: Readonly<Record<string, JwtAlgorithm>> = {
    prime256v1: 'ES256',
    secp384r1: 'ES384',
    secp521r1: 'ES512',
  };
  return details?.namedCurve === undefined ? undefined : curves[details.namedCurve];
}

/** RFC 8414 issuers compared as the SDK does: equal, or but for one trailing slash. */
function sameIssuer(a: string, b: string): boolean {
  const trim = (s: string) => (s.endsWith('/') ? s.slice(0, -1) : s);
  return trim(a) === trim(b);
}
