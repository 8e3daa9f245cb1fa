import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ServerLogs } from '../audit/server-logs';
import { startGuardian } from '../supervisor/guardian';
import { GroupRecorder, RUN_FOLDER, reapDeadHosts } from '../supervisor/group-records';
import { processTable } from '../supervisor/process-identity';
import { TrustStore } from '../trust/trust-store';
import type { GroupWatcher, StdioLaunchOptions } from './launch-stdio';
import type { HostSetup } from './setup';
import { messageOf } from '../../protocol/guards';

/**
 * What must exist before a server may spawn: the trust store, the servers' log files, and the
 * watchers that kill this host's servers should it die (decision 0013), after reaping what a
 * dead host left. The host's first stage builds it (decision 0022) and hands it to `createCore`;
 * the CLI lets `createCore` build it. Nothing here loads the MCP client.
 */

export interface PreparedCore {
  readonly home: string;
  readonly trust: TrustStore;
  readonly serverLogs: ServerLogs | undefined;
  readonly groupWatchers: ReadonlyArray<GroupWatcher & { close(): void | Promise<void> }>;
  /**
   * Sends warnings (now and later: a log file that cannot be written) to `log`; those raised
   * before it was attached are passed on first, in order.
   */
  attachLog(log: (message: string) => void): void;
}

export interface PrepareEnvironment {
  readonly platform: NodeJS.Platform;
}

export async function prepareCore(
  setup: HostSetup,
  environment: PrepareEnvironment,
): Promise<PreparedCore> {
  const held: string[] = [];
  let sink: ((message: string) => void) | undefined;
  const warn = (message: string): void => {
    if (sink) sink(message);
    else held.push(message);
  };
  // Without a usable home nothing is configured, so nothing can be trusted: an empty throwaway
  // store keeps the core's shape without granting anything.
  const home = setup.home ?? mkdtempSync(path.join(os.tmpdir(), 'switchyard-nohome-'));
  const trust = await TrustStore.open(home);
  for (const warning of trust.takeWarnings()) warn(warning.message);
  // What servers print on stderr, for `switchyard logs` (only with a real home: a throwaway one
  // would keep logs nobody can find).
  const serverLogs =
    setup.home === null
      ? undefined
      : new ServerLogs({
          home,
          onError: (error) => {
            warn(`server log: ${messageOf(error)}`);
          },
        });
  // Kills this host's servers should it die without its shutdown (decision 0013), and records
  // them so that the next host reaps what a dead host's guardian did not.
  const guardian = startGuardian({ platform: environment.platform, onError: warn });
  const recorder =
    setup.home === null ? undefined : await reapAndRecord(setup.home, environment.platform, warn);
  return {
    home,
    trust,
    serverLogs,
    groupWatchers: [guardian, recorder].filter((w) => w !== undefined),
    attachLog: (log) => {
      sink = log;
      for (const message of held.splice(0)) log(message);
    },
  };
}

/**
 * Reaps the servers of hosts that died without their shutdown (before this host starts its own,
 * which may need the ports and files they hold), then opens this host's pid record. Problems are
 * warnings: neither step may keep the host from starting.
 */
async function reapAndRecord(
  home: string,
  platform: NodeJS.Platform,
  warn: (message: string) => void,
): Promise<GroupRecorder | undefined> {
  const runDir = path.join(home, RUN_FOLDER);
  const processes = processTable(platform);
  try {
    for (const group of await reapDeadHosts(runDir, { processes })) {
      warn(
        `stopped server '${group.server}' (process group ${group.pgid}), left running by host ${group.hostPid}, which died without its shutdown`,
      );
    }
  } catch (error) {
    warn(`could not check for servers left by a dead host: ${messageOf(error)}`);
  }
  return GroupRecorder.open(runDir, { processes, onError: warn });
}

/**
 * How this host spawns a local server: its environment, its process watchers, stderr to the
 * server logs. One definition for the first stage and the launcher, so both spawn alike.
 */
export function stdioLaunchOptions(
  prepared: PreparedCore,
  hostEnv: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
): StdioLaunchOptions {
  const { serverLogs } = prepared;
  return {
    hostEnv,
    platform,
    groupWatchers: prepared.groupWatchers,
    ...(serverLogs
      ? {
          onStderrLine: (server: string, line: string) => {
            serverLogs.append(server, line);
          },
        }
      : {}),
  };
}
