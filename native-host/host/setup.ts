import { copyEndpoint } from '../shared/remote-endpoint';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { readClientMetadataUrl } from '../config/client-metadata-url';
import { ConfigError, loadConfigFile } from '../config/load';
import { configPath, switchyardHome } from '../config/paths';
import { loadWorkspace, mergeTiers, normalizeFolder, type MergedServer } from '../config/workspace';
import { parseToolPolicy, type ToolPolicyRules } from '../policy/tool-policy';
import { loadProfiles } from '../profiles/load';
import type { ProfileSetup } from '../profiles/store';
import { resolveCommand, type ResolveCommandOptions } from '../supervisor/resolve-command';
import type { LaunchDefinition, RemoteEndpoint } from '../shared/server-spec';
import type { ServerSpec } from '../shared/server-spec';
import { messageOf } from '../../protocol/guards';

/**
 * Everything the host and the CLI need before starting servers: the state directory, the merged
 * server specs (user tier, then the workspace tiers of the folders config.json lists in
 * `workspaces` and as profiles' workspace folders), each with the exact launch definition the
 * trust gate fingerprints and the launcher spawns, the tool policy, the profiles, and the
 * problems found on the way. A broken config never stops the host: it starts with
 * no servers and reports why through `host/hello` and `doctor`.
 */

export interface HostSetup {
  /** `$SWITCHYARD_HOME` or the per-OS default; null when it cannot be determined. */
  readonly home: string | null;
  readonly configFile: string | null;
  readonly specs: readonly ServerSpec[];
  readonly toolPolicy: ToolPolicyRules;
  /** One line per problem, each naming the file, line and key where there is one. */
  readonly warnings: readonly string[];
  /** True when the config file was rejected whole. */
  readonly configRejected: boolean;
  /** User-tier servers skipped for an invalid entry (a reload keeps their running version). */
  readonly skippedServers?: readonly string[];
  /** `profiles` in config.json and the shared `workspaces` (design D10); absent: none. */
  readonly profiles?: ProfileSetup;
  /** `oauthClientMetadataUrl` in config.json (SEP-991); absent: dynamic registration. */
  readonly clientMetadataUrl?: string;
  /** The workspace folders whose files were read, as first written (absent: none). */
  readonly workspaceFolders?: readonly string[];
}

export interface SetupEnvironment {
  readonly env: NodeJS.ProcessEnv;
  readonly platform: NodeJS.Platform;
  readonly homedir?: string;
}

/** `workspaces` in config.json: folders whose `.mcp.json` / `.vscode/mcp.json` join the config. */
const WorkspacesSchema = z.array(z.string().min(1).max(4096)).max(64);

export async function loadSetup({
  env,
  platform,
  homedir = os.homedir(),
}: SetupEnvironment): Promise<HostSetup> {
  const empty = { specs: [], toolPolicy: [], configRejected: true } as const;
  let home: string;
  try {
    home = switchyardHome(env, platform, homedir);
  } catch (error) {
    return { ...empty, home: null, configFile: null, warnings: [messageOf(error)] };
  }
  const file = configPath(home, platform);
  let loaded;
  try {
    loaded = await loadConfigFile(file);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { ...empty, home, configFile: file, warnings: [error.message] };
  }
  const warnings = loaded.warnings.map((w) => w.message);

  const roots = WorkspacesSchema.safeParse(loaded.raw['workspaces'] ?? []);
  if (!roots.success) {
    warnings.push(`${file}: "workspaces" must be a list of absolute folder paths; it was ignored`);
  }
  const profiles = await loadProfiles(file, loaded.raw);
  warnings.push(...profiles.warnings);
  // The shared folders first (a server name two folders define comes from the first), then each
  // profile's own workspace folder: its files join the workspace tier, behind the same gate.
  // Each folder once, spelled as first written (a warning about it quotes the user's spelling).
  const folders = new Map<string, string>();
  const profileFolders = profiles.profiles.flatMap((p) => p.workspace ?? []);
  for (const folder of [...(roots.data ?? []), ...profileFolders]) {
    const key = normalizeFolder(folder);
    if (!folders.has(key)) folders.set(key, folder);
  }
  const workspaces = await Promise.all(
    [...folders.values()].map((root) => loadWorkspace(root, undefined, { homedir })),
  );
  for (const workspace of workspaces) warnings.push(...workspace.warnings.map((w) => w.message));
  const merged = mergeTiers(loaded.servers, workspaces);
  warnings.push(...merged.warnings);

  const policy = parseToolPolicy(loaded.raw['toolPolicy']);
  warnings.push(...policy.warnings.map((w) => `${file}: toolPolicy: ${w}`));
  const metadataUrl = readClientMetadataUrl(loaded.raw);
  if (metadataUrl.warning !== undefined) warnings.push(`${file}: ${metadataUrl.warning}`);

  const searchPath = env['PATH'] ?? env['Path'];
  const specs = await Promise.all(
    merged.servers.map((server) => toSpec(server, searchPath, platform)),
  );
  return {
    home,
    configFile: file,
    specs,
    toolPolicy: policy.rules,
    warnings,
    configRejected: false,
    skippedServers: loaded.warnings.flatMap((w) =>
      w.kind === 'invalid-entry' && w.server !== undefined ? [w.server] : [],
    ),
    profiles: {
      profiles: profiles.profiles,
      sharedWorkspaces: (roots.data ?? []).map(normalizeFolder),
    },
    ...(metadataUrl.url === undefined ? {} : { clientMetadataUrl: metadataUrl.url }),
    workspaceFolders: [...folders.values()],
  };
}

/** The file probes command resolution uses; the real filesystem unless a test passes its own. */
export type ResolveFiles = Pick<ResolveCommandOptions, 'isFile' | 'isExecutable' | 'readFile'>;

/**
 * The spec of one merged server: its command resolved once and the launch definition built from
 * it. Exported so that a server Switchyard writes to config.json is approved with exactly the
 * definition a (re)load of that file will produce.
 */
export async function toSpec(
  server: MergedServer,
  searchPath: string | undefined,
  platform: NodeJS.Platform,
  files: ResolveFiles = {},
): Promise<ServerSpec> {
  if (server.remote !== undefined) return remoteSpec(server, server.remote);
  // Resolved once: the fingerprint and the spawn use this one object (design D6), so nothing can
  // change between what the user approved and what runs.
  const resolved = await resolveCommand(server.command, {
    ...files,
    pathEnv: searchPath,
    platform,
    ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
  });
  // An npm shim on Windows (decision 0014) runs node on a script: the definition holds exactly
  // that argv, node + script + the entry's args, so the fingerprint covers what runs (D6).
  const shim = resolved.ok ? (resolved.shim ?? null) : null;
  const definition: LaunchDefinition | null = resolved.ok
    ? Object.freeze({
        executable: resolved.path,
        args: Object.freeze([...(shim?.prefixArgs ?? []), ...server.args]),
        env: Object.freeze({ ...server.env }),
        cwd: server.cwd ?? null,
        provenance: server.provenance,
        workspaceRoot: server.workspaceRoot,
        ...toolPrefixOf(server),
      })
    : null;
  const sourceFile = Object.values(server.fieldSources).find((s) => s !== 'user') ?? null;
  return {
    name: server.name,
    command: server.command,
    args: server.args,
    env: server.env,
    cwd: server.cwd,
    handshakeTimeoutMs: server.handshakeTimeoutMs,
    toolTimeoutMs: server.toolTimeoutMs,
    apps: server.apps ?? true,
    prefix: server.prefix,
    envKeys: Object.keys(server.env),
    provenance: server.provenance,
    workspaceRoot: server.workspaceRoot,
    scope: server.workspaceRoot ?? 'user',
    sourceFile: sourceFile === null ? null : path.normalize(sourceFile),
    ignoredTrustClaims: server.ignoredTrustClaims,
    definition,
    resolutionError: resolved.ok ? null : { reason: resolved.reason, message: resolved.message },
    resolvedCommand: resolved.ok ? resolved.path : null,
    shim,
    disabled: server.disabled,
    remote: null,
  };
}

/** A remote server's spec: nothing to resolve; the definition is what the host would contact. */
function remoteSpec(server: MergedServer, remote: RemoteEndpoint): ServerSpec {
  const copy = copyEndpoint(remote);
  const endpoint: RemoteEndpoint = Object.freeze({
    ...copy,
    headers: Object.freeze(copy.headers),
    ...(copy.oauth === undefined
      ? {}
      : { oauth: Object.freeze({ ...copy.oauth, scopes: Object.freeze(copy.oauth.scopes) }) }),
  });
  const definition: LaunchDefinition = Object.freeze({
    executable: remote.url,
    args: Object.freeze([]),
    env: Object.freeze({}),
    cwd: null,
    provenance: server.provenance,
    workspaceRoot: server.workspaceRoot,
    remote: endpoint,
    ...toolPrefixOf(server),
  });
  const sourceFile = Object.values(server.fieldSources).find((s) => s !== 'user') ?? null;
  return {
    name: server.name,
    command: '',
    args: [],
    env: {},
    cwd: undefined,
    handshakeTimeoutMs: server.handshakeTimeoutMs,
    toolTimeoutMs: server.toolTimeoutMs,
    apps: server.apps ?? true,
    prefix: server.prefix,
    envKeys: [],
    provenance: server.provenance,
    workspaceRoot: server.workspaceRoot,
    scope: server.workspaceRoot ?? 'user',
    sourceFile: sourceFile === null ? null : path.normalize(sourceFile),
    ignoredTrustClaims: server.ignoredTrustClaims,
    definition,
    resolutionError: null,
    resolvedCommand: null,
    shim: null,
    disabled: server.disabled,
    remote: endpoint,
  };
}

/** What the launch definition says of the tool prefix: a workspace-only server's, as merged. */
function toolPrefixOf(server: MergedServer): { toolPrefix?: string } {
  return server.workspacePrefix === undefined ? {} : { toolPrefix: server.workspacePrefix };
}
