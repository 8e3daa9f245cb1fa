import { DEFAULT_HANDSHAKE_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS } from './schema';
import type { ServerConfig } from './schema';
import { exposedHead } from '../names/namespace';
import { copyEndpoint } from '../shared/remote-endpoint';
import { LAUNCH_FIELDS } from './workspace-types';
import type { LaunchField, WorkspaceConfig, WorkspaceServer } from './workspace-types';

/**
 * The tier merge (design.md section 2, D5/D6): the user's config.json with the workspace tiers,
 * deciding per launch field where it came from, so that anything a repository wrote is
 * `workspace` provenance and goes through the trust gate.
 */

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
  /**
   * For a workspace-only server, the `prefix` the merge gave it: the one its file wrote unless
   * another server's tools start that way, or `workspace_<name>` when its name is taken too. The
   * launch fingerprint covers it, so whatever renames the server's tools (the repository's edit,
   * or a server of yours that is skipped or removed) stops it and asks again: the head of its
   * tool names is what allow rules and profile filters are written against. Absent when its
   * tools are named by its name (which the approval is keyed by), and for every other server.
   */
  readonly workspacePrefix?: string;
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
 * `prefix` is dropped when it names tools like a user-tier server's name or prefix, or like a
 * workspace-only server before it, so its tools cannot take the names an allow-list was written
 * for (and its name, when that is taken too, becomes `workspace_<name>`; `workspacePrefix` is
 * the outcome, for the launch fingerprint). A name defined by several workspaces
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
  // The heads of tool names already given out, as the name table writes them (sanitized, so
  // `github.`, `github_` and a full-width `ｇｉｔｈｕｂ` are all `github`), compared up to case,
  // and who has each: first the user tier's, then each workspace-only server's in turn.
  const taken: Heads = new Map();
  for (const s of users.values()) {
    taken.set(exposedHead(s.name, s.prefix).toLowerCase(), YOUR_CONFIG);
    taken.set(exposedHead(s.name).toLowerCase(), YOUR_CONFIG);
  }

  const servers: MergedServer[] = [];
  for (const base of users.values()) {
    const over = chosen.get(base.name);
    servers.push(
      over === undefined ? fromUser(base) : overlay(base, over.server, over.root, warnings),
    );
  }
  for (const [name, { server, root }] of chosen) {
    if (users.has(name)) continue;
    const merged = workspaceOnly(server, root, taken, warnings);
    if (merged === undefined) continue;
    servers.push(merged);
    const head = exposedHead(merged.name, merged.prefix).toLowerCase();
    if (!taken.has(head)) taken.set(head, `server "${merged.name}" of the workspace ${root}`);
  }
  return { servers, warnings };
}

function fromUser(base: ServerConfig): MergedServer {
  return {
    ...copyOf(base),
    provenance: 'user',
    workspaceRoot: null,
    fieldSources: { command: 'user', args: 'user', env: 'user', cwd: 'user', remote: 'user' },
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
    remote: source('remote'),
  };
  // A workspace entry naming a URL replaces the user's server with a remote one; one naming a
  // command replaces a remote one with a local server. Other fields overlay as they always did.
  const { remote: baseRemote, ...local } = copyOf(base);
  const remote = over.remote ?? (over.command === undefined ? baseRemote : undefined);
  if (remote !== undefined) {
    // A remote server runs elsewhere: these fields of the workspace entry cannot reach it.
    const unused = (['args', 'env', 'cwd'] as const).filter((field) => over[field] !== undefined);
    if (unused.length > 0) {
      warnings.push(
        `${over.file}: server "${base.name}": ${unused.join(', ')} ${unused.length === 1 ? 'has' : 'have'} no meaning for a remote server (it runs elsewhere); ignored`,
      );
    }
  }
  const merged = {
    ...local,
    ...(over.command === undefined ? {} : { command: over.command }),
    ...(over.args === undefined ? {} : { args: [...over.args] }),
    env: { ...base.env, ...over.env },
    ...(over.cwd === undefined ? {} : { cwd: over.cwd }),
    ...(remote === undefined
      ? {}
      : { command: '', args: [], env: {}, cwd: undefined, remote: copyEndpoint(remote) }),
    fieldSources,
    ignoredTrustClaims: claims,
  };
  return LAUNCH_FIELDS.some((field) => over[field] !== undefined)
    ? { ...merged, provenance: 'workspace', workspaceRoot: root }
    : { ...merged, provenance: 'user', workspaceRoot: null };
}

/** Lower-cased head -> who names tools that way, for messages. */
type Heads = Map<string, string>;
const YOUR_CONFIG = 'a server in your config.json';

function workspaceOnly(
  server: WorkspaceServer,
  root: string,
  taken: ReadonlyMap<string, string>,
  warnings: string[],
): MergedServer | undefined {
  if (server.command === undefined && server.remote === undefined) {
    warnings.push(
      `${server.file}: server "${server.name}" has no "command" and your config.json has no server of that name to extend; skipped`,
    );
    return undefined;
  }
  // A repository's server must not take the names of your own servers' tools, nor of another
  // workspace server's listed before it: it would inherit their allow rules and profile filters,
  // and their names whenever that server is down.
  let prefix = server.prefix;
  const prefixHolder =
    prefix === undefined ? undefined : taken.get(exposedHead(server.name, prefix).toLowerCase());
  if (prefix !== undefined && prefixHolder !== undefined) {
    warnings.push(
      `${server.file}: server "${server.name}": prefix "${prefix}" is taken by ${prefixHolder}; the server name is used instead`,
    );
    prefix = undefined;
  }
  const nameHolder =
    prefix === undefined ? taken.get(exposedHead(server.name).toLowerCase()) : undefined;
  if (nameHolder !== undefined) {
    prefix = freeHead(`workspace_${exposedHead(server.name)}`, taken);
    warnings.push(
      `${server.file}: server "${server.name}" would name its tools like ${nameHolder}; they are named "${prefix}__…" instead`,
    );
  }
  const file = server.file;
  const remote = server.remote;
  return {
    name: server.name,
    command: server.command ?? '',
    args: [...(server.args ?? [])],
    env: { ...server.env },
    // A remote server has no folder; a local one runs in the workspace unless it says otherwise.
    ...(remote === undefined ? { cwd: server.cwd ?? root } : { remote: copyEndpoint(remote) }),
    ...(prefix === undefined ? {} : { prefix }),
    handshakeTimeoutMs: server.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS,
    toolTimeoutMs: server.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    disabled: server.disabled ?? false,
    provenance: 'workspace',
    workspaceRoot: root,
    fieldSources: { command: file, args: file, env: file, cwd: file, remote: file },
    ignoredTrustClaims: [...server.ignoredTrustClaims],
    ...(prefix === undefined ? {} : { workspacePrefix: prefix }),
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
    ...(base.remote === undefined ? {} : { remote: copyEndpoint(base.remote) }),
    ...(base.prefix === undefined ? {} : { prefix: base.prefix }),
    handshakeTimeoutMs: base.handshakeTimeoutMs,
    toolTimeoutMs: base.toolTimeoutMs,
    disabled: base.disabled,
    ...(base.apps === undefined ? {} : { apps: base.apps }),
  };
}

/** The key in the file for each entry field, for messages. */
const FILE_KEY: Record<'prefix' | 'handshakeTimeoutMs' | 'toolTimeoutMs' | 'disabled', string> = {
  prefix: '"prefix"',
  handshakeTimeoutMs: '"timeout"',
  toolTimeoutMs: '"toolTimeout"',
  disabled: '"disabled"',
};

/** `base`, or `base_2`, `base_3`, … : the first whose head no server has yet. */
function freeHead(base: string, taken: ReadonlyMap<string, string>): string {
  let candidate = base;
  for (let n = 2; taken.has(exposedHead('', candidate).toLowerCase()); n += 1) {
    candidate = `${base}_${n}`;
  }
  return candidate;
}
