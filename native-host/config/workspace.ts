import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JsonSyntaxError, formatJsonPath, lineColumn, scanJson } from './json-scan';
import type { JsonPath, ScannedJson } from './json-scan';
import { MAX_CONFIG_FILE_BYTES, readHandleBounded } from './load';
import type { ConfigWarning, ConfigWarningKind, ReadConfigFile } from './load';
import {
  DEFAULT_HANDSHAKE_TIMEOUT_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  MAX_ARG_CHARS,
  MAX_COMMAND_CHARS,
  MAX_CWD_CHARS,
  MAX_ENV_VALUE_CHARS,
  MAX_SERVERS,
  ServerEntrySchema,
  UNSUPPORTED_TRANSPORT,
  serverNameProblem,
} from './schema';
import type { ServerConfig, ServerEntry } from './schema';

/**
 * The workspace tier (design.md section 2, D5): `.mcp.json` and `.vscode/mcp.json` in a profile's
 * workspace folder. These files are written by whoever wrote the repository, so (seed plan G1) a
 * clone-and-open must never be able to run anything, approve anything, or break the user's own
 * setup: a bad file costs only itself, with a warning, and nothing in it can claim trust.
 * Launching still goes through the trust gate (D6); this module decides only what the entries say.
 */

/** The fields of an entry that decide what runs (D6 fingerprints exactly these). */
export const LAUNCH_FIELDS = ['command', 'args', 'env', 'cwd'] as const;
export type LaunchField = (typeof LAUNCH_FIELDS)[number];

/** Why a workspace warning was raised: the user tier's kinds plus the workspace's own. */
export type WorkspaceWarningKind =
  | ConfigWarningKind
  | 'invalid-root'
  | 'invalid-file'
  | 'unsupported-feature'
  | 'shadowed'
  | 'ignored-trust-claim';

/** A ConfigWarning whose kind may also be one of the workspace's own. */
export interface WorkspaceWarning extends Omit<ConfigWarning, 'kind'> {
  readonly kind: WorkspaceWarningKind;
}

/**
 * One entry of a workspace file, checked with the user tier's rules. Only the fields the file
 * wrote are present (no defaults): an entry named like a user-tier server may set just `env`, and
 * a default `args: []` must not count as the workspace replacing the user's args. `command`
 * missing means the entry can only extend a same-named user-tier server (see mergeTiers).
 * Variables are substituted and a relative `cwd` is absolute, resolved against the root.
 */
export interface WorkspaceServer extends Partial<ServerEntry> {
  readonly name: string;
  /** Absolute path of the file the entry came from. */
  readonly file: string;
  /** Keys in the entry that claim trust (`approved`, `alwaysAllow`, ...); all are ignored. */
  readonly ignoredTrustClaims: string[];
}

export interface WorkspaceConfig {
  /** The workspace folder, normalized (no trailing separator). */
  readonly root: string;
  /** Entries of `.mcp.json`, then those of `.vscode/mcp.json` not shadowed by it. */
  readonly servers: WorkspaceServer[];
  readonly warnings: WorkspaceWarning[];
}

export interface WorkspaceLoadOptions {
  /** What `${userHome}` stands for; default `os.homedir()`. */
  readonly homedir?: string;
}

interface WorkspaceFileSpec {
  readonly relative: string;
  readonly serversKey: 'mcpServers' | 'servers';
  readonly client: string;
}

/**
 * The files read, in precedence order. A name in `.mcp.json` shadows the same name in
 * `.vscode/mcp.json` (the losing entry is dropped, not merged: a mix of two definitions is what
 * neither file says). `.mcp.json` wins because it is the cross-client file at the top of the
 * repository, the one a reviewer sees first.
 */
const WORKSPACE_FILES: readonly WorkspaceFileSpec[] = [
  { relative: '.mcp.json', serversKey: 'mcpServers', client: 'Claude Code' },
  { relative: path.join('.vscode', 'mcp.json'), serversKey: 'servers', client: 'VS Code' },
];

/** Thrown by readWorkspaceFile for a FIFO, device, socket or folder. */
export class NotARegularFileError extends Error {
  override readonly name = 'NotARegularFileError';
}

/**
 * Reads at most `maxBytes + 1` bytes of `file`, which must be a regular file (a symlink to one is
 * followed). A repository can commit `.mcp.json` as a symlink to `/dev/stdin` (the host's stdin is
 * the browser's wire) or to a FIFO that blocks forever: the file is opened non-blocking and checked
 * with fstat before a byte is read. Throws NotARegularFileError, or the fs error (code ENOENT...).
 */
export async function readWorkspaceFile(
  file: string,
  maxBytes: number = MAX_CONFIG_FILE_BYTES,
): Promise<Uint8Array> {
  const nonBlocking = process.platform === 'win32' ? 0 : fs.constants.O_NONBLOCK;
  const handle = await fs.promises.open(file, fs.constants.O_RDONLY | nonBlocking);
  try {
    if (!(await handle.stat()).isFile()) throw new NotARegularFileError(file);
    return await readHandleBounded(handle, maxBytes);
  } finally {
    await handle.close();
  }
}

/**
 * Loads the workspace tier of `root` (an absolute folder). Never throws and never rejects: a
 * missing file contributes nothing silently; an unreadable, oversized, non-UTF-8, non-JSON
 * (JSONC included) or wrongly shaped file contributes nothing, with a warning; a bad entry is
 * skipped with a warning naming file, line, column and key, the others kept. A relative root
 * loads nothing (warning). Stricter than the user tier where a repository could mislead:
 * - an entry with a duplicate key, or a server name written twice, is skipped (a reader of the
 *   file may see the first value while a parser uses the last);
 * - `envFile`, prompted inputs (`${input:...}`), `${command:...}`/`${config:...}`, and any
 *   variable other than `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`,
 *   `${pathSeparator}` and `${/}` in command, args or cwd skip the entry (those five are
 *   substituted there and in env values; other `${...}` in env values are left for env.ts);
 * - a relative cwd (or one starting with `${workspaceFolder}`) must stay inside the root;
 * - trust claims (`approved`, `alwaysAllow`, `autoApprove`, `trust`, `fingerprint`, ...) are never
 *   read, only listed in `ignoredTrustClaims` and warned about.
 */
export async function loadWorkspace(
  root: string,
  readFile: ReadConfigFile = readWorkspaceFile,
  options: WorkspaceLoadOptions = {},
): Promise<WorkspaceConfig> {
  if (!isFullyAbsolute(root) || root.includes('\u0000')) {
    const detail = `the workspace folder ${shownText(root)} is not an absolute path; set the profile's workspace folder to a full path. Nothing was loaded from it`;
    return { root, servers: [], warnings: [fileWarning('invalid-root', root, detail)] };
  }
  const normalized = normalizeFolder(root);
  const variables = predefinedVariables(normalized, options.homedir);
  const servers: WorkspaceServer[] = [];
  const warnings: WorkspaceWarning[] = [];
  const claimed = new Map<string, string>(); // server name -> file that defined it first
  for (const spec of WORKSPACE_FILES) {
    const file = path.join(normalized, spec.relative);
    let loaded: FileResult;
    try {
      loaded = await loadFile(file, spec, readFile, { root: normalized, variables });
    } catch (error) {
      // A repository must not be able to stop the host, whatever the file does to a parser.
      const detail = `could not be loaded (${error instanceof Error ? error.name : 'error'}); no servers were loaded from it`;
      loaded = { servers: [], warnings: [fileWarning('invalid-file', file, detail)], names: [] };
    }
    warnings.push(...loaded.warnings);
    for (const { server, at } of loaded.servers) {
      const first = claimed.get(server.name);
      if (first === undefined) servers.push(server);
      else {
        const detail = `server "${server.name}" is also defined in ${first}, which takes precedence; this entry was ignored. Remove one of them`;
        warnings.push(locatedWarning('shadowed', file, at, detail, server.name));
      }
    }
    for (const name of loaded.names) if (!claimed.has(name)) claimed.set(name, file);
  }
  return { root: normalized, servers, warnings };
}

/** Where a launch field came from: 'user', or the absolute path of a workspace file. */
export type FieldSource = 'user' | (string & NonNullable<unknown>);

/** A server after merging the tiers: what the launcher runs and the trust gate fingerprints. */
export type MergedServer = ServerConfig & {
  /** Per launch field, 'user' or the absolute path of the workspace file it came from. For
   * `env`, the workspace file when it set any variable. */
  readonly fieldSources: Record<LaunchField, FieldSource>;
  /** Trust claims the workspace entry made, all ignored (includes `disabled` when it tried to
   * enable a server the user disabled). */
  readonly ignoredTrustClaims: string[];
} & (
    | { readonly provenance: 'user'; readonly workspaceRoot: null }
    | { readonly provenance: 'workspace'; readonly workspaceRoot: string }
  );

/**
 * Merges the user tier with workspace tiers. Pure. For a name in both, the workspace entry
 * overlays the user's per field: `command`, `args` and `cwd` replace the user's, `env` overlays
 * per variable (the user's other variables stay: a repository adding `PROJECT_DIR` must not drop
 * the user's token reference). Any launch field from a workspace makes the server `workspace`
 * provenance with that root (so it needs approval); the workspace cannot change the user's
 * `prefix`, timeouts or `disabled` (ignored with a warning; a `disabled: false` over a disabled
 * user entry is also listed as a trust claim). A workspace-only server gets defaults for what it
 * omits and its root as cwd (the host's own cwd is the launcher's folder, meaningless here); its
 * `prefix` is dropped when it equals a user-tier server's name or prefix, so its tools cannot
 * take the names the user's allow-list was written for. A name defined by several workspaces
 * comes from the first in `workspaces` order. Output order: the user tier's, then
 * workspace-only servers. `warnings` covers the merge only, not the workspaces' own warnings.
 */
export function mergeTiers(
  user: readonly ServerConfig[],
  workspaces: readonly WorkspaceConfig[],
): { servers: MergedServer[]; warnings: string[] } {
  const warnings: string[] = [];
  const users = new Map<string, ServerConfig>();
  for (const server of user) {
    if (users.has(server.name))
      warnings.push(`user tier: server "${server.name}" is listed twice; the first is used`);
    else users.set(server.name, server);
  }
  const chosen = new Map<string, { server: WorkspaceServer; root: string }>();
  for (const workspace of workspaces) {
    for (const server of workspace.servers) {
      const first = chosen.get(server.name);
      if (first === undefined) chosen.set(server.name, { server, root: workspace.root });
      else {
        warnings.push(
          `${server.file}: server "${server.name}" is also defined by the workspace ${first.root}, which comes first; this one was ignored`,
        );
      }
    }
  }
  const userPrefixes = new Set([...users.values()].map((s) => (s.prefix ?? s.name).toLowerCase()));
  for (const s of users.values()) userPrefixes.add(s.name.toLowerCase());

  const servers: MergedServer[] = [];
  for (const base of users.values()) {
    const over = chosen.get(base.name);
    servers.push(
      over === undefined ? fromUser(base) : overlay(base, over.server, over.root, warnings),
    );
  }
  for (const [name, { server, root }] of chosen) {
    if (users.has(name)) continue;
    const merged = workspaceOnly(server, root, userPrefixes, warnings);
    if (merged !== undefined) servers.push(merged);
  }
  return { servers, warnings };
}

function fromUser(base: ServerConfig): MergedServer {
  return {
    ...copyOf(base),
    provenance: 'user',
    workspaceRoot: null,
    fieldSources: { command: 'user', args: 'user', env: 'user', cwd: 'user' },
    ignoredTrustClaims: [],
  };
}

function overlay(
  base: ServerConfig,
  over: WorkspaceServer,
  root: string,
  warnings: string[],
): MergedServer {
  const claims = [...over.ignoredTrustClaims];
  if (over.disabled === false && base.disabled && !claims.includes('disabled'))
    claims.push('disabled');
  const tuned = (['prefix', 'handshakeTimeoutMs', 'toolTimeoutMs', 'disabled'] as const).filter(
    (field) => over[field] !== undefined && over[field] !== base[field],
  );
  if (tuned.length > 0) {
    const names = tuned.map((field) => FILE_KEY[field]).join(', ');
    warnings.push(
      `${over.file}: server "${base.name}": a workspace file cannot change ${names} of a server in your config.json; ignored`,
    );
  }
  const source = (field: LaunchField): FieldSource =>
    over[field] === undefined ? 'user' : over.file;
  const fieldSources = {
    command: source('command'),
    args: source('args'),
    env: source('env'),
    cwd: source('cwd'),
  };
  const merged = {
    ...copyOf(base),
    ...(over.command === undefined ? {} : { command: over.command }),
    ...(over.args === undefined ? {} : { args: [...over.args] }),
    env: { ...base.env, ...over.env },
    ...(over.cwd === undefined ? {} : { cwd: over.cwd }),
    fieldSources,
    ignoredTrustClaims: claims,
  };
  return LAUNCH_FIELDS.some((field) => over[field] !== undefined)
    ? { ...merged, provenance: 'workspace', workspaceRoot: root }
    : { ...merged, provenance: 'user', workspaceRoot: null };
}

function workspaceOnly(
  server: WorkspaceServer,
  root: string,
  userPrefixes: ReadonlySet<string>,
  warnings: string[],
): MergedServer | undefined {
  if (server.command === undefined) {
    warnings.push(
      `${server.file}: server "${server.name}" has no "command" and your config.json has no server of that name to extend; skipped`,
    );
    return undefined;
  }
  let prefix = server.prefix;
  if (prefix !== undefined && userPrefixes.has(prefix.toLowerCase())) {
    warnings.push(
      `${server.file}: server "${server.name}": prefix "${prefix}" is taken by a server in your config.json; the server name is used instead`,
    );
    prefix = undefined;
  }
  const file = server.file;
  return {
    name: server.name,
    command: server.command,
    args: [...(server.args ?? [])],
    env: { ...server.env },
    cwd: server.cwd ?? root,
    ...(prefix === undefined ? {} : { prefix }),
    handshakeTimeoutMs: server.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS,
    toolTimeoutMs: server.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    disabled: server.disabled ?? false,
    provenance: 'workspace',
    workspaceRoot: root,
    fieldSources: { command: file, args: file, env: file, cwd: file },
    ignoredTrustClaims: [...server.ignoredTrustClaims],
  };
}

/** A ServerConfig with its own arrays and objects, so callers cannot reach into the input. */
function copyOf(base: ServerConfig): ServerConfig {
  // Field by field: a caller's object may carry more than ServerConfig (an `approved` flag, say),
  // and nothing but these fields may reach the output.
  return {
    name: base.name,
    command: base.command,
    args: [...base.args],
    env: { ...base.env },
    ...(base.cwd === undefined ? {} : { cwd: base.cwd }),
    ...(base.prefix === undefined ? {} : { prefix: base.prefix }),
    handshakeTimeoutMs: base.handshakeTimeoutMs,
    toolTimeoutMs: base.toolTimeoutMs,
    disabled: base.disabled,
  };
}

/** The key in the file for each entry field, for messages. */
const FILE_KEY: Record<'prefix' | 'handshakeTimeoutMs' | 'toolTimeoutMs' | 'disabled', string> = {
  prefix: '"prefix"',
  handshakeTimeoutMs: '"timeout"',
  toolTimeoutMs: '"toolTimeout"',
  disabled: '"disabled"',
};

// ---------------------------------------------------------------------------------------------
// One file.

interface Position {
  readonly line: number;
  readonly column: number;
  readonly key: string;
}

interface FileResult {
  readonly servers: { server: WorkspaceServer; at: Position }[];
  readonly warnings: WorkspaceWarning[];
  /** Every server name the file defines, valid or not: they all shadow the next file. */
  readonly names: string[];
}

interface Context {
  readonly root: string;
  readonly variables: ReadonlyMap<string, string | undefined>;
}

async function loadFile(
  file: string,
  spec: WorkspaceFileSpec,
  readFile: ReadConfigFile,
  context: Context,
): Promise<FileResult> {
  const nothing = (detail: string, at?: { line: number; column: number }): FileResult => ({
    servers: [],
    warnings: [
      fileWarning('invalid-file', file, `${detail}. No servers were loaded from this file`, at),
    ],
    names: [],
  });
  let data: Uint8Array | string;
  try {
    data = await readFile(file);
  } catch (error) {
    if (error instanceof NotARegularFileError) {
      return nothing(
        'this is not a regular file (a folder, pipe or device); replace it with a JSON file',
      );
    }
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { servers: [], warnings: [], names: [] };
    return nothing(`cannot read the file (${code ?? 'unknown error'})`);
  }
  const text = decode(data);
  if (!text.ok) return nothing(text.detail);
  const body = text.value.startsWith('\uFEFF') ? text.value.slice(1) : text.value;
  if (body.length > MAX_CONFIG_FILE_BYTES) {
    return nothing(`the file is larger than ${MAX_CONFIG_FILE_BYTES} bytes`);
  }
  if (body.trim() === '') return nothing('the file is empty');
  let scanned: ScannedJson;
  try {
    scanned = scanJson(body);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return nothing(error.reason, lineColumn(body, error.offset));
  }
  const top = scanned.value;
  if (!isRecord(top))
    return nothing(`the top level must be an object, e.g. {"${spec.serversKey}": {}}`);

  const found: { offset: number; warning: WorkspaceWarning }[] = [];
  const locate = (jsonPath: JsonPath, onKey: boolean): Position & { offset: number } => {
    const offset = offsetOf(scanned, jsonPath, onKey);
    return { offset, ...lineColumn(body, offset), key: formatJsonPath(jsonPath) };
  };
  const warn = (kind: WorkspaceWarningKind, jsonPath: JsonPath, onKey: boolean, detail: string) => {
    const at = locate(jsonPath, onKey);
    const server =
      jsonPath[0] === spec.serversKey && typeof jsonPath[1] === 'string' ? jsonPath[1] : undefined;
    found.push({ offset: at.offset, warning: locatedWarning(kind, file, at, detail, server) });
  };
  const done = (servers: FileResult['servers'], names: string[]): FileResult => ({
    servers,
    warnings: found.sort((a, b) => a.offset - b.offset).map((f) => f.warning),
    names,
  });

  const topClaims = claimKeys(Object.keys(top).filter((key) => key !== spec.serversKey));
  if (topClaims[0] !== undefined) {
    warn(
      'ignored-trust-claim',
      [topClaims[0]],
      true,
      `${shownClaims(topClaims).join(', ')} ignored: a workspace file cannot grant trust or permissions`,
    );
  }
  const ambiguous = new Set<string>();
  for (const duplicate of scanned.duplicates) {
    const [first, name] = duplicate.path;
    if (first === spec.serversKey && duplicate.path.length === 1) {
      return nothing(
        `"${spec.serversKey}" appears twice; remove one`,
        lineColumn(body, duplicate.keyOffset),
      );
    }
    if (first === spec.serversKey && typeof name === 'string') {
      ambiguous.add(name);
      warn(
        'duplicate-key',
        duplicate.path,
        true,
        `this key appears twice, so readers of the file may disagree on what runs. Server ${shownText(name)} was skipped; remove one`,
      );
    } else {
      warn(
        'duplicate-key',
        duplicate.path,
        true,
        'this key appears twice in the same object; remove one',
      );
    }
  }

  const entries = top[spec.serversKey];
  if (entries === undefined) {
    const other = spec.serversKey === 'servers' ? 'mcpServers' : 'servers';
    if (top[other] !== undefined) {
      warn(
        'servers-key',
        [other],
        true,
        `${spec.client} reads servers from "${spec.serversKey}" in this file, so "${other}" is ignored; rename the key`,
      );
    }
    return done([], []);
  }
  if (!isRecord(entries)) {
    return nothing(
      `"${spec.serversKey}" must be an object mapping server names to entries`,
      locate([spec.serversKey], false),
    );
  }
  const names = Object.keys(entries);
  if (names.length > MAX_SERVERS) {
    return nothing(
      `"${spec.serversKey}" can have at most ${MAX_SERVERS} servers`,
      locate([spec.serversKey], false),
    );
  }
  const servers: FileResult['servers'] = [];
  for (const name of names) {
    if (ambiguous.has(name)) continue;
    const entryPath = [spec.serversKey, name];
    const nameProblem = serverNameProblem(name);
    if (nameProblem !== undefined) {
      warn('invalid-entry', entryPath, true, `${nameProblem}. This server was skipped`);
      continue;
    }
    const value = entries[name];
    const claims = isRecord(value) ? claimKeys(Object.keys(value)) : [];
    const parsed = parseEntry(name, value, shownClaims(claims), file, context);
    if ('problem' in parsed) {
      const { kind, at, detail } = parsed.problem;
      warn(kind, [...entryPath, ...at], false, `${detail}. Server "${name}" was skipped`);
      continue;
    }
    if (claims[0] !== undefined) {
      warn(
        'ignored-trust-claim',
        [...entryPath, claims[0]],
        true,
        `${parsed.server.ignoredTrustClaims.join(', ')} ignored: a workspace file cannot approve a server; it asks before it first starts`,
      );
    }
    servers.push({ server: parsed.server, at: locate(entryPath, true) });
  }
  return done(servers, names);
}

// ---------------------------------------------------------------------------------------------
// One entry.

interface EntryProblem {
  readonly kind: WorkspaceWarningKind;
  /** Path inside the entry. */
  readonly at: JsonPath;
  readonly detail: string;
}

/** Stands in for a missing `command` so the schema checks the rest of an entry that only
 * extends a user-tier server; it never leaves this function. */
const NO_COMMAND = 'switchyard-no-command';

function parseEntry(
  name: string,
  value: unknown,
  claims: string[],
  file: string,
  context: Context,
): { server: WorkspaceServer } | { problem: EntryProblem } {
  const raw = isRecord(value) ? value : undefined;
  // Own keys only: what the file wrote, never what an object inherits.
  const has = (key: string) =>
    raw !== undefined && Object.hasOwn(raw, key) && raw[key] !== undefined;
  const hasCommand = has('command');
  const checked = ServerEntrySchema.safeParse(
    raw === undefined || hasCommand ? value : { ...raw, command: NO_COMMAND },
  );
  if (!checked.success) {
    const [first, ...rest] = checked.error.issues;
    const unsupported = first?.code === 'custom' && first.params?.code === UNSUPPORTED_TRANSPORT;
    const more =
      rest.length === 0 ? '' : ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})`;
    return {
      problem: {
        kind: unsupported ? 'unsupported-transport' : 'invalid-entry',
        at: (first?.path ?? []).map((s) => (typeof s === 'symbol' ? String(s) : s)),
        detail: `${first?.message ?? 'invalid entry'}${more}`,
      },
    };
  }
  if (has('envFile')) {
    return {
      problem: {
        kind: 'unsupported-feature',
        at: ['envFile'],
        detail:
          '"envFile" is not supported: a repository file must not pick which secrets a server reads. Write the variables in "env"',
      },
    };
  }
  const entry = checked.data;
  const server: WorkspaceServer = {
    name,
    file,
    ignoredTrustClaims: claims,
    ...(hasCommand ? { command: entry.command } : {}),
    ...(has('args') ? { args: entry.args } : {}),
    ...(has('env') ? { env: entry.env } : {}),
    ...(has('cwd') && entry.cwd !== undefined ? { cwd: entry.cwd } : {}),
    ...(entry.prefix === undefined ? {} : { prefix: entry.prefix }),
    ...(has('timeout') ? { handshakeTimeoutMs: entry.handshakeTimeoutMs } : {}),
    ...(has('toolTimeout') ? { toolTimeoutMs: entry.toolTimeoutMs } : {}),
    ...(has('disabled') ? { disabled: entry.disabled } : {}),
  };
  const substituted = substituteEntry(server, context);
  return 'problem' in substituted ? substituted : { server: substituted };
}

/** Substitutes variables in the launch fields, checks lengths again and makes cwd absolute. */
function substituteEntry(
  server: WorkspaceServer,
  { root, variables }: Context,
): WorkspaceServer | { problem: EntryProblem } {
  const launch = (text: string, at: JsonPath, max: number): string | EntryProblem => {
    const result = substitute(text, variables, false);
    if (typeof result !== 'string')
      return { kind: 'unsupported-feature', at, detail: result.detail };
    if (result.length > max) {
      return {
        kind: 'invalid-entry',
        at,
        detail: `with variables substituted, this is longer than ${max} characters`,
      };
    }
    return result;
  };
  const command =
    server.command === undefined
      ? undefined
      : launch(server.command, ['command'], MAX_COMMAND_CHARS);
  if (typeof command === 'object') return { problem: command };
  const args: string[] = [];
  for (const [index, arg] of (server.args ?? []).entries()) {
    const result = launch(arg, ['args', index], MAX_ARG_CHARS);
    if (typeof result === 'object') return { problem: result };
    args.push(result);
  }
  const env: [string, string][] = [];
  for (const [key, raw] of Object.entries(server.env ?? {})) {
    const result = substitute(raw, variables, true);
    if (typeof result !== 'string')
      return { problem: { kind: 'unsupported-feature', at: ['env', key], detail: result.detail } };
    if (result.length > MAX_ENV_VALUE_CHARS) {
      return {
        problem: {
          kind: 'invalid-entry',
          at: ['env', key],
          detail: `with variables substituted, this is longer than ${MAX_ENV_VALUE_CHARS} characters`,
        },
      };
    }
    env.push([key, result]);
  }
  let cwd: string | undefined;
  if (server.cwd !== undefined) {
    const result = launch(server.cwd, ['cwd'], MAX_CWD_CHARS);
    if (typeof result === 'object') return { problem: result };
    cwd = path.resolve(root, result);
    // A relative cwd reads as "in this repository" on a consent card; `..` must not break out.
    const anchored = !path.isAbsolute(result) || server.cwd.startsWith('${workspaceFolder}');
    const inside = path.relative(root, cwd);
    const escapes =
      inside === '..' || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside);
    if (anchored && escapes) {
      return {
        problem: {
          kind: 'invalid-entry',
          at: ['cwd'],
          detail: `cwd resolves to ${shownText(cwd)}, outside the workspace folder; keep it inside`,
        },
      };
    }
  }
  return {
    ...server,
    ...(command === undefined ? {} : { command }),
    ...(server.args === undefined ? {} : { args }),
    ...(server.env === undefined ? {} : { env: Object.fromEntries(env) }),
    ...(cwd === undefined ? {} : { cwd }),
  };
}

// ---------------------------------------------------------------------------------------------
// Variables (https://code.visualstudio.com/docs/reference/variables-reference).

function predefinedVariables(
  root: string,
  homedir: string | undefined,
): Map<string, string | undefined> {
  let home = homedir;
  if (home === undefined) {
    try {
      home = os.homedir();
    } catch {
      home = undefined; // `${userHome}` then skips the entry that uses it
    }
  }
  return new Map<string, string | undefined>([
    ['workspaceFolder', root],
    ['workspaceFolderBasename', path.basename(root)],
    ['userHome', home !== undefined && isFullyAbsolute(home) ? normalizeFolder(home) : undefined],
    ['pathSeparator', path.sep],
    ['/', path.sep],
  ]);
}

// In env values `$${` is env.ts's escape for a literal `${`, so it is matched first and kept.
const LAUNCH_VARIABLE = /\$\{([^}]*)\}/g;
const ENV_VARIABLE = /\$\$\{|\$\{([^}]*)\}/g;
/** VS Code features that need VS Code: prompting, running a command, reading its settings. */
const VSCODE_ONLY = /^(input|command|config):/;

/**
 * Replaces the predefined variables in one pass (a substituted path is never scanned again).
 * In command, args and cwd any other variable is a problem: nothing would expand it later. In
 * env values others are kept for env.ts, and a substituted value may not contain `$`, which
 * env.ts could read as part of a reference.
 */
function substitute(
  text: string,
  variables: ReadonlyMap<string, string | undefined>,
  inEnv: boolean,
): string | { detail: string } {
  let problem: string | undefined;
  const result = text.replace(
    inEnv ? ENV_VARIABLE : LAUNCH_VARIABLE,
    (match, name: string | undefined) => {
      if (name === undefined || problem !== undefined) return match;
      const known = variables.has(name);
      const value = variables.get(name);
      if (value !== undefined && !(inEnv && value.includes('$'))) return value;
      if (VSCODE_ONLY.test(name)) {
        problem = name.startsWith('input:')
          ? `prompted inputs (${shownVariable(name)}) are not supported; copy this server into your config.json and put the value in "env" as a \${VAR} reference`
          : `${shownVariable(name)} needs VS Code and is not supported; copy this server into your config.json with the value written out`;
      } else if (known) {
        problem = `${shownVariable(name)} cannot be used here: ${value === undefined ? 'the home folder is unknown' : "its value contains '$'"}`;
      } else if (!inEnv) {
        problem = `${shownVariable(name)} is not supported in command, args or cwd (only \${workspaceFolder}, \${workspaceFolderBasename}, \${userHome}, \${pathSeparator} and \${/} are); move environment variables into "env"`;
      }
      return match;
    },
  );
  return problem === undefined ? result : { detail: problem };
}

// ---------------------------------------------------------------------------------------------
// Trust claims.

// Matched on the key lower-cased with everything but letters and digits removed, so
// `always_allow`, `auto-approve` and `AutoApprove` are all caught. Over-matching costs nothing:
// every key outside the schema is ignored anyway; this list only says so out loud.
const TRUST_CLAIM =
  /trust|approv|allow|fingerprint|sha(1|256|512)|hash|signature|^pin|pinned|autostart|autorun|autoexec|confirm|consent|yolo|permission|bypass|policy|^enable|verified/;
/** Keys reported per entry at most; the rest are summed up. */
const MAX_REPORTED_CLAIMS = 32;

/** The keys among `keys` that claim trust, as written. */
function claimKeys(keys: readonly string[]): string[] {
  return keys.filter((key) => TRUST_CLAIM.test(key.toLowerCase().replace(/[^a-z0-9]/g, '')));
}

/** Claim keys for display: plain words as is, others quoted with invisible characters escaped
 * (formatJsonPath's rules), at most MAX_REPORTED_CLAIMS of them. */
function shownClaims(keys: readonly string[]): string[] {
  const shown = keys.slice(0, MAX_REPORTED_CLAIMS).map((key) => formatJsonPath([key]));
  if (keys.length > MAX_REPORTED_CLAIMS) shown.push(`(${keys.length - MAX_REPORTED_CLAIMS} more)`);
  return shown;
}

// ---------------------------------------------------------------------------------------------
// Helpers.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** The text of a file as read: a string is taken as is (a test's reader), bytes must be UTF-8. */
function decode(
  bytes: Uint8Array | string,
): { ok: true; value: string } | { ok: false; detail: string } {
  if (typeof bytes === 'string') return { ok: true, value: bytes };
  if (bytes.length > MAX_CONFIG_FILE_BYTES) {
    return { ok: false, detail: `the file is larger than ${MAX_CONFIG_FILE_BYTES} bytes` };
  }
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return { ok: false, detail: 'the file is saved as UTF-16: save it as UTF-8' };
  }
  try {
    return {
      ok: true,
      value: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes),
    };
  } catch {
    return { ok: false, detail: 'the file is not valid UTF-8' };
  }
}

/** Absolute without depending on a current drive or folder (on Windows `\x` and `C:x` are not). */
function isFullyAbsolute(value: string): boolean {
  if (process.platform !== 'win32') return path.isAbsolute(value);
  return /^[A-Za-z]:[\\/]/.test(value) || /^[\\/]{2}[^\\/]/.test(value);
}

/**
 * A folder spelled the way workspace roots are (`WorkspaceConfig.root`): normalized, without
 * trailing separators, a bare root kept. Compare folders in this spelling.
 */
export function normalizeFolder(value: string): string {
  const normalized = path.normalize(value);
  const root = path.parse(normalized).root;
  return normalized.length > root.length ? normalized.replace(/[\\/]+$/, '') : normalized;
}

/** Text from a repository or a caller, quoted with invisible characters escaped and capped. */
function shownText(text: string): string {
  const capped = text.length > 200 ? `${text.slice(0, 200)}...` : text;
  return JSON.stringify(capped).replace(
    /[\p{C}\p{Zl}\p{Zp}]/gu,
    (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`,
  );
}

function shownVariable(name: string): string {
  return /^[\w:./-]{1,60}$/.test(name) ? `\${${name}}` : 'a ${...} variable';
}

/** Offset of the value at `jsonPath` (or of its key), or of the nearest ancestor in the file. */
function offsetOf(scanned: ScannedJson, jsonPath: JsonPath, onKey: boolean): number {
  for (let length = jsonPath.length; length >= 0; length--) {
    const location = scanned.locate(jsonPath.slice(0, length));
    if (location === undefined) continue;
    const wantKey = onKey || length < jsonPath.length;
    return wantKey && location.keyOffset !== undefined ? location.keyOffset : location.valueOffset;
  }
  return 0;
}

function locatedWarning(
  kind: WorkspaceWarningKind,
  file: string,
  at: Position,
  detail: string,
  server?: string,
): WorkspaceWarning {
  const key = at.key === '' ? '' : `${at.key}: `;
  return {
    kind,
    file,
    line: at.line,
    column: at.column,
    key: at.key,
    ...(server === undefined ? {} : { server }),
    message: `${file}:${at.line}:${at.column}: ${key}${detail}`,
  };
}

/** A warning about a whole file (or folder); line and column point at its start. */
function fileWarning(
  kind: WorkspaceWarningKind,
  file: string,
  detail: string,
  at?: { line: number; column: number },
): WorkspaceWarning {
  if (at !== undefined) return locatedWarning(kind, file, { ...at, key: '' }, detail);
  return { kind, file, line: 1, column: 1, key: '', message: `${file}: ${detail}` };
}
