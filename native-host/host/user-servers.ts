import path from 'node:path';
import { z } from 'zod';
import { ConfigError, loadConfigFile } from '../config/load';
import { readTransport } from '../config/remote-entry';
import { ServerEntrySchema, serverNameProblem } from '../config/schema';
import { mergeTiers } from '../config/workspace';
import { updateConfigFile, withLockedConfigFile, type LockedConfigFile } from '../config/write';
import { launchFingerprint } from '../trust/fingerprint';
import type { TrustStore } from '../trust/trust-store';
import { HostError } from '../shared/host-error';
import type { ShimRead } from '../shared/server-spec';
import { configUpdateError } from '../config/config-error-details';
import { loadSetup, toSpec, type HostSetup, type SetupEnvironment } from './setup';
import { isRecord } from '../../protocol/guards';
import {
  launchlessCopy,
  writtenEntry,
  type NewUserServer,
  type WrittenEntry,
} from './written-entry';

/**
 * Servers written to the user tier by Switchyard itself (the popup through `servers/add`, or
 * `switchyard add`): one function for both, so an entry Switchyard writes is approved for exactly
 * the launch a load of config.json will produce, and starts without a prompt (design.md §2: "yes,
 * if written by Switchyard"). A hand-written entry has no such approval and asks once
 * (`edited-outside`). Removal deletes the entry and forgets its approval and tool pins.
 *
 * Errors are HostErrors with a protocol reason; the CLI prints their messages.
 */

export interface UserServersContext extends SetupEnvironment {
  readonly trust: TrustStore;
}

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
  /** Whether it was a remote server (its sign-in, if any, is to be forgotten too). */
  readonly remote: boolean;
}

const USER_SCOPE = 'user';

export interface AddOptions {
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
}

/**
 * Adds `server` to config.json and approves its launch. Refuses a name config.json already has
 * unless `replace` (which replaces the launch fields and keeps the entry's other keys), and a name
 * a workspace file defines. The approval is recorded before the entry is written (a host that
 * reloads in between must never see the entry unapproved) and withdrawn if the write fails.
 * A command that is not found is written unapproved, unless `requireCommand` refuses it.
 */
export function addUserServer(
  server: NewUserServer,
  options: AddOptions,
  context: UserServersContext,
): Promise<AddedServer> {
  return writeUserServer(server.name, () => server, options, context);
}

/**
 * addUserServer, for a server built from the entry config.json has (`before`, undefined when
 * there is none): `build` runs, and the approval is recorded and the entry written, all under
 * config.json's lock, so another writer (a second host, the CLI) can neither slip an entry of
 * that name in between nor have a change it made to the entry overwritten from a stale read.
 */
export async function writeUserServer(
  name: string,
  build: (before: Readonly<Record<string, unknown>> | undefined) => NewUserServer,
  options: AddOptions,
  context: UserServersContext,
): Promise<AddedServer> {
  const nameProblem = serverNameProblem(name);
  if (nameProblem !== undefined) {
    throw new HostError('invalid-params', `'${name}' cannot be a server name: ${nameProblem}.`);
  }
  const { setup, configFile } = await userTier(context);
  const existing = setup.specs.find((spec) => spec.name === name);
  return await lockedConfig(configFile, async (locked) => {
    const current = serversOf(await locked.read());
    const before = Object.hasOwn(current, name) ? current[name] : undefined;
    // A server only a workspace file defines is the repository's to change. One of config.json's
    // that a workspace file overlays is still the user's entry: it is what is edited (the overlay
    // then applies again, and its launch asks as before).
    if (existing?.provenance === 'workspace' && before === undefined) {
      throw workspaceServer(name, existing.workspaceRoot);
    }
    if (before !== undefined && options.replace !== true) throw alreadyExists(name, configFile);
    const server = build(isRecord(before) ? before : undefined);
    const prepared = await prepare(server, before, options, context);
    const { trust } = context;
    const approved = options.approve === false ? null : prepared.spec.definition;
    const previous = await trust.launchApproval(USER_SCOPE, name);
    if (approved !== null) await trust.approveLaunch(USER_SCOPE, name, approved);
    try {
      await locked.update((config) => {
        const servers = serversOf(config);
        servers[name] = prepared.raw;
        config['mcpServers'] = servers;
      });
    } catch (error) {
      // Put trust.json back as it was: an approval must not outlive the entry it was made for.
      if (approved !== null) {
        if (previous === undefined) await trust.revokeLaunch(USER_SCOPE, name);
        else await trust.approveLaunch(USER_SCOPE, name, previous.definition);
      }
      throw error;
    }
    const { spec } = prepared;
    return {
      name,
      configFile,
      entry: prepared.entry,
      replaced: before !== undefined,
      executable: spec.definition?.executable ?? null,
      shim: spec.shim,
      notFound: spec.resolutionError?.message ?? null,
      fingerprint: approved === null ? null : launchFingerprint(approved),
    };
  });
}

/** The entry `server` is written as over `before` (checked), and the launch it loads as. */
async function prepare(
  server: NewUserServer,
  before: unknown,
  options: AddOptions,
  context: UserServersContext,
): Promise<{
  entry: WrittenEntry;
  raw: Record<string, unknown>;
  spec: Awaited<ReturnType<typeof toSpec>>;
}> {
  const { name } = server;
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
  return { entry, raw, spec };
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
  const { setup, configFile } = await userTier(context);
  return await lockedConfig(configFile, async (locked) => {
    // Under the lock: an add of that name cannot land between the entry's removal and the
    // forgetting of its approval (which would then be the new entry's).
    const servers = serversOf(await locked.read());
    const entry = servers[name];
    if (!Object.hasOwn(servers, name)) {
      const existing = setup.specs.find((spec) => spec.name === name);
      if (existing?.provenance === 'workspace') throw workspaceServer(name, existing.workspaceRoot);
      throw new HostError(
        'unknown-server',
        `No server named '${name}' is in ${configFile}; nothing was removed.`,
        { server: name },
      );
    }
    await locked.update((config) => {
      const current = Object.entries(serversOf(config)).filter(([key]) => key !== name);
      config['mcpServers'] = Object.fromEntries(current);
    });
    // After the entry is gone, so a host reloading in between never sees it unapproved.
    const forgotten = await context.trust.forgetServer(USER_SCOPE, name);
    // As the loader reads it: `url`, `serverUrl`, `httpUrl` or a remote `type` alike.
    const remote = isRecord(entry) && readTransport(entry).kind === 'remote';
    return { name, configFile, ...forgotten, remote };
  });
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

/** withLockedConfigFile, a file Switchyard would not change reported as writeConfig does. */
async function lockedConfig<T>(
  file: string,
  fn: (locked: LockedConfigFile) => Promise<T>,
): Promise<T> {
  try {
    return await withLockedConfigFile(file, fn);
  } catch (error) {
    if (error instanceof ConfigError) throw configUpdateError(error);
    throw error;
  }
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
