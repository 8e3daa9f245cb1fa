/**
 * A configured server as the host layers pass it around: built from config by the setup, launched
 * by the fleet, fingerprinted by the launch gate, diffed by a reload. Types only, so every layer
 * can name them without importing the layer that builds them.
 */

/**
 * How the host talks to a remote server: Streamable HTTP (the current transport), the legacy
 * HTTP+SSE transport of the 2024-11-05 revision, or `auto`: Streamable HTTP, falling back to
 * HTTP+SSE when the server answers the first POST with 400, 404 or 405, as the specification's
 * backwards-compatibility section describes. `auto` is what an entry that names only a URL gets.
 */
export type RemoteTransport = 'streamable-http' | 'sse' | 'auto';

/** A remote server: where the host connects instead of spawning a process. */
export interface RemoteEndpoint {
  readonly transport: RemoteTransport;
  /** As written: only `headers` values are expanded (`${VAR}`), at connect time. */
  readonly url: string;
  /** Header values unexpanded, like `env` (see env.ts). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * An OAuth client registered beforehand at the server's authorization server (`"oauth"` in
   * the entry), used instead of dynamic registration. Absent: the host registers one itself.
   */
  readonly oauth?: PreRegisteredClient;
}

/**
 * A pre-registered OAuth client as configured (config/remote-entry.ts checks it). The secret is
 * never in config.json: `clientSecret` is a `${VAR}` reference, resolved at sign-in like a
 * header value (the environment, then `switchyard secret set`).
 */
export interface PreRegisteredClient {
  readonly clientId: string;
  /** A `${VAR}` reference, unexpanded; absent for a public client. */
  readonly clientSecret?: string;
  /** Scopes always asked for, besides what the server challenges for. */
  readonly scopes: readonly string[];
  /**
   * `client_credentials`: a machine-to-machine client (SEP-1046) that gets its tokens itself,
   * with no person signing in. Absent: the authorization code flow, a person at the page.
   */
  readonly grant?: OAuthGrant;
  /**
   * A `${VAR}` holding the client's PEM private key, unexpanded: the client authenticates with a
   * signed JWT (`private_key_jwt`, RFC 7523) instead of `clientSecret`. Client credentials only.
   */
  readonly privateKey?: string;
  /** The JWS algorithm the key signs with (absent: the key's own, e.g. ES256 for P-256). */
  readonly algorithm?: JwtAlgorithm;
  /**
   * The authorization server's issuer the credentials belong to: they are sent to it and no
   * other. Absent: the first one the server names is pinned (machine grants only).
   */
  readonly issuer?: string;
  /** The enterprise IdP that issues the grant (`cross-app-access` only, decision 0032). */
  readonly idp?: EnterpriseIdp;
}

/**
 * A grant that gets tokens with no person at the authorization server's page:
 * `client_credentials` (SEP-1046, decision 0024) or `cross-app-access` (SEP-990, decision 0032:
 * the user's ID token from the company IdP exchanged for an ID-JAG, then for an access token).
 */
export type OAuthGrant = 'client_credentials' | 'cross-app-access';

/**
 * The company identity provider of a `cross-app-access` entry (SEP-990): where the user's ID
 * token is exchanged (RFC 8693) for an identity assertion grant (ID-JAG) for the MCP server's
 * authorization server. References unexpanded, like every secret in config.
 */
export interface EnterpriseIdp {
  /** The IdP's issuer: the ID token must name it (`iss`) before it is sent anywhere. */
  readonly issuer: string;
  /** Its token endpoint, on the issuer's origin; absent: discovered from the issuer's metadata. */
  readonly tokenEndpoint?: string;
  /** The client id Switchyard has at the IdP (the ID token's audience). */
  readonly clientId: string;
  /** A `${VAR}` holding the IdP client's secret; absent for a public client. */
  readonly clientSecret?: string;
  /** A `${VAR}` holding the user's ID token from the IdP (e.g. set by the IdP's CLI). */
  readonly idToken: string;
}

/** Signing algorithms a `privateKey` may use (RFC 7518 §3.1; the SDK signs no other). */
export const JWT_ALGORITHMS = [
  'ES256',
  'ES384',
  'ES512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
] as const;
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

/**
 * Exactly what would run, fingerprinted by the launch gate (design D6) and spawned as
 * fingerprinted.
 */
export interface LaunchDefinition {
  /** Absolute path the host resolved and will spawn (never a bare name or a relative path). */
  readonly executable: string;
  readonly args: readonly string[];
  /** The entry's env AS CONFIGURED: `${VAR}` references unexpanded. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string | null;
  readonly provenance: 'user' | 'workspace';
  readonly workspaceRoot: string | null;
  /**
   * For a remote server, what the host would contact (its URL, transport and headers with their
   * values unexpanded); `executable` is then the URL and `args`/`env` are empty. Absent for a
   * local server, so a local definition fingerprints as it always did.
   */
  readonly remote?: RemoteEndpoint;
  /**
   * For a server only a workspace file defines, the prefix of its tool names as merged (what it
   * wrote, unless taken, or `workspace_<name>`; `MergedServer.workspacePrefix`). Absent when its
   * tools are named by its name and for every other server, whose prefix only the user's own
   * config.json sets; so a definition without one fingerprints as it always did.
   */
  readonly toolPrefix?: string;
}

/** Which npm shim a command named: npm's own `npx.cmd`/`npm.cmd`, or one cmd-shim wrote. */
export type ShimKind = 'npm-cli' | 'cmd-shim';

/**
 * A Windows batch shim the host read, never ran, to find the program it starts (decision 0014).
 * The launch definition already holds the result: `executable` is that program (node.exe) and
 * `args` start with `prefixArgs`; this says where they came from, for display.
 */
export interface ShimRead {
  /** The `.cmd` file the command resolved to. */
  readonly file: string;
  readonly kind: ShimKind;
  /** What the shim puts before the entry's own args: node options, then the script. */
  readonly prefixArgs: readonly string[];
}

/** What the runtime needs to launch a server: already validated config, unexpanded env. */
export interface ServerLaunch {
  readonly name: string;
  /** The absolute program to spawn, resolved once by the host; null when it was not found. */
  readonly executable: string | null;
  /** Why the command was not found (shown when `executable` is null). */
  readonly notFound: string | null;
  /** Whether the command was missing, or found but not runnable (not executable, relative). */
  readonly notFoundReason: 'command-not-found' | 'spawn-failed';
  /** The command as written in the configuration. */
  readonly command: string;
  readonly args: readonly string[];
  /** The entry's own variables, unexpanded (`${VAR}` is expanded at spawn time). */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string | undefined;
  readonly handshakeTimeoutMs: number;
  readonly toolTimeoutMs: number;
  /** Whether the server's MCP Apps are shown: declared to the server, listed, rendered (absent:
   * they are). */
  readonly apps?: boolean;
  /** Where to connect, for a remote server; null for a local one (then the fields above say
   * what to spawn). */
  readonly remote: RemoteEndpoint | null;
}

/** One configured server: its launch, where it came from, and what the host resolved. */
export interface ServerSpec extends Omit<
  ServerLaunch,
  'executable' | 'notFound' | 'notFoundReason'
> {
  readonly prefix: string | undefined;
  /** Keys of the entry's `env` (values are never reported). */
  readonly envKeys: readonly string[];
  readonly provenance: 'user' | 'workspace';
  readonly workspaceRoot: string | null;
  /** Trust scope: 'user' or the workspace root. */
  readonly scope: string;
  /** The workspace file the launch fields came from, for workspace servers. */
  readonly sourceFile: string | null;
  readonly ignoredTrustClaims: readonly string[];
  /** Exactly what would run (fingerprinted and spawned); null when the command was not found. */
  readonly definition: LaunchDefinition | null;
  readonly resolutionError: { readonly reason: string; readonly message: string } | null;
  /** Absolute executable the host resolved, if it could (for display). */
  readonly resolvedCommand: string | null;
  /** The npm shim the command named and the host read instead of running (Windows); or null. */
  readonly shim: ShimRead | null;
  /** Listed but not started by `startAll` (`"disabled": true` in config.json). */
  readonly disabled: boolean;
  /** `"apps": false` in config.json turns the server's MCP Apps off. */
  readonly apps: boolean;
}
