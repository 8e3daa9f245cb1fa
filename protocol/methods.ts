import { z } from 'zod';
import {
  ActivityCursorSchema,
  ActivityEntrySchema,
  ActivityEventSchema,
  MAX_ACTIVITY_PAGE_ENTRIES,
} from './activity';
import {
  ImportClientSchema,
  ImportSelectionSchema,
  ImportSourcePreviewSchema,
  ImportWrittenSchema,
} from './import';
import { approvalMethods } from './approvals';
import { authMethods } from './auth';
import { resourceMethods, resourceNotifications } from './resources';
import { appMethods } from './apps';
import {
  ArgsSchema,
  CommandSchema,
  CwdSchema,
  EnvKeySchema,
  EnvValueSchema,
  popupEditMethods,
} from './popup-edits';
import { helloMethods } from './hello';
import { elicitationMethods, elicitationNotifications } from './elicitation';
import { nestedDeeperThan } from './guards';
import { RequestIdSchema } from './jsonrpc';
import { MAX_TOOL_ARGUMENTS_DEPTH } from './limits';
import {
  MAX_RESOLVE_URL_CHARS,
  ProfileIdSchema,
  ProfileSchema,
  TokenBudgetSchema,
  ToolSearchStateSchema,
} from './profiles';
import { ConsentRequestSchema, ServerSummarySchema } from './servers';
import {
  ApprovalTokenSchema,
  CallToolResultSchema,
  ExposedToolSchema,
  ToolPolicyStateSchema,
} from './tools';

/**
 * The host <-> extension method table: every request method with its params and result schema,
 * every notification with its params. This is the public contract; docs/protocol.md has a row for
 * each entry and an invariant test keeps the two in step.
 */

export { PROTOCOL_VERSION } from './hello';

const ServerParamsSchema = z.object({ server: z.string().min(1).max(256) });

const ServerResultSchema = z.object({ server: ServerSummarySchema });

export const requestMethods = {
  ...approvalMethods,
  ...authMethods,
  ...resourceMethods,
  ...elicitationMethods,
  ...appMethods,
  ...popupEditMethods,
  ...helloMethods,
  'servers/list': {
    params: z.object({}).optional(),
    result: z.object({ servers: z.array(ServerSummarySchema) }),
  },
  'servers/start': { params: ServerParamsSchema, result: ServerResultSchema },
  'servers/stop': { params: ServerParamsSchema, result: ServerResultSchema },
  'servers/restart': { params: ServerParamsSchema, result: ServerResultSchema },
  'servers/add': {
    // The one method that carries a command or an address: the user typed it into the popup.
    // The host writes it to config.json, approves exactly what would run or be contacted, then
    // starts it (docs/security.md). Exactly one of `command` (a local server) and `url` (a remote
    // one) is given.
    // Strict: an entry with both a command and a url is refused, not read as either.
    params: z.union([
      z.strictObject({
        name: z.string().min(1).max(256),
        command: CommandSchema,
        args: ArgsSchema.optional(),
        env: z.record(EnvKeySchema, EnvValueSchema).optional(),
        cwd: CwdSchema.optional(),
        // No `replace`: the add approves what it writes with no card, so over the wire it may
        // only add. Changing an existing entry is `servers/update`, whose change waits for the
        // user's approval; `switchyard add --replace` is the terminal's own.
      }),
      z.strictObject({
        name: z.string().min(1).max(256),
        url: z.string().min(1).max(4096),
        /** Omitted: Streamable HTTP, falling back to the legacy SSE transport. */
        transport: z.enum(['http', 'sse']).optional(),
        headers: z.record(z.string().min(1).max(256), z.string().max(8192)).optional(),
      }),
    ]),
    result: ServerResultSchema,
  },
  'servers/remove': {
    params: ServerParamsSchema,
    result: z.object({ removed: z.literal(true) }),
  },
  'servers/setApps': {
    // A setting of the user's entry, not of what runs: it is no new approval (docs/security.md).
    params: z.object({
      server: z.string().min(1).max(256),
      /** false writes `"apps": false`; true removes the key (absent: apps are on). */
      enabled: z.boolean(),
    }),
    result: ServerResultSchema,
  },
  'servers/logs': {
    params: ServerParamsSchema.extend({
      limit: z.number().int().positive().max(10_000).optional(),
    }),
    result: z.object({
      server: z.string(),
      /** Most recent stderr lines, oldest first, sanitized. */
      lines: z.array(z.string()),
      /** Lines that fell out of the ring buffer. */
      dropped: z.number().int().nonnegative(),
    }),
  },
  'tools/list': {
    params: z
      .object({
        server: z.string().min(1).max(256).optional(),
        /** Also list tools whose policy is `deny` (the popup shows them; the model never does). */
        includeDenied: z.boolean().optional(),
        /** Also list tools only an MCP App may call (the model never sees them). */
        includeAppOnly: z.boolean().optional(),
        /** The profile to list for (design D10); omitted: the default profile. */
        profile: ProfileIdSchema.optional(),
        /** The `nextCursor` of the previous page: a listing over 512 KiB comes in pages. */
        cursor: z.string().min(1).max(64).optional(),
      })
      .optional(),
    result: z.object({
      tools: z.array(ExposedToolSchema),
      /** Set when more tools follow: ask again with it as `cursor` (the totals cover them all). */
      nextCursor: z.string().optional(),
      /** Estimated model-facing tokens of the listing, in total and per server. */
      tokens: z.object({
        total: z.number().int().nonnegative(),
        byServer: z.record(z.string(), z.number().int().nonnegative()),
      }),
      /** The profile's whole listing against its `tokenBudget`, when it has one (D11). */
      budget: TokenBudgetSchema.optional(),
      /** Present while tool search mode is on for the profile (docs/decisions/0027). */
      search: ToolSearchStateSchema.optional(),
    }),
  },
  'tools/call': {
    params: z.object({
      name: z.string().min(1).max(256),
      // Bounded in depth: deeper arguments would overflow the host's recursive hashing and
      // serializing of them (limits.ts).
      arguments: z
        .record(z.string(), z.unknown())
        .refine((args) => !nestedDeeperThan(args, MAX_TOOL_ARGUMENTS_DEPTH), {
          error: `nested deeper than ${MAX_TOOL_ARGUMENTS_DEPTH} levels`,
        })
        .optional(),
      /** The approval the user gave for exactly this call, from an `approval-required` error. */
      approval: ApprovalTokenSchema.optional(),
      /** The active profile (design D10); omitted: the default. A tool it hides is unknown. */
      profile: ProfileIdSchema.optional(),
      /**
       * Present when an MCP App asked for the call, not the model: the app's server. Only that
       * server's tools the app may call are callable so; the same policy and approvals apply.
       */
      app: z.object({ server: z.string().min(1).max(256) }).optional(),
    }),
    result: CallToolResultSchema,
  },
  'approvals/deny': {
    params: z.object({ requestId: z.string().min(1).max(128) }),
    result: z.object({ denied: z.boolean() }),
  },
  'policy/set': {
    params: z.object({
      /** An exposed tool name, or a glob over exposed names (`github__*`). */
      tool: z.string().min(1).max(256),
      /** `null` removes the rule. */
      policy: z.enum(['allow', 'ask', 'deny']).nullable(),
    }),
    result: z.object({
      rules: z.record(z.string(), z.enum(['allow', 'ask', 'deny'])),
      /** The tool's effective policy after the change, when `tool` names one tool. */
      effective: ToolPolicyStateSchema.nullable(),
    }),
  },
  'trust/pending': {
    params: z.object({}).optional(),
    result: z.object({ requests: z.array(ConsentRequestSchema) }),
  },
  'trust/approve': {
    params: z.object({
      server: z.string().min(1).max(256),
      /** The fingerprint shown on the card: the approval holds only if it is what would run. */
      fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
    }),
    result: ServerResultSchema,
  },
  'trust/revoke': {
    // Exactly one of the two: a message naming both is refused, not read as either.
    params: z.union([
      z.strictObject({ server: z.string().min(1).max(256) }),
      z.strictObject({ workspace: z.string().min(1).max(4096) }),
    ]),
    result: z.object({ servers: z.array(ServerSummarySchema) }),
  },
  'trust/forget': {
    params: z
      .object({
        server: z.string().min(1).max(256),
        /** The approval's scope, a workspace folder; default: the server's own, else the user's. */
        workspace: z.string().min(1).max(4096).optional(),
        /** The user tier's approval, whatever scope a configured server of that name has. */
        user: z.literal(true).optional(),
      })
      .refine((p) => p.workspace === undefined || p.user === undefined, {
        error: 'give either "workspace" or "user", not both',
      }),
    result: z.object({
      /** Whether a launch approval was forgotten. */
      launch: z.boolean(),
      /** How many tool pins were forgotten. */
      pins: z.number().int().nonnegative(),
      /** The server afterwards (waiting for approval again) when it is configured, else null. */
      server: ServerSummarySchema.nullable(),
    }),
  },
  'profiles/list': {
    params: z.object({}).optional(),
    result: z.object({
      /** The user's profiles other than the default, in the order ties are broken in. */
      profiles: z.array(ProfileSchema),
      /** The profile of every URL no other profile matches. */
      defaultProfile: ProfileSchema,
    }),
  },
  'profiles/set': {
    params: z.object({ profile: ProfileSchema }),
    result: z.object({
      profile: ProfileSchema,
      /** Things worth a second look that did not stop the write (an unknown server name, ...). */
      warnings: z.array(z.string()),
    }),
  },
  'profiles/remove': {
    params: z.object({ id: ProfileIdSchema }),
    result: z.object({ removed: z.boolean() }),
  },
  'profiles/resolve': {
    params: z.object({ url: z.string().max(MAX_RESOLVE_URL_CHARS) }),
    result: z.object({
      profile: ProfileSchema,
      /** The pattern that selected it; null for the default profile. */
      matchedPattern: z.string().nullable(),
    }),
  },
  'import/preview': {
    params: z
      .object({
        /** Clients whose default configuration files are read; all of them when omitted. */
        sources: z.array(ImportClientSchema).max(16).optional(),
      })
      .optional(),
    result: z.object({
      /** The config.json imported servers are written to. */
      configFile: z.string(),
      sources: z.array(ImportSourcePreviewSchema),
    }),
  },
  'import/apply': {
    // Names entries of the preview, never a command: the host reads the source files again.
    params: z.object({ entries: z.array(ImportSelectionSchema).min(1).max(256) }),
    result: z.object({
      written: z.array(ImportWrittenSchema),
      /** Selected entries config.json already had, the same: nothing was written for them. */
      unchanged: z.array(ImportWrittenSchema),
      /** The written servers as they are now (started unless switched off in the source). */
      servers: z.array(ServerSummarySchema),
    }),
  },
  'activity/list': {
    params: z
      .object({
        /** Only entries of this server. */
        server: z.string().min(1).max(256).optional(),
        /** Only entries of these kinds. */
        events: z
          .array(ActivityEventSchema)
          .min(1)
          .max(ActivityEventSchema.options.length)
          .optional(),
        /** Entries per page; default 50. A page may hold fewer (see docs/protocol.md). */
        limit: z.number().int().positive().max(MAX_ACTIVITY_PAGE_ENTRIES).optional(),
        /** `nextCursor` of the page before: the entries older than it. */
        cursor: ActivityCursorSchema.optional(),
      })
      .optional(),
    result: z.object({
      /** Newest first. */
      entries: z.array(ActivityEntrySchema),
      /** Pass as `cursor` for the next, older page; null when the log holds nothing older. */
      nextCursor: ActivityCursorSchema.nullable(),
      /** Lines read for this page that were not entries (corrupt, foreign, oversized). */
      skipped: z.number().int().nonnegative(),
    }),
  },
} as const satisfies Record<string, { params: z.ZodType; result: z.ZodType }>;

export type RequestMethod = keyof typeof requestMethods;
export type ParamsOf<M extends RequestMethod> = z.infer<(typeof requestMethods)[M]['params']>;
export type ResultOf<M extends RequestMethod> = z.infer<(typeof requestMethods)[M]['result']>;

/** Notifications the host sends to the extension. */
export const hostNotifications = {
  ...resourceNotifications,
  ...elicitationNotifications,
  'notifications/servers/changed': z.object({
    server: ServerSummarySchema,
    /** The server is no longer configured (config.json changed): drop its row. */
    removed: z.literal(true).optional(),
  }),
  'notifications/tools/changed': z.object({ server: z.string() }),
  'notifications/progress': z.object({
    /** The id of the extension's `tools/call` request this progress belongs to. */
    requestId: RequestIdSchema,
    progress: z.number(),
    total: z.number().optional(),
    message: z.string().optional(),
  }),
  'notifications/log': z.object({
    level: z.enum(['debug', 'info', 'warning', 'error']),
    message: z.string(),
    server: z.string().optional(),
  }),
} as const satisfies Record<string, z.ZodType>;

export type HostNotification = keyof typeof hostNotifications;
export type HostNotificationParams<N extends HostNotification> = z.infer<
  (typeof hostNotifications)[N]
>;

/** Notifications the extension sends to the host. */
export const clientNotifications = {
  /** Cancels a pending request (by the extension's request id), like MCP's own cancellation. */
  'notifications/cancelled': z.object({
    requestId: RequestIdSchema,
    reason: z.string().max(1024).optional(),
  }),
} as const satisfies Record<string, z.ZodType>;

export type ClientNotification = keyof typeof clientNotifications;
export type ClientNotificationParams<N extends ClientNotification> = z.infer<
  (typeof clientNotifications)[N]
>;

export function isRequestMethod(method: string): method is RequestMethod {
  return Object.hasOwn(requestMethods, method);
}

export function isClientNotification(method: string): method is ClientNotification {
  return Object.hasOwn(clientNotifications, method);
}

/**
 * The params schema of one method, typed by that method. TypeScript cannot correlate an indexed
 * access into the table with its key's type parameter; the table's `satisfies` clause is what makes
 * this narrowing sound.
 */
export function paramsSchemaOf<M extends RequestMethod>(method: M): z.ZodType<ParamsOf<M>> {
  const schema: z.ZodType = requestMethods[method].params;
  return schema as z.ZodType<ParamsOf<M>>;
}
