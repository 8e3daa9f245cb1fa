import os from 'node:os';
import { ConfigError, loadConfigFile } from '../config/load';
import { configPath, switchyardHome } from '../config/paths';
import { resolveCommand } from '../supervisor/resolve-command';
import type { ServerSpec } from './core';

/**
 * Everything the host and the CLI need before starting servers: the state directory, the config
 * file, the server specs and the problems found on the way. A broken config never stops the host:
 * it starts with no servers and reports why through `host/hello` and `doctor`.
 */

export interface HostSetup {
  /** `$SWITCHYARD_HOME` or the per-OS default; null when it cannot be determined. */
  readonly home: string | null;
  readonly configFile: string | null;
  readonly specs: readonly ServerSpec[];
  /** One line per problem, each naming the file, line and key where there is one. */
  readonly warnings: readonly string[];
  /** True when the config file was rejected whole. */
  readonly configRejected: boolean;
}

export interface SetupEnvironment {
  readonly env: NodeJS.ProcessEnv;
  readonly platform: NodeJS.Platform;
  readonly homedir?: string;
}

export async function loadSetup({
  env,
  platform,
  homedir = os.homedir(),
}: SetupEnvironment): Promise<HostSetup> {
  let home: string;
  try {
    home = switchyardHome(env, platform, homedir);
  } catch (error) {
    return {
      home: null,
      configFile: null,
      specs: [],
      warnings: [messageOf(error)],
      configRejected: true,
    };
  }
  const file = configPath(home, platform);
  let loaded;
  try {
    loaded = await loadConfigFile(file);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { home, configFile: file, specs: [], warnings: [error.message], configRejected: true };
  }
  const specs = await Promise.all(
    loaded.servers.map(async (server): Promise<ServerSpec> => {
      const resolved = await resolveCommand(server.command, {
        pathEnv: env['PATH'] ?? env['Path'],
        platform,
        ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
      });
      return {
        name: server.name,
        command: server.command,
        args: server.args,
        env: server.env,
        cwd: server.cwd,
        handshakeTimeoutMs: server.handshakeTimeoutMs,
        toolTimeoutMs: server.toolTimeoutMs,
        prefix: server.prefix,
        envKeys: Object.keys(server.env),
        provenance: 'user',
        resolvedCommand: resolved.ok ? resolved.path : null,
        disabled: server.disabled,
      };
    }),
  );
  return {
    home,
    configFile: file,
    specs,
    warnings: loaded.warnings.map((w) => w.message),
    configRejected: false,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
