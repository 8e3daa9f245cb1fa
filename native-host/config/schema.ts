import { z } from 'zod';
import { OAuthClientSchema } from './oauth-entry';
import { HeadersSchema, UrlSchema, readTransport } from './remote-entry';
import { RESERVED_KEY, recordErrors } from './zod-errors';
import type { RemoteEndpoint } from '../shared/server-spec';

/**
 * The user-tier config file, `$SWITCHYARD_HOME/config.json` (design.md D5): a Claude-Desktop
 * style `mcpServers` map, so an entry can be pasted from any MCP client's docs. Parsing one entry
 * at a time is the loader's job (load.ts): a bad entry is skipped, the others still load.
 *
 * Every size is capped. The file is written by the user or by Switchyard, but a tool that wrote
 * to it must not be able to make the host allocate without bound, and the caps sit at what the
 * OS accepts anyway (Windows: 32,767 characters per command line and per variable).
 */

export const MAX_SERVERS = 256;
export const MAX_SERVER_NAME_CHARS = 64;
export const MAX_COMMAND_CHARS = 4096;
export const MAX_ARGS = 256;
export const MAX_ARG_CHARS = 32_767;
export const MAX_ENV_VARS = 256;
export const MAX_ENV_NAME_CHARS = 256;
export const MAX_ENV_VALUE_CHARS = 32_767;
export const MAX_CWD_CHARS = 4096;
export const MAX_PREFIX_CHARS = 32;

/** Handshake (spawn to `initialize` result) timeout when the entry sets none. */
export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 30_000;
/** Per tool call timeout when the entry sets none. */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
/** `timeout` is in seconds; the cap catches a value written in milliseconds (30000 for 30 s). */
export const MAX_HANDSHAKE_TIMEOUT_S = 600;
/** `toolTimeout` is in seconds; one hour covers slow builds and stays far below setTimeout's
 * 2^31-1 ms, past which Node fires a timer at once. */
export const MAX_TOOL_TIMEOUT_S = 3600;

// Unicode "other" (controls, format characters such as bidi overrides and zero-width joiners,
// surrogates, private use, unassigned) and line/paragraph separators: a name is shown on consent
// cards, and an invisible character there could make two names look alike.
const INVISIBLE = /[\p{C}\p{Zl}\p{Zp}]/u;
// NUL cannot be passed to exec or setenv; Node's spawn throws on it. Catch it at load time.
const NUL = '\u0000';

/**
 * Why `name` cannot be a server name (the key in `mcpServers`, shown on consent cards and used as
 * the default tool prefix), or undefined when it can: 1-64 characters, none of them control or
 * invisible, no surrounding spaces, not `__proto__`.
 */
export function serverNameProblem(name: string): string | undefined {
  const length = Array.from(name).length; // code points, as a reader counts
  if (length === 0) return 'a server name cannot be empty';
  if (length > MAX_SERVER_NAME_CHARS) {
    return `a server name can have at most ${MAX_SERVER_NAME_CHARS} characters (this one has ${length})`;
  }
  if (INVISIBLE.test(name)) return 'a server name cannot contain control or invisible characters';
  if (name.trim() !== name) return 'a server name cannot start or end with a space';
  if (name === RESERVED_KEY) return `"${RESERVED_KEY}" is reserved; choose another name`;
  return undefined;
}

/** A server name; see serverNameProblem. */
export const ServerNameSchema = z.string().superRefine((name, ctx) => {
  const problem = serverNameProblem(name);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});

/** A string without NUL; `what` names it in messages ("command", "an argument"). */
const noNul = (what: string, example = '') =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined ? `${what} is missing${example}` : `${what} must be a string`,
    })
    .refine((s) => !s.includes(NUL), `${what} cannot contain a NUL character`);

const CommandSchema = noNul('command', ': give the program to run, e.g. "npx"')
  .min(1, 'command cannot be empty: give the program to run, e.g. "npx"')
  .max(MAX_COMMAND_CHARS, `command can have at most ${MAX_COMMAND_CHARS} characters`);

const ArgsSchema = z
  .array(
    noNul('an argument').max(
      MAX_ARG_CHARS,
      `an argument can have at most ${MAX_ARG_CHARS} characters`,
    ),
    { error: 'args must be an array of strings, e.g. ["-y", "some-server"]' },
  )
  .max(MAX_ARGS, `at most ${MAX_ARGS} args are supported`);

const EnvNameSchema = z
  .string()
  .min(1, 'an env name cannot be empty')
  .max(MAX_ENV_NAME_CHARS, `an env name can have at most ${MAX_ENV_NAME_CHARS} characters`)
  .refine((name) => !name.includes('='), "an env name cannot contain '='")
  .refine((name) => !INVISIBLE.test(name), 'an env name cannot contain control characters');

const EnvSchema = z
  .unknown()
  // zod's record skips a "__proto__" key without a word; say so instead of dropping a variable.
  .superRefine((env, ctx) => {
    if (typeof env === 'object' && env !== null && Object.hasOwn(env, RESERVED_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: [RESERVED_KEY],
        message: `"${RESERVED_KEY}" cannot be an env name`,
      });
    }
  })
  .pipe(
    z.record(
      EnvNameSchema,
      noNul('an env value').max(
        MAX_ENV_VALUE_CHARS,
        `an env value can have at most ${MAX_ENV_VALUE_CHARS} characters`,
      ),
      { error: recordErrors('env must be an object of strings, e.g. {"API_KEY": "${API_KEY}"}') },
    ),
  )
  .refine(
    (env) => Object.keys(env).length <= MAX_ENV_VARS,
    `at most ${MAX_ENV_VARS} env variables are supported`,
  );

const CwdSchema = noNul('cwd')
  .min(1, 'cwd cannot be empty: remove it to use the default')
  .max(MAX_CWD_CHARS, `cwd can have at most ${MAX_CWD_CHARS} characters`);

// Exposed tool names must match ^[a-zA-Z0-9_-]{1,64}$ (D4); a prefix outside that alphabet would
// be rewritten anyway, so say so here, where the user chose it.
const PrefixSchema = z
  .string()
  .regex(
    new RegExp(`^[A-Za-z0-9_-]{1,${MAX_PREFIX_CHARS}}$`),
    `prefix must be 1-${MAX_PREFIX_CHARS} letters, digits, '_' or '-'`,
  );

const seconds = (field: string, max: number) =>
  z
    .number({ error: `${field} must be a number of seconds, e.g. 30` })
    .positive(`${field} must be more than 0 seconds`)
    .max(
      max,
      `${field} is in seconds and can be at most ${max}; a value in milliseconds? divide by 1000`,
    );

/** At least 1 ms: a tiny positive timeout must not round to "no time at all". */
function secondsToMs(seconds: number): number {
  return Math.max(1, Math.round(seconds * 1000));
}

/** The `code` of the issue raised for an entry whose transport the host does not speak. */
export const UNSUPPORTED_TRANSPORT = 'unsupported-transport';

const TransportHintsSchema = z.record(z.string(), z.unknown(), {
  error: recordErrors(
    'a server entry must be an object, e.g. {"command": "npx", "args": ["-y", "some-server"]}',
  ),
});

/** Rejects what is neither stdio nor a remote transport the host speaks, before the fields are
 * checked, so the message names the real problem instead of "command is missing". */
function checkTransport(
  entry: Record<string, unknown>,
  ctx: z.RefinementCtx<Record<string, unknown>>,
): void {
  const reading = readTransport(entry);
  if (reading.kind === 'unsupported') {
    ctx.addIssue({
      code: 'custom',
      path: [reading.key],
      message: `${reading.shown} servers are not supported: use "stdio" (a "command"), "http" or "sse" (a "url")`,
      params: { code: UNSUPPORTED_TRANSPORT },
    });
  } else if (reading.kind === 'invalid') {
    ctx.addIssue({ code: 'custom', path: [reading.key], message: reading.message });
  }
}

/** A field a local server has and a remote one does not: refused unless empty, so nothing the
 * user wrote is silently dropped. */
const localOnly = (field: string) =>
  z
    .unknown()
    .optional()
    .refine(
      (value) =>
        value === undefined ||
        (Array.isArray(value) && value.length === 0) ||
        (typeof value === 'object' && value !== null && Object.keys(value).length === 0),
      `${field} has no meaning for a remote server (it runs elsewhere); remove it`,
    );

const RemoteEntrySchema = z.object({
  url: UrlSchema,
  headers: HeadersSchema.default({}),
  oauth: OAuthClientSchema.optional(),
  args: localOnly('args'),
  env: localOnly('env'),
  cwd: z
    .unknown()
    .optional()
    .refine((value) => value === undefined, 'cwd has no meaning for a remote server; remove it'),
  prefix: PrefixSchema.optional(),
  timeout: seconds('timeout', MAX_HANDSHAKE_TIMEOUT_S).optional(),
  toolTimeout: seconds('toolTimeout', MAX_TOOL_TIMEOUT_S).optional(),
  disabled: z.boolean({ error: 'disabled must be true or false' }).optional(),
  apps: z.boolean({ error: 'apps must be true or false' }).optional(),
});

const StdioEntrySchema = z.object({
  command: CommandSchema,
  args: ArgsSchema.default([]),
  env: EnvSchema.default({}),
  cwd: CwdSchema.optional(),
  prefix: PrefixSchema.optional(),
  timeout: seconds('timeout', MAX_HANDSHAKE_TIMEOUT_S).optional(),
  toolTimeout: seconds('toolTimeout', MAX_TOOL_TIMEOUT_S).optional(),
  disabled: z.boolean({ error: 'disabled must be true or false' }).optional(),
  apps: z.boolean({ error: 'apps must be true or false' }).optional(),
});

/** One server as the host uses it: defaults applied, timeouts in milliseconds. */
export interface ServerEntry {
  /** Program to run, as written: resolving it to an absolute path is the launcher's job (D6).
   * Empty for a remote server. */
  command: string;
  /** Empty for a remote server, as are `env` and `cwd`. */
  args: string[];
  /** The entry's own variables, unexpanded (`${VAR}` stays as written; see env.ts). */
  env: Record<string, string>;
  cwd?: string;
  /** Set for a remote server (a `url` entry), absent for a local one. */
  remote?: RemoteEndpoint;
  /** Tool-name prefix overriding the server name (D4). */
  prefix?: string;
  /** From `timeout` (seconds in the file); default DEFAULT_HANDSHAKE_TIMEOUT_MS. */
  handshakeTimeoutMs: number;
  /** From `toolTimeout` (seconds in the file); default DEFAULT_TOOL_TIMEOUT_MS. */
  toolTimeoutMs: number;
  /** A disabled server is listed but not started. */
  disabled: boolean;
  /** `"apps": false`: the server's MCP Apps are not shown (absent: they are). */
  apps?: boolean;
}

/** A configured server: its `mcpServers` key plus its entry. */
export type ServerConfig = { name: string } & ServerEntry;

interface CommonFields {
  prefix?: string | undefined;
  timeout?: number | undefined;
  toolTimeout?: number | undefined;
  disabled?: boolean | undefined;
  apps?: boolean | undefined;
}

function commonFields(entry: CommonFields) {
  return {
    ...(entry.prefix === undefined ? {} : { prefix: entry.prefix }),
    handshakeTimeoutMs:
      entry.timeout === undefined ? DEFAULT_HANDSHAKE_TIMEOUT_MS : secondsToMs(entry.timeout),
    toolTimeoutMs:
      entry.toolTimeout === undefined ? DEFAULT_TOOL_TIMEOUT_MS : secondsToMs(entry.toolTimeout),
    disabled: entry.disabled ?? false,
    ...(entry.apps === undefined ? {} : { apps: entry.apps }),
  };
}

/** Checks `value` with `schema`, reporting its issues on `ctx` (the URL's issues at the key the
 * file used for it); undefined when there were any. */
function checkWith<T>(
  schema: z.ZodType<T>,
  value: unknown,
  ctx: z.RefinementCtx,
  urlKey?: string,
): T | undefined {
  const checked = schema.safeParse(value);
  if (checked.success) return checked.data;
  for (const issue of checked.error.issues) {
    const [head, ...rest] = issue.path;
    const at = urlKey !== undefined && head === 'url' ? [urlKey, ...rest] : issue.path;
    // The issue as zod raised it (an `invalid_key` is located at the key, not the value).
    ctx.addIssue({ ...issue, path: at });
  }
  return undefined;
}

/**
 * Parses one `mcpServers` value. Accepts Claude Desktop / Claude Code / Cursor / VS Code / Cline /
 * Windsurf / Gemini entries: a `command` is a local (stdio) server, a `url` (`serverUrl`,
 * `httpUrl`) a remote one (see remote-entry.ts for the shapes); unknown keys (`alwaysAllow`,
 * `autoApprove`, ...) are ignored. Rejects transports the host does not speak with an issue whose
 * `params.code` is UNSUPPORTED_TRANSPORT. `timeout` and `toolTimeout` are seconds, as in Claude
 * Code and Cline, converted to ms.
 */
export const ServerEntrySchema = TransportHintsSchema.superRefine(checkTransport).transform(
  (entry, ctx): ServerEntry => {
    const reading = readTransport(entry);
    // checkTransport has reported it.
    if (reading.kind === 'unsupported' || reading.kind === 'invalid') return z.NEVER;
    if (reading.kind === 'remote') {
      const remote = checkWith(
        RemoteEntrySchema,
        { ...entry, url: entry[reading.urlKey] },
        ctx,
        reading.urlKey,
      );
      if (remote === undefined) return z.NEVER;
      return {
        command: '',
        args: [],
        env: {},
        remote: {
          transport: reading.transport,
          url: remote.url,
          headers: remote.headers,
          ...(remote.oauth === undefined ? {} : { oauth: remote.oauth }),
        },
        ...commonFields(remote),
      };
    }
    const local = checkWith(StdioEntrySchema, entry, ctx);
    if (local === undefined) return z.NEVER;
    return {
      command: local.command,
      args: local.args,
      env: local.env,
      ...(local.cwd === undefined ? {} : { cwd: local.cwd }),
      ...commonFields(local),
    };
  },
);

/**
 * The file's top level. `mcpServers` is only checked to be an object of at most MAX_SERVERS
 * members here (its entries are parsed one by one); other top-level keys are kept untouched for
 * later features (`toolPolicy`, `workspaces`, `profiles`).
 */
export const ConfigFileSchema = z.looseObject(
  {
    // z.custom keeps the parsed object itself (z.record would copy it and drop a "__proto__"
    // member silently); the loader reports each member.
    mcpServers: z
      .custom<Record<string, unknown>>(
        (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
        {
          error:
            'mcpServers must be an object mapping server names to entries, e.g. {"github": {"command": "npx"}}',
        },
      )
      .refine(
        (servers) => Object.keys(servers).length <= MAX_SERVERS,
        `mcpServers can have at most ${MAX_SERVERS} servers`,
      )
      .optional(),
  },
  { error: 'the top level must be an object, e.g. {"mcpServers": {}}' },
);
export type ConfigFile = z.infer<typeof ConfigFileSchema>;
