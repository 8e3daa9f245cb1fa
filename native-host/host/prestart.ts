import type { LaunchFn, ServerProcess } from '../mcp/runtime-types';
import type { ServerLaunch, ServerSpec } from '../shared/server-spec';
import type { TrustSnapshot } from '../trust/trust-store';
import { needsNoSecretStore, spawnStdio, type StdioLaunchOptions } from './launch-stdio';
import { launchOf } from './launch-of';

/**
 * The host's first stage (decision 0022): the approved local servers spawn while the rest of the
 * host (the MCP client, the RPC layer) is still loading, and the full host's launcher adopts them.
 *
 * The launch gate is not bypassed. A server spawns here only when the trust store approves
 * exactly its launch definition, read by the same `launchStatus` the gate uses; the full host
 * then runs its gate again, and hands a process over only to a launch of the same definition
 * object. A process no launch claims (the gate said no after all: trust.json changed meanwhile)
 * is closed, never connected.
 */

interface Waiting {
  readonly launch: ServerLaunch;
  readonly process: Promise<ServerProcess>;
}

export class PrestartedServers {
  readonly #waiting = new Map<string, Waiting>();
  readonly #pids = new Set<number>();

  /**
   * Spawns every enabled local server in `specs` whose launch `snapshot` approves as is and
   * whose `${VAR}`s the environment sets (one the secret store holds waits for the full host).
   */
  static start(
    specs: readonly ServerSpec[],
    snapshot: TrustSnapshot,
    options: StdioLaunchOptions,
    spawn: (
      launch: ServerLaunch,
      options: StdioLaunchOptions,
    ) => Promise<ServerProcess> = spawnStdio,
  ): PrestartedServers {
    const pool = new PrestartedServers();
    for (const spec of specs) {
      if (!mayPrestart(spec, snapshot)) continue;
      const launch = launchOf(spec);
      if (!needsNoSecretStore(launch, options)) continue;
      const process = spawn(launch, options);
      process.then(
        (started) => {
          if (started.pid !== undefined) pool.#pids.add(started.pid);
        },
        () => undefined, // reported to the launch that claims it
      );
      pool.#waiting.set(spec.name, { launch, process });
    }
    return pool;
  }

  /** Names of the servers spawned early and not yet claimed. */
  names(): string[] {
    return [...this.#waiting.keys()];
  }

  /** Process groups spawned early and not claimed: for the host's last-resort kill on exit. */
  unclaimedPids(): number[] {
    return [...this.#pids];
  }

  /**
   * The launcher: the first launch of a server spawned early, with the very definition it was
   * spawned from, gets that process; anything else launches afresh through `launcher`.
   */
  launcher(launcher: LaunchFn): LaunchFn {
    return (launch) => {
      const waiting = this.#waiting.get(launch.name);
      if (waiting === undefined) return launcher(launch);
      this.#waiting.delete(launch.name);
      if (!sameLaunch(waiting.launch, launch)) {
        void this.#close(waiting);
        return launcher(launch);
      }
      return waiting.process.then((process) => {
        if (process.pid !== undefined) this.#pids.delete(process.pid);
        return process;
      });
    };
  }

  /** Closes every process no launch claimed; once the full host's gate has decided. */
  async closeUnclaimed(): Promise<void> {
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    await Promise.all(waiting.map((w) => this.#close(w)));
  }

  async #close(waiting: Waiting): Promise<void> {
    try {
      const process = await waiting.process;
      await process.transport.close();
      if (process.pid !== undefined) this.#pids.delete(process.pid);
    } catch {
      // It never ran.
    }
  }
}

/**
 * Whether the first stage may spawn `spec`: a local server, enabled, whose command resolved, and
 * whose exact launch definition the trust store approves (the launch gate's own check).
 */
export function mayPrestart(spec: ServerSpec, snapshot: TrustSnapshot): boolean {
  if (spec.disabled || spec.remote !== null || spec.definition === null) return false;
  if (spec.definition.remote !== undefined) return false;
  return snapshot.launchStatus(spec.scope, spec.name, spec.definition).state === 'approved';
}

/** The same definition: the fields come from one frozen definition object (launchOf). */
function sameLaunch(a: ServerLaunch, b: ServerLaunch): boolean {
  return (
    a.executable === b.executable &&
    a.args === b.args &&
    a.env === b.env &&
    a.cwd === b.cwd &&
    a.remote === null &&
    b.remote === null
  );
}
