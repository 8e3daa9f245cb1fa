import { z } from 'zod';

/** How a server process ended: exactly one of code and signal is non-null once it has exited. */
export const ExitInfoSchema = z.object({
  code: z.number().int().nullable(),
  signal: z.string().nullable(),
});
export type ExitInfo = z.infer<typeof ExitInfoSchema>;

/** "exit code 3", "signal SIGKILL", or "no exit status": how an exit reads in a message. */
export function describeExit(exit: ExitInfo): string {
  if (exit.signal !== null) return `signal ${exit.signal}`;
  if (exit.code !== null) return `exit code ${exit.code}`;
  return 'no exit status';
}

/** Why a server is not running and will not be retried without the user acting. */
export const FailureReasonSchema = z.enum([
  'command-not-found',
  'spawn-failed',
  'missing-variable',
  'auth-required',
  'handshake-timeout',
  'handshake-failed',
  'crash-loop',
]);
export type FailureReason = z.infer<typeof FailureReasonSchema>;

export const ProvenanceSchema = z.enum(['user', 'workspace']);
export type Provenance = z.infer<typeof ProvenanceSchema>;

/** One difference between an approved launch and what would run now (design D6). */
export const LaunchChangeSchema = z.discriminatedUnion('field', [
  z.object({
    /** For a remote server, `executable` is its URL and `transport` how it is reached. */
    field: z.enum([
      'executable',
      'transport',
      'args',
      'cwd',
      'provenance',
      'workspaceRoot',
      /** A remote server's pre-registered OAuth client id, and the variable its secret is in. */
      'oauthClientId',
      'oauthClientSecret',
      /** A machine-to-machine client's grant, key reference, issuer and scopes, as one line. */
      'oauthGrant',
      /** A workspace-only server's tool prefix (`(none)`: its tools are named by its name). */
      'toolPrefix',
    ]),
    before: z.string(),
    after: z.string(),
  }),
  z.object({
    /** An env variable of a local server, or a header of a remote one. */
    field: z.enum(['env', 'header']),
    key: z.string(),
    before: z.string().nullable(),
    after: z.string().nullable(),
  }),
]);
export type LaunchChange = z.infer<typeof LaunchChangeSchema>;

/**
 * Why a server waits for the user: a workspace server never approved, a user-tier entry that
 * appeared or changed in config.json by other means than Switchyard, or an approved launch whose
 * definition changed since.
 */
export const ConsentReasonSchema = z.enum(['workspace', 'edited-outside', 'changed']);
export type ConsentReason = z.infer<typeof ConsentReasonSchema>;

/** How a remote server is reached: Streamable HTTP, the legacy HTTP+SSE, or the first with a
 * fallback to the second (an entry that names only a URL). */
export const RemoteTransportSchema = z.enum(['streamable-http', 'sse', 'auto']);

/**
 * What a remote server's consent card shows: the URL the host would contact, its origin (where
 * your data and tokens would go), the transport, and the headers it would send with their values
 * as written (`${VAR}` unexpanded; a literal secret in a config file is shown as written too).
 */
export const RemoteConsentSchema = z.object({
  url: z.string(),
  origin: z.string(),
  transport: RemoteTransportSchema,
  headers: z.array(z.tuple([z.string(), z.string()])),
  /**
   * The OAuth client registered beforehand that signs in to it (`"oauth"` in the entry): its
   * client id, and the `${VAR}` its secret is read from (never the secret); null for a public
   * client. Absent when the host registers a client itself.
   */
  oauthClient: z
    .object({
      clientId: z.string(),
      clientSecret: z.string().nullable(),
      /**
       * For a machine-to-machine client (`"grant": "client_credentials"`), which gets tokens with
       * no person signing in: its grant, the `${VAR}` of its private key if it signs with one, the
       * issuer it is pinned to, and its scopes, as one line. Absent for a client a person signs
       * in with.
       */
      machineGrant: z.string().optional(),
    })
    .optional(),
});
export type RemoteConsent = z.infer<typeof RemoteConsentSchema>;

/**
 * Everything the launch consent card shows: the literal program, arguments, environment (values as
 * written in the file, `${VAR}` unexpanded) and folder that would run, and the fingerprint the
 * approval must quote back.
 */
export const ConsentRequestSchema = z.object({
  server: z.string(),
  reason: ConsentReasonSchema,
  /** SHA-256 (hex) of exactly what would run; `trust/approve` must quote it. */
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
  /** The absolute executable the host resolved and would spawn. */
  executable: z.string(),
  /** The command as written in the file. */
  command: z.string(),
  args: z.array(z.string()),
  env: z.array(z.tuple([z.string(), z.string()])),
  cwd: z.string().nullable(),
  provenance: ProvenanceSchema,
  workspaceRoot: z.string().nullable(),
  /**
   * For a server only a workspace file defines, the prefix of its tool names (what the user's
   * allow rules and profile filters match): the one the file wrote, unless another server's tools
   * are named that way, or `workspace_<name>` when its name is taken too; null when its tools are
   * named by its name, and for every other server. Absent from older hosts.
   */
  toolPrefix: z.string().nullable().optional(),
  /** The file the launch fields came from. */
  sourceFile: z.string().nullable(),
  /** Differences from the previous approval of this server, if there was one. */
  changes: z.array(LaunchChangeSchema),
  /** One line for a card: "command changed - needs approval". */
  summary: z.string(),
  /** Plain-language warnings, e.g. code that lives inside the workspace. */
  warnings: z.array(z.string()),
  /** Trust claims the file made that the host ignored (e.g. "approved", "alwaysAllow"). */
  ignoredTrustClaims: z.array(z.string()),
  /** For a remote server, what it would contact (then `executable` and `command` are its URL
   * and `args`/`env` are empty); null for a local server. */
  remote: RemoteConsentSchema.nullable(),
});
export type ConsentRequest = z.infer<typeof ConsentRequestSchema>;

/** A server's lifecycle state. One discriminated union, switched on exhaustively by both sides. */
export const ServerStateSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('stopped') }),
  /** Launch trust (design D6): nothing runs until the user approves this request. */
  z.object({ state: z.literal('needs-approval'), consent: ConsentRequestSchema }),
  z.object({ state: z.literal('starting'), attempt: z.number().int().nonnegative() }),
  z.object({
    state: z.literal('running'),
    pid: z.number().int(),
    handshakeMs: z.number().nonnegative(),
    protocolVersion: z.string(),
    serverInfo: z.object({ name: z.string(), version: z.string() }),
  }),
  z.object({
    state: z.literal('crashed'),
    exit: ExitInfoSchema,
    restarts: z.number().int().nonnegative(),
    /** Milliseconds until the next automatic restart. */
    retryInMs: z.number().nonnegative(),
  }),
  z.object({
    state: z.literal('failed'),
    reason: FailureReasonSchema,
    message: z.string(),
    exit: ExitInfoSchema.optional(),
  }),
]);
export type ServerState = z.infer<typeof ServerStateSchema>;
export type ServerStateName = ServerState['state'];

/** A server's crashes since the user last started it (`ServerSummary.crashes`, issue 14). */
export const CrashHistorySchema = z.object({
  count: z.number().int().positive(),
  lastExit: ExitInfoSchema,
  /** When the last crash was seen, in milliseconds since the epoch. */
  lastAt: z.number().nonnegative(),
});
export type CrashHistory = z.infer<typeof CrashHistorySchema>;

/** One configured server as the UI and the CLI see it. */
export const ServerSummarySchema = z.object({
  name: z.string(),
  provenance: ProvenanceSchema,
  /** The workspace folder a workspace-provenance server comes from. */
  workspaceRoot: z.string().nullable(),
  /** Listed but not started automatically (`"disabled": true`). */
  disabled: z.boolean(),
  /** Whether the server's MCP Apps are shown (`"apps": false` turns them off; `servers/setApps`). */
  apps: z.boolean(),
  /** The command as configured (literal, before PATH resolution). */
  command: z.string(),
  args: z.array(z.string()),
  /** Absolute executable the host resolved, or null when it could not be found. */
  resolvedCommand: z.string().nullable(),
  cwd: z.string().nullable(),
  /** Names of the env keys the entry sets (never their values). */
  envKeys: z.array(z.string()),
  /** For a remote server: where it is, how it is reached, and the names of the headers the host
   * sends (never their values); null for a local server (then `command` and `args` say what runs). */
  remote: z
    .object({
      url: z.string(),
      transport: RemoteTransportSchema,
      headerNames: z.array(z.string()),
      /** The pre-registered OAuth client's id, when the entry names one. */
      oauthClientId: z.string().optional(),
      /**
       * Its grant when it gets tokens with no person at a page (`client_credentials`, or
       * `cross-app-access` through the company IdP); absent for a client a person signs in with.
       * Such a client has no redirect URI to register.
       */
      oauthGrant: z.enum(['client_credentials', 'cross-app-access']).optional(),
    })
    .nullable(),
  status: ServerStateSchema,
  /**
   * Crashes since the user last started the server (a start, restart or approval resets it): how
   * many, and how the last one ended. The host restarted it after each but a crash loop's last.
   * Null when it has not crashed since; kept when it is running again, so the popup can say so.
   */
  crashes: CrashHistorySchema.nullable(),
  toolCount: z.number().int().nonnegative(),
  /** Estimated model-facing tokens of this server's tool listing. */
  tokens: z.number().int().nonnegative(),
});
export type ServerSummary = z.infer<typeof ServerSummarySchema>;
