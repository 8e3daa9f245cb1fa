import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Tool } from '@modelcontextprotocol/client';
import { connectDirect } from './direct-client';
import { FramesClient } from './frames-client';
import { ServerChangedViewSchema } from './host-views';
import type { ReferenceServers } from './reference-servers';
import { median } from './stats';
import { approveIfAsked, startTrustedHost } from './trusted-host';

/**
 * Cold start: from spawning the host (a fresh home with the reference servers) until every server
 * is `running` (handshake and tool listing done), seen through `notifications/servers/changed`,
 * against each server started alone by a direct SDK client. Two more baselines split the host's
 * figure: the host booting with no servers, and the three servers started at once by direct
 * clients (what parallel start-up costs on this machine, host or not). The four measurements
 * alternate in order every run, so a slow patch of the machine hits all of them.
 */

export interface HostStartRun {
  /** Spawn to the last server's `running` notification, in ms. */
  readonly allRunningMs: number;
  /** Spawn to the `host/hello` reply, servers starting meanwhile, in ms. */
  readonly helloMs: number;
  /** stdin closed to the host's exit (servers' process groups killed), in ms. */
  readonly shutdownMs: number;
  /** Per server: spawn of the host to that server's `running` notification, in ms. */
  readonly runningAtMs: Readonly<Record<string, number>>;
  /** Per server: the handshake time the host itself reports in the `running` state, in ms. */
  readonly hostHandshakeMs: Readonly<Record<string, number>>;
  /** Launches the host asked the bench to approve during this run (0 once trust is stored). */
  readonly approvals: number;
}

export interface DirectStartRun {
  readonly handshakeMs: number;
  readonly readyMs: number;
}

export interface ColdStartResult {
  readonly runs: number;
  readonly host: readonly HostStartRun[];
  /** The same start with the code cache off (`SWITCHYARD_CODE_CACHE=off`, decision 0033). */
  readonly hostUncached: readonly HostStartRun[];
  /** Each server started alone by a direct SDK client. */
  readonly direct: Readonly<Record<string, readonly DirectStartRun[]>>;
  /** All servers started at once by direct SDK clients: start to the last one ready, in ms. */
  readonly directParallelMs: readonly number[];
  /** The host with no servers configured: spawn to the `host/hello` reply, in ms. */
  readonly hostBootMs: readonly number[];
  /** The same with the code cache off (`SWITCHYARD_CODE_CACHE=off`, decision 0033). */
  readonly hostBootUncachedMs: readonly number[];
  /** A node script that only answers the hello (bench/hello-floor.cjs): the machine's floor. */
  readonly helloFloorMs: readonly number[];
  /** Each server's raw tool definitions, from the last direct run. */
  readonly rawTools: Readonly<Record<string, readonly Tool[]>>;
  /** Launches approved while preparing the home, before any timed run. */
  readonly setupApprovals: number;
  readonly medians: {
    readonly hostAllRunningMs: number;
    readonly hostHelloMs: number;
    readonly hostUncachedAllRunningMs: number;
    readonly hostUncachedHelloMs: number;
    readonly hostShutdownMs: number;
    readonly hostBootMs: number;
    readonly hostBootUncachedMs: number;
    readonly helloFloorMs: number;
    readonly directReadyMs: Readonly<Record<string, number>>;
    readonly directParallelMs: number;
    readonly slowestServer: string;
    readonly slowestReadyMs: number;
    /** Median all-running of the host / the slowest server's median direct ready time. */
    readonly ratio: number;
  };
}

export interface ColdStartOptions {
  readonly servers: ReferenceServers;
  readonly bundle: string;
  readonly origin: string;
  /** Measured repetitions (after `warmups` discarded ones). */
  readonly runs: number;
  readonly warmups: number;
}

const START_TIMEOUT_MS = 30_000;
const HELLO_FLOOR = fileURLToPath(new URL('./hello-floor.cjs', import.meta.url));

export async function measureColdStart(options: ColdStartOptions): Promise<ColdStartResult> {
  const { servers } = options;
  const host: HostStartRun[] = [];
  const hostUncached: HostStartRun[] = [];
  const direct: Record<string, DirectStartRun[]> = {};
  const directParallelMs: number[] = [];
  const hostBootMs: number[] = [];
  const hostBootUncachedMs: number[] = [];
  const helloFloorMs: number[] = [];
  const rawTools: Record<string, readonly Tool[]> = {};
  for (const spec of servers.specs) direct[spec.name] = [];
  // Every host run starts on the same home, as a browser reconnecting would: launch trust is
  // granted once here, untimed, so the runs time start-up and not the bench approving launches.
  const home = servers.makeHome();
  const emptyHome = servers.makeHome(false);
  const setup = await startTrustedHost({ bundle: options.bundle, home, origin: options.origin });
  await setup.host.close();

  for (let i = 0; i < options.warmups + options.runs; i += 1) {
    const keep = i >= options.warmups;
    const measurements = [
      async () => {
        const run = await hostColdStart(options, home);
        if (keep) host.push(run);
      },
      async () => {
        const run = await hostColdStart(options, home, { SWITCHYARD_CODE_CACHE: 'off' });
        if (keep) hostUncached.push(run);
      },
      async () => {
        // One server at a time: "the slowest single handshake measured alone".
        for (const spec of servers.specs) {
          const server = await connectDirect(spec);
          await server.close();
          if (!keep) continue;
          direct[spec.name]?.push({ handshakeMs: server.handshakeMs, readyMs: server.readyMs });
          rawTools[spec.name] = server.tools;
        }
      },
      async () => {
        const ms = await directParallelStart(servers);
        if (keep) directParallelMs.push(ms);
      },
      async () => {
        const ms = await hostBoot(options, emptyHome);
        if (keep) hostBootMs.push(ms);
      },
      async () => {
        const ms = await hostBoot(options, emptyHome, { SWITCHYARD_CODE_CACHE: 'off' });
        if (keep) hostBootUncachedMs.push(ms);
      },
      async () => {
        const ms = await hostBoot({ ...options, bundle: HELLO_FLOOR }, emptyHome);
        if (keep) helloFloorMs.push(ms);
      },
    ];
    if (i % 2 === 1) measurements.reverse();
    for (const measure of measurements) await measure();
  }

  const directReadyMs = Object.fromEntries(
    Object.entries(direct).map(([name, runs]) => [name, median(runs.map((r) => r.readyMs))]),
  );
  let slowestServer = '';
  let slowestReadyMs = -Infinity;
  for (const [name, ms] of Object.entries(directReadyMs)) {
    if (ms > slowestReadyMs) [slowestServer, slowestReadyMs] = [name, ms];
  }
  const hostAllRunningMs = median(host.map((r) => r.allRunningMs));
  return {
    runs: options.runs,
    host,
    hostUncached,
    direct,
    directParallelMs,
    hostBootMs,
    hostBootUncachedMs,
    helloFloorMs,
    rawTools,
    setupApprovals: setup.approvals,
    medians: {
      hostAllRunningMs,
      hostHelloMs: median(host.map((r) => r.helloMs)),
      hostUncachedAllRunningMs: median(hostUncached.map((r) => r.allRunningMs)),
      hostUncachedHelloMs: median(hostUncached.map((r) => r.helloMs)),
      hostShutdownMs: median(host.map((r) => r.shutdownMs)),
      hostBootMs: median(hostBootMs),
      hostBootUncachedMs: median(hostBootUncachedMs),
      helloFloorMs: median(helloFloorMs),
      directReadyMs,
      directParallelMs: median(directParallelMs),
      slowestServer,
      slowestReadyMs,
      ratio: hostAllRunningMs / slowestReadyMs,
    },
  };
}

/** Starts every server at once with its own direct client; ms until the last one is ready. */
async function directParallelStart(servers: ReferenceServers): Promise<number> {
  const startedAt = performance.now();
  const started = await Promise.allSettled(servers.specs.map((spec) => connectDirect(spec)));
  const readyMs = performance.now() - startedAt;
  await Promise.all(
    started.map((s) => (s.status === 'fulfilled' ? s.value.close() : Promise.resolve())),
  );
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  return readyMs;
}

/** The host alone, no servers configured: spawn to the `host/hello` reply, in ms. */
async function hostBoot(
  options: ColdStartOptions,
  home: string,
  env: Readonly<Record<string, string>> = {},
): Promise<number> {
  const startedAt = performance.now();
  const host = FramesClient.spawn({ bundle: options.bundle, home, origin: options.origin, env });
  try {
    await host.hello();
    return performance.now() - startedAt;
  } finally {
    await host.close();
  }
}

/** One host start on `home`; resolves after the host has shut down again. */
async function hostColdStart(
  options: ColdStartOptions,
  home: string,
  env: Readonly<Record<string, string>> = {},
): Promise<HostStartRun> {
  const names = options.servers.specs.map((s) => s.name);
  const runningAtMs: Record<string, number> = {};
  const hostHandshakeMs: Record<string, number> = {};
  let approvals = 0;
  let timer: NodeJS.Timeout | undefined;

  const startedAt = performance.now();
  const host = FramesClient.spawn({ bundle: options.bundle, home, origin: options.origin, env });
  try {
    const hello = host.hello().then(() => performance.now() - startedAt);
    const allRunning = new Promise<number>((resolve, reject) => {
      timer = setTimeout(() => {
        reject(new Error(`servers not all running after ${START_TIMEOUT_MS} ms`));
      }, START_TIMEOUT_MS);
      host.onnotification = (method, params) => {
        if (method !== 'notifications/servers/changed') return;
        const parsed = ServerChangedViewSchema.safeParse(params);
        if (!parsed.success) {
          reject(new Error(`malformed ${method}: ${parsed.error.message}`));
          return;
        }
        const { server } = parsed.data;
        const { name, status } = server;
        switch (status.state) {
          case 'running':
            runningAtMs[name] ??= performance.now() - startedAt;
            hostHandshakeMs[name] ??= status.handshakeMs;
            if (names.every((n) => n in runningAtMs)) {
              resolve(Math.max(...names.map((n) => runningAtMs[n]!)));
            }
            return;
          case 'needs-approval':
            // Trust was stored while preparing the home; asking again is counted and reported.
            approvals += 1;
            hello.then(() => approveIfAsked(host, server)).catch(reject);
            return;
          case 'failed':
          case 'crashed':
            reject(new Error(`server '${name}' is ${status.state}: ${JSON.stringify(status)}`));
            return;
          case 'starting':
          case 'stopped':
            return;
        }
      };
      host.exited.then(
        (exit) => {
          reject(new Error(`the host exited during start-up: ${JSON.stringify(exit)}`));
        },
        () => undefined,
      );
    });
    const [allRunningMs, helloMs] = await Promise.all([allRunning, hello]);
    const closingAt = performance.now();
    await host.close();
    return {
      allRunningMs,
      helloMs,
      shutdownMs: performance.now() - closingAt,
      runningAtMs,
      hostHandshakeMs,
      approvals,
    };
  } catch (error) {
    await host.close();
    throw new Error(
      `cold start failed: ${error instanceof Error ? error.message : String(error)}\nHost stderr:\n${host.stderrTail()}`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
}
