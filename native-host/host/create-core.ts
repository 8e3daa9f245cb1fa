import { clientMetadataUrlSetting } from './client-metadata-setting';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import type { ActivityVia } from '../../protocol/activity';
import { AUDIT_FILE_NAME, AuditLog } from '../audit/audit-log';
import { ConfigError } from '../config/load';
import { updateConfigFile } from '../config/write';
import { ToolGlobSchema, parseToolPolicy, type ToolPolicyRules } from '../policy/tool-policy';
import { ProfileStore } from '../profiles/store';
import { deleteProfile, writeProfile } from '../profiles/write';
import { wrapUntrusted } from '../shared/wrap-untrusted';
import { HostCore, type HostCoreEvents } from './core';
import { HostError } from '../shared/host-error';
import { configUpdateError } from '../config/config-error-details';
import { createLauncher } from './launch';
import { createSecretStore } from '../secrets/create-secret-store';
import type { SecretStore } from '../secrets/secret-store';
import { EraVerdicts } from '../mcp/era-verdicts';
import type { LaunchFn } from '../mcp/runtime-types';
import { prepareCore, stdioLaunchOptions, type PreparedCore } from './core-prepare';
import type { HostSetup } from './setup';
import type { PolicyChange } from './settings-writes';
import { messageOf } from '../../protocol/guards';

/**
 * Builds the production core for a setup: the trust store and audit log in `$SWITCHYARD_HOME`,
 * the launcher, policy writes to config.json, and result wrapping. Shared by `switchyard host`
 * and the CLI commands, so both enforce the same gates.
 */

export interface CoreEnvironment {
  readonly env: NodeJS.ProcessEnv;
  readonly platform: NodeJS.Platform;
  readonly clientName: string;
  readonly version: string;
  /** Whom this core serves, recorded on every audit line: the browser's host, or the CLI. */
  readonly via: ActivityVia;
  readonly events?: HostCoreEvents;
  /** The trust store, logs and process watchers, when the host's first stage built them. */
  readonly prepared?: PreparedCore;
  /** Wraps the launcher: the host's first stage hands over the servers it already spawned. */
  readonly adoptLaunch?: (launcher: LaunchFn) => LaunchFn;
}

const PolicyMapSchema = z.record(z.string(), z.unknown());

export async function createCore(
  setup: HostSetup,
  environment: CoreEnvironment,
): Promise<HostCore> {
  const prepared = environment.prepared ?? (await prepareCore(setup, environment));
  prepared.attachLog((message) => environment.events?.onLog?.('warning', message));
  const { home, trust, serverLogs, groupWatchers } = prepared;
  const audit = new AuditLog({
    file: path.join(home, AUDIT_FILE_NAME),
    via: environment.via,
    onError: (error) => {
      environment.events?.onLog?.('warning', `audit log: ${messageOf(error)}`);
    },
  });
  const eraVerdicts = await EraVerdicts.open(setup.home, {
    onError: (error) => {
      environment.events?.onLog?.('warning', `negotiation.json: ${messageOf(error)}`);
    },
  });
  const configFile = setup.configFile;
  const secrets = openOnce(() =>
    createSecretStore({ home, platform: environment.platform, env: environment.env }),
  );
  // Shared by sign-ins and connections; a reload replaces it (HostCore.applyConfig).
  const clientMetadataUrl = clientMetadataUrlSetting(setup.clientMetadataUrl);
  return new HostCore({
    secrets,
    variableEnv: { env: environment.env, platform: environment.platform },
    clientMetadataUrl,
    eraVerdicts,
    servers: setup.specs,
    spawnServer: (environment.adoptLaunch ?? ((launcher) => launcher))(
      createLauncher({
        ...stdioLaunchOptions(prepared, environment.env, environment.platform),
        secrets,
        clientMetadataUrl: () => clientMetadataUrl.get(),
      }),
    ),
    ...(serverLogs ? { serverLogs } : {}),
    groupWatchers,
    clientInfo: { name: environment.clientName, version: environment.version },
    trust,
    toolPolicy: setup.toolPolicy,
    audit,
    wrapResult: (text, source) => wrapUntrusted(text, source, pooledRandom),
    ...(environment.events ? { events: environment.events } : {}),
    ...(setup.profiles === undefined ? {} : { profiles: new ProfileStore(setup.profiles) }),
    ...(configFile === null
      ? {}
      : {
          savePolicy: (changes) => savePolicy(configFile, changes),
          saveProfiles: {
            set: (profile) => writeProfile(configFile, profile),
            remove: (id) => deleteProfile(configFile, id),
          },
        }),
  });
}

/**
 * `open` run on the first call only, its promise shared: the secret store is probed (a child
 * process) when a start first needs a `${VAR}` the environment lacks, not at every host start.
 */
function openOnce(open: () => Promise<SecretStore>): () => Promise<SecretStore> {
  let opened: Promise<SecretStore> | undefined;
  return () => (opened ??= open());
}

const POOL_BYTES = 4_096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

/**
 * Random bytes from a pool refilled by `randomBytes`: one system call per 512 delimiters instead
 * of one per wrapped block (the wrap was the largest per-call cost left, measured by the bench).
 * The bytes are as unpredictable as `randomBytes`' own; each is used once.
 */
function pooledRandom(size: number): Uint8Array {
  if (size > POOL_BYTES) return randomBytes(size);
  if (poolOffset + size > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + size);
  poolOffset += size;
  return bytes;
}

async function savePolicy(
  file: string,
  changes: readonly PolicyChange[],
): Promise<ToolPolicyRules> {
  for (const { tool } of changes) {
    if (!ToolGlobSchema.safeParse(tool).success) {
      throw new HostError(
        'invalid-params',
        `'${tool}' is not a tool name or glob (letters, digits, '_', '-', '*', '?'); nothing was changed.`,
      );
    }
  }
  try {
    const raw = await updateConfigFile(file, (config) => {
      let next = Object.entries(PolicyMapSchema.safeParse(config['toolPolicy']).data ?? {});
      for (const { tool, policy } of changes) {
        next = next.filter(([glob]) => glob !== tool);
        if (policy !== null) next.push([tool, policy]);
      }
      config['toolPolicy'] = Object.fromEntries(next);
    });
    return parseToolPolicy(raw['toolPolicy']).rules;
  } catch (error) {
    throw error instanceof ConfigError ? configUpdateError(error) : error;
  }
}
