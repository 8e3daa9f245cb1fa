import { copyIdp } from '../shared/remote-endpoint';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError, loadConfigFile } from '../config/load';
import { ServerEntrySchema, serverNameProblem } from '../config/schema';
import { LAUNCH_FIELDS, mergeTiers } from '../config/workspace';
import { updateConfigFile } from '../config/write';
import { launchFingerprint } from '../trust/fingerprint';
import type { LaunchApproval, TrustStore } from '../trust/trust-store';
import { HostError } from '../shared/host-error';
import type { PreRegisteredClient, ShimRead } from '../shared/server-spec';
import { configUpdateError } from '../config/config-error-details';
import { loadSetup, toSpec, type HostSetup, type SetupEnvironment } from './setup';
import { isRecord } from '../../protocol/guards';

/**
 * Servers written to the user tier by Switchyard itself (the popup through `servers/add`, or
 * `switchyard add`): one function for both, so an entry Switchyard writes is approved for exactly
 * the launch a load of config.json will produce, and starts without a prompt (design.md §2: "yes,
 * if written by Switchyard"). A hand-written entry has no such approval and asks once
 * (`edited-outside`). Removal deletes the entry and forgets its approval and tool pins.
 *
 * Errors are HostErrors with a protocol reason; the CLI prints their messages.
 */

/** A server as the user gave it: the popup's form, or `switchyard add`'s arguments. A local
 * server has a `command`; a remote one a `url` (and maybe `transport` and `headers`). */
export type NewUserServer = NewLocalServer | NewRemoteServer;

export interface NewLocalServer {
  readonly name: string;
  readonly command: string;
  readonly args?: readonly string[] | undefined;
  readonly env?: Readonly<Record<string, string>> | undefined;
  readonly cwd?: string | undefined;
}

export interface NewRemoteServer {
  readonly name: string;
  readonly url: string;
  /** Written as `"type"`; omitted, the host tries Streamable HTTP, then the legacy SSE. */
  readonly transport?: 'http' | 'sse' | undefined;
  /** Values as the user wrote them: `${VAR}` is expanded when connecting. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** A pre-registered OAuth client (an import); omitted, an existing entry's `oauth` is kept. */
  readonly oauth?: PreRegisteredClient | undefined;
}

export interface UserServersContext extends SetupEnvironment {
  readonly trust: TrustStore;
}

/** The launch fields as written under `mcpServers.<name>`: a command, or a url. */
export type WrittenEntry =
  | {
      readonly command: string;
      readonly args?: string[];
      readonly env?: Record<string, string>;
      readonly cwd?: string;
    }
  | {
      readonly type?: 'http' | 'sse';
      readonly url: string;
      readonly headers?: Record<string, string>;
      readonly oauth?: Record<string, unknown>;
    };

export interface AddedServer {
  readonly name: string;
  readonly configFile: string;
  readonly entry: WrittenEntry;
  /** An entry of that name was replaced (its other keys, such as `prefix`, were kept). */
  readonly replaced: boolean;
  /** The absolute program the approval covers; null when the command was not found. */
  readonly executable: string | null;
  /** The npm shim the command named on Windows, read to find what runs (decision 0014). */
  readonly shim: ShimRead | null;
  /** Why the command could not be resolved; the entry was written anyway, and nothing approved. */
  readonly notFound: string | null;
  /** Fingerprint of the launch approval recorded; null when nothing would run. */
  readonly fingerprint: string | null;
}

export interface RemovedServer {
  readonly name: string;
  readonly configFile: string;
  /** Whether a launch approval was forgotten. */
  readonly launch: boolean;
  /** How many tool pins were forgotten. */
  readonly pins: number;
}

const USER_SCOPE = 'user';

/**
 * Adds `server` to config.json and approves its launch. Refuses a name config.json already has
 * unless `replace` (which replaces the launch fields and keeps the entry's other keys), and a name
 * a workspace file defines. The approval is recorded before the entry is written (a host that
 * reloads in between must never see the entry unapproved) and withdrawn if the write fails.
 * A command that is not found is written unapproved, unless `requireCommand` refuses it.
 */
export async function addUserServer(
  server: NewUserServer,
  options: {
    readonly replace?: boolean;
    /**
     * Refuse, writing nothing, when the command cannot be resolved (`switchyard add`: a typo
     * should fail where it is typed). The popup writes it anyway and shows the server as not
     * found, so the entry can be fixed in place.
     */
    readonly requireCommand?: boolean;
    /**
     * false: write the entry and record no approval, so what it runs waits at the launch gate
     * (`servers/update`: an edit of what runs is a new approval). Default true.
     */
    readonly approve?: boolean;
  },
  context: UserServersContext,
): Promise<AddedServer> {
  const { name } = server;
  const nameProblem = serverNameProblem(name);
  if (nameProblem !== undefined) {
    throw new HostError('invalid-params', `'${name}' cannot be a server name: ${nameProblem}.`);
  }
  if (
    'cwd' in server &&
    server.cwd !== undefined &&
    server.cwd !== '' &&
    !path.isAbsolute(server.cwd)
  ) {
    // The host is started by the browser, in a folder nobody chose: only an absolute one means
    // what the user meant.
    throw new HostError(
      'invalid-params',
      `Server '${name}' cannot be added: cwd must be an absolute folder, not '${server.cwd}'.`,
    );
  }
  const { setup, configFile, servers } = await userTier(context);
  const existing = setup.specs.find((spec) => spec.name === name);
  const before = servers[name];
  // A server only a workspace file defines is the repository's to change. One of config.json's
  // that a workspace file overlays is still the user's entry: it is what is edited (the overlay
  // then applies again, and its launch asks as before).
  if (existing?.provenance === 'workspace' && before === undefined) {
    throw workspaceServer(name, existing.workspaceRoot);
  }
  if (before !== undefined && options.replace !== true) throw alreadyExists(name, configFile);

  const entry = writtenEntry(server);
  const raw = { ...launchlessCopy(before), ...entry };
  const parsed = ServerEntrySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path.map(String).join('.') ?? '';
    throw new HostError(
      'invalid-params',
      `Server '${name}' cannot be added: ${key === '' ? '' : `${key}: `}${issue?.message ?? 'invalid entry'}.`,
    );
  }
  const [merged] = mergeTiers([{ name, ...parsed.data }], []).servers;
  if (merged === undefined)
    throw new HostError('internal', `Server '${name}' could not be merged.`);
  const spec = await toSpec(merged, context.env['PATH'] ?? context.env['Path'], context.platform);
  if (options.requireCommand === true && spec.definition === null) {
    throw new HostError(
      'invalid-params',
      `Server '${name}' was not added: ${spec.resolutionError?.message ?? 'its command was not found.'} Nothing was written.`,
      { server: name },
    );
  }

  const { trust } = context;
  const approved = options.approve === false ? null : spec.definition;
  const previous: LaunchApproval | undefined = await trust.launchApproval(USER_SCOPE, name);
  if (approved !== null) await trust.approveLaunch(USER_SCOPE, name, approved);
  try {
    await writeConfig(configFile, (config) => {
      const current = serversOf(config);
      if (Object.hasOwn(current, name) && options.replace !== true) {
        throw alreadyExists(name, configFile);
      }
      current[name] = raw;
      config['mcpServers'] = current;
    });
  } catch (error) {
    // Put trust.json back as it was: an approval must not outlive the entry it was made for.
    if (approved !== null) {
      if (previous === undefined) await trust.revokeLaunch(USER_SCOPE, name);
      else await trust.approveLaunch(USER_SCOPE, name, previous.definition);
    }
    throw error;
  }
  return {
    name,
    configFile,
    entry,
    replaced: before !== undefined,
    executable: spec.definition?.executable ?? null,
    shim: spec.shim,
    notFound: spec.resolutionError?.message ?? null,
    fingerprint: approved === null ? null : launchFingerprint(approved),
  };
}

/**
 * Deletes the config.json entry `name` and forgets its launch approval and tool pins. A server
 * that only a workspace file defines cannot be removed here: the error says to edit that file or
 * revoke the workspace's trust.
 */
export async function removeUserServer(
  name: string,
  context: UserServersContext,
): Promise<RemovedServer> {
  const { setup, configFile, servers } = await userTier(context);
  if (servers[name] === undefined) {
    const existing = setup.specs.find((spec) => spec.name === name);
    if (existing?.provenance === 'workspace') throw workspaceServer(name, existing.workspaceRoot);
    throw new HostError(
      'unknown-server',
      `No server named '${name}' is in ${configFile}; nothing was removed.`,
      { server: name },
    );
  }
  await writeConfig(configFile, (config) => {
    const current = Object.entries(serversOf(config)).filter(([key]) => key !== name);
    config['mcpServers'] = Object.fromEntries(current);
  });
  // After the entry is gone, so a host reloading in between never sees it unapproved.
  const forgotten = await context.trust.forgetServer(USER_SCOPE, name);
  return { name, configFile, ...forgotten };
}

/**
 * Turns the MCP Apps of the config.json entry `name` on or off: off writes `"apps": false`, on
 * removes the key (absent: on). Only that key changes, and it is no part of the launch
 * fingerprint, so no approval is asked or recorded. Resolves to whether the file changed (it is
 * not written when the entry already says so). A server that only a workspace file defines cannot
 * be changed here: Switchyard does not write repository files.
 */
export async function setUserServerApps(
  name: string,
  enabled: boolean,
  context: UserServersContext,
): Promise<{ readonly configFile: string; readonly changed: boolean }> {
  const { setup, configFile, servers } = await userTier(context);
  const entry = servers[name];
  if (!isRecord(entry)) {
    const existing = setup.specs.find((spec) => spec.name === name);
    if (existing?.provenance === 'workspace') throw workspaceServer(name, existing.workspaceRoot);
    throw unknownEntry(name, configFile);
  }
  if (appsOf(entry) === enabled) return { configFile, changed: false };
  let changed = false;
  await writeConfig(configFile, (config) => {
    const current = serversOf(config);
    const now = current[name];
    // Removed meanwhile (another host, an editor): nothing to change, and nothing to re-create.
    if (!isRecord(now)) throw unknownEntry(name, configFile);
    if (appsOf(now) === enabled) return;
    const rest = Object.fromEntries(Object.entries(now).filter(([key]) => key !== 'apps'));
    current[name] = enabled ? rest : { ...rest, apps: false };
    changed = true;
  });
  return { configFile, changed };
}

/** What an entry's `apps` key means: only `false` turns apps off (the schema refuses others). */
function appsOf(entry: Record<string, unknown>): boolean {
  return entry['apps'] !== false;
}

export function unknownEntry(name: string, configFile: string): HostError {
  return new HostError(
    'unknown-server',
    `No server named '${name}' is in ${configFile}; nothing was changed.`,
    { server: name },
  );
}

const ServersSchema = z.record(z.string(), z.unknown());

function serversOf(config: Record<string, unknown>): Record<string, unknown> {
  const servers = config['mcpServers'];
  return isRecord(servers) ? servers : {};
}

/** The setup (for workspace names) and config.json's own entries, read strictly. */
export async function userTier(context: UserServersContext): Promise<{
  setup: HostSetup;
  configFile: string;
  servers: Readonly<Record<string, unknown>>;
}> {
  const setup = await loadSetup(context);
  const configFile = setup.configFile;
  if (configFile === null) {
    throw new HostError(
      'config-invalid',
      `Cannot find the configuration: ${setup.warnings.join('; ')}`,
    );
  }
  try {
    const loaded = await loadConfigFile(configFile);
    return {
      setup,
      configFile,
      servers: ServersSchema.safeParse(loaded.raw['mcpServers']).data ?? {},
    };
  } catch (error) {
    if (error instanceof ConfigError) throw configUpdateError(error);
    throw error;
  }
}

async function writeConfig(
  file: string,
  mutate: (config: Record<string, unknown>) => void,
): Promise<void> {
  try {
    await updateConfigFile(file, mutate);
  } catch (error) {
    if (error instanceof ConfigError) throw configUpdateError(error);
    throw error;
  }
}

/** The launch fields `server` is written as: what `switchyard add`, the popup and import write. */
export function writtenEntry(server: NewUserServer): WrittenEntry {
  if ('url' in server) {
    return {
      ...(server.transport === undefined ? {} : { type: server.transport }),
      url: server.url,
      ...(server.headers === undefined || Object.keys(server.headers).length === 0
        ? {}
        : { headers: { ...server.headers } }),
      ...(server.oauth === undefined ? {} : { oauth: oauthEntry(server.oauth) }),
    };
  }
  return {
    command: server.command,
    ...(server.args === undefined || server.args.length === 0 ? {} : { args: [...server.args] }),
    ...(server.env === undefined || Object.keys(server.env).length === 0
      ? {}
      : { env: { ...server.env } }),
    ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
  };
}

/** A pre-registered client as config.json spells it (no empty `scopes`). */
function oauthEntry(client: PreRegisteredClient): Record<string, unknown> {
  return {
    clientId: client.clientId,
    ...(client.clientSecret === undefined ? {} : { clientSecret: client.clientSecret }),
    ...(client.scopes.length === 0 ? {} : { scopes: [...client.scopes] }),
    ...(client.grant === undefined ? {} : { grant: client.grant }),
    ...(client.privateKey === undefined ? {} : { privateKey: client.privateKey }),
    ...(client.algorithm === undefined ? {} : { algorithm: client.algorithm }),
    ...(client.issuer === undefined ? {} : { issuer: client.issuer }),
    ...(client.idp === undefined ? {} : { idp: copyIdp(client.idp) }),
  };
}

/** The keys of an entry that say what runs or what is contacted, as a file spells them. */
const WRITTEN_LAUNCH_KEYS: ReadonlySet<string> = new Set([
  ...LAUNCH_FIELDS.filter((field) => field !== 'remote'),
  'type',
  'transportType',
  'url',
  'serverUrl',
  'httpUrl',
  'headers',
]);

/** An existing entry without its launch fields: what `replace` keeps (prefix, timeouts, ...).
 * Replacing a local server with a remote one (or back) leaves nothing of the old kind behind. */
function launchlessCopy(entry: unknown): Record<string, unknown> {
  if (!isRecord(entry)) return {};
  return Object.fromEntries(Object.entries(entry).filter(([key]) => !WRITTEN_LAUNCH_KEYS.has(key)));
}

function alreadyExists(name: string, configFile: string): HostError {
  return new HostError(
    'already-exists',
    `A server named '${name}' is already in ${configFile}; choose another name, or replace it (--replace in the CLI).`,
    { server: name },
  );
}

export function workspaceServer(name: string, root: string | null): HostError {
  return new HostError(
    'workspace-server',
    `Server '${name}' comes from the workspace ${root ?? '(unknown)'}: edit its .mcp.json or .vscode/mcp.json, or revoke the workspace's trust; Switchyard does not change repository files.`,
    { server: name, workspace: root },
  );
}
