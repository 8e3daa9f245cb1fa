import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/client';
import { DEV_EXTENSION_ID, chromiumOrigin } from '../protocol/identity';
import { MAX_HOST_TO_BROWSER_FRAME_BYTES } from '../protocol/limits';
import { CallToolResultSchema } from '../protocol/tools';
import { HOST_BUNDLE, ROOT } from '../test/integration/host-harness';
import { measureColdStart } from './cold-start';
import { measureExtensionUi } from './extension-ui';
import { cpuMeter, cpuTotalMs } from './cpu-time';
import { connectDirect } from './direct-client';
import { BARE_HOP_PARAMS, type FramesClient } from './frames-client';
import { probeHeap } from './heap-probe';
import { measureStages } from './stages';
import { ToolListingViewSchema } from './host-views';
import { measureLoad, type LoadReport, type LoadSettings } from './load';
import { LOAD_FLEET_COUNTS, loadFleet } from './load-fleet';
import { readMemory } from './memory';
import { ECHO_SERVER, ECHO_TOOL, referenceServers } from './reference-servers';
import { measureRelay, type RelaySettings } from './relay';
import { measureRemoteRelay } from './remote-relay';
import { measureScale, renderScale, SCALE_FLEETS } from './scale';
import {
  hostCpuBeyondHopUs,
  renderReport,
  verdict,
  writeReport,
  type BenchReport,
  type MemorySnapshot,
} from './report';
import { LISTING_RATIO_TARGET, tokenCost } from './token-cost';
import { ensureAllowed, startTrustedHost } from './trusted-host';
import { toolSearchCost } from './tool-search';

/**
 * `npm run bench`: relay overhead (and the host's CPU per call by stage), cold start, token cost of
 * the listings, host memory (with what it is made of), the host
 * under load (8 servers, 1,000 calls in flight) and the relay overhead to a remote (Streamable
 * HTTP) server, in one run, printed as a table and written to dist/bench/latest.json. Figures are
 * compared with their targets but never fail the run: benchmarks report, tests assert behaviour.
 * Progress goes to stderr, the report to stdout.
 */

const TARGETS = {
  /** relay p50 <= 1.2 x (direct p50 + bare hop p50) (issue 15; 1.5 before it). */
  relayRatio: 1.2,
  /** Remote: relay p50 <= 1.25 x (direct HTTP client p50 + bare hop p50) (issue 11). */
  remoteRelayRatio: 1.25,
  /** All servers running through the host <= 1.2 x the slowest server's handshake alone. */
  coldStartRatio: 1.2,
  /** Median spawn to all three reference servers running, in ms. */
  coldStartMs: 600,
  /** Host RSS with the reference servers up, after the relay run, in MiB (issue 15; 100 before). */
  hostRssMiB: 80,
  /** Host all-running <= 1.15 x the same servers started directly at once (issue 15). */
  hostShareRatio: 1.15,
  /** Host alone, spawn to `host/hello` answered, in ms (issue 15). */
  helloMs: 90,
  /** Host CPU per relayed tools/call beyond a bare hop, in us (issue 15). */
  cpuBeyondHopUs: 70,
  /** The relay host's peak RSS (VmHWM) after the relay run, in MiB. */
  hostPeakRssMiB: 107,
  /** The extension's .js files, each gzipped, in KiB (issue 14: about 443 before the history). */
  shippedJsKiB: 450,
} as const;
/** Side panel loads per case, and the conversations stored for the full case (issue 14). */
const SIDE_PANEL_RUNS = 5;
const STORED_CONVERSATIONS = 200;

const RELAY_SETTINGS: RelaySettings = {
  warmupCalls: 3_000,
  rounds: 10,
  blockCalls: 500,
  inFlight: 32,
  throughputCalls: 2_000,
  throughputRounds: 3,
};
/**
 * A remote call costs milliseconds where a stdio one costs a fraction of one (the HTTP stack on
 * both ends, the v2 server building its handler per request): fewer calls for as many rounds.
 * The warm-up is as long as the stdio relay's all the same: after 500 calls the host's HTTP path
 * was still warming up (host CPU per call 1,311-1,408 us, rounds 1.11-1.90x; after 3,000, 977-989
 * us and 1.19-1.56x, measured alternating), and a host runs for hours.
 */
const REMOTE_RELAY_SETTINGS: RelaySettings = {
  warmupCalls: 3_000,
  rounds: 10,
  blockCalls: 200,
  inFlight: 32,
  throughputCalls: 500,
  throughputRounds: 3,
};
/** Heap probe: calls before the first heap-after-GC sample, then calls per round (two rounds). */
const HEAP_PROBE = { warmupCalls: 3_000, roundCalls: 5_000 } as const;
/** Stage clock: calls before the first sample, then relayed calls (and as many bare hops). */
const STAGE_CALLS = { warmupCalls: 2_000, calls: 5_000 } as const;
/** 8 servers, 1,000 calls in flight (issue 13); a hello every 5 ms, idle and loaded alike. */
const LOAD_SETTINGS: LoadSettings = {
  inFlight: 1_000,
  callsPerRound: 10_000,
  idleHellos: 200,
  probeIntervalMs: 5,
  rounds: 3,
};
const COLD_START_RUNS = 5;
const COLD_START_WARMUPS = 1;
const SCALE_RUNS = 3;

/** Where the figures go; `npm run bench:lts` writes its own file (scripts/bench-lts.ts). */
const RESULTS_PATH =
  process.env['SWITCHYARD_BENCH_RESULTS'] ?? join(ROOT, 'dist/bench/latest.json');
/** The bundle under test; SWITCHYARD_BENCH_BUNDLE compares another build on the same machine. */
const BUNDLE = process.env['SWITCHYARD_BENCH_BUNDLE'] ?? HOST_BUNDLE;
const ORIGIN = chromiumOrigin(DEV_EXTENSION_ID);

async function main(): Promise<void> {
  const startedAt = performance.now();
  const loadAtStart = loadavg()[0] ?? NaN;
  const cleanup: Array<() => unknown> = [];
  const servers = referenceServers();
  cleanup.push(() => {
    servers.dispose();
  });
  try {
    progress(`cold start: ${COLD_START_WARMUPS} + ${COLD_START_RUNS} runs`);
    const { rawTools, ...coldStart } = await measureColdStart({
      servers,
      bundle: BUNDLE,
      origin: ORIGIN,
      runs: COLD_START_RUNS,
      warmups: COLD_START_WARMUPS,
    });

    progress('relay: starting the host and a direct SDK client');
    const trusted = await startTrustedHost({
      bundle: BUNDLE,
      home: servers.makeHome(),
      origin: ORIGIN,
    });
    const { host } = trusted;
    cleanup.push(() => host.close());
    const rawListing = await host.request('tools/list', undefined);
    const listing = ToolListingViewSchema.parse(rawListing);
    const echo = listing.tools.find((t) => t.server === ECHO_SERVER && t.tool === ECHO_TOOL);
    if (!echo) throw new Error(`the host lists no '${ECHO_TOOL}' tool for '${ECHO_SERVER}'`);
    const serverPids = Object.fromEntries(
      trusted.servers.map((s) => [s.name, s.status.state === 'running' ? s.status.pid : -1]),
    );
    const snapshot = (): MemorySnapshot => ({
      host: host.pid === undefined ? null : (readMemory(host.pid) ?? null),
      servers: Object.fromEntries(
        Object.entries(serverPids).map(([name, pid]) => [name, readMemory(pid) ?? null]),
      ),
    });
    const serversUp = snapshot();

    const echoSpec = servers.specs.find((s) => s.name === ECHO_SERVER)!;
    const direct = await connectDirect(echoSpec);
    cleanup.push(() => direct.close());
    const args = { message: 'x' };
    await checkEcho(host, direct.client, echo.name);

    progress(
      `relay: ${RELAY_SETTINGS.warmupCalls} warm-up + ${RELAY_SETTINGS.rounds} x ${RELAY_SETTINGS.blockCalls} calls per path`,
    );
    const relay = await measureRelay(
      {
        relay: () => host.request('tools/call', { name: echo.name, arguments: args }),
        direct: () => direct.client.callTool({ name: ECHO_TOOL, arguments: args }),
        bare: () => host.request('host/hello', BARE_HOP_PARAMS),
      },
      RELAY_SETTINGS,
      cpuMeter({
        bench: process.pid,
        host: host.pid,
        [`${ECHO_SERVER} via host`]: serverPids[ECHO_SERVER],
        [`${ECHO_SERVER} direct`]: direct.pid ?? undefined,
      }),
    );
    const afterRelay = snapshot();

    progress(
      `remote: ${REMOTE_RELAY_SETTINGS.warmupCalls} warm-up + ${REMOTE_RELAY_SETTINGS.rounds} x ${REMOTE_RELAY_SETTINGS.blockCalls} calls per path to a Streamable HTTP server (a host of its own)`,
    );
    const remote = await measureRemoteRelay({
      bundle: BUNDLE,
      origin: ORIGIN,
      settings: REMOTE_RELAY_SETTINGS,
    });

    progress(
      `memory: heap after GC at ${HEAP_PROBE.warmupCalls} + 2 x ${HEAP_PROBE.roundCalls} calls (a second host, --expose-gc)`,
    );
    const heapAfterGc = await probeHeap({
      bundle: BUNDLE,
      home: servers.makeHome(),
      origin: ORIGIN,
      prepare: (probed) => ensureAllowed(probed, echo.name, args),
      call: (probed) => probed.request('tools/call', { name: echo.name, arguments: args }),
      ...HEAP_PROBE,
    });
    progress(
      `stages: host CPU per call by stage, ${STAGE_CALLS.warmupCalls} warm-up + ${STAGE_CALLS.calls} calls and as many bare hops (a host with SWITCHYARD_STAGE_CLOCK)`,
    );
    const stages = await measureStages({
      bundle: BUNDLE,
      home: servers.makeHome(),
      origin: ORIGIN,
      prepare: (measured) => ensureAllowed(measured, echo.name, args),
      call: (measured) => measured.request('tools/call', { name: echo.name, arguments: args }),
      hop: (measured) => measured.request('host/hello', BARE_HOP_PARAMS),
      ...STAGE_CALLS,
    });
    const load = await measureUnderLoad();
    progress(`scale: hosts with ${SCALE_FLEETS.join(' and ')} generated servers, 50 tools each`);
    const scale = await measureScale({ bundle: BUNDLE, origin: ORIGIN, runs: SCALE_RUNS });
    const s = RELAY_SETTINGS;
    // The checked call, the warm-up, the sequential blocks and the throughput runs.
    const relayedCalls =
      1 + s.warmupCalls + s.rounds * s.blockCalls + s.throughputRounds * s.throughputCalls;

    progress(
      `extension: shipped JS; side panel first paint x ${SIDE_PANEL_RUNS} with 0 and ${STORED_CONVERSATIONS} conversations (Chromium)`,
    );
    const extensionUi = await measureExtensionUi(
      join(ROOT, 'dist/chrome-mv3'),
      SIDE_PANEL_RUNS,
      STORED_CONVERSATIONS,
    );
    const tokens = await tokenCost(rawTools, listing, JSON.stringify(rawListing).length);
    const hostRss = Math.max(serversUp.host?.rssMiB ?? NaN, afterRelay.host?.rssMiB ?? NaN);
    const report: BenchReport = {
      meta: {
        date: new Date().toISOString(),
        node: process.version,
        platform: `${process.platform}/${process.arch}`,
        bundle: BUNDLE,
        cpus: availableParallelism(),
        cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
        durationMs: performance.now() - startedAt,
        loadAverage: { start: loadAtStart, end: loadavg()[0] ?? NaN },
      },
      relay,
      stages,
      coldStart,
      tokens,
      toolSearch: toolSearchCost(),
      memory: { serversUp, afterRelay, relayedCalls, heapAfterGc },
      load,
      remote,
      scale,
      extensionUi,
      verdicts: {
        shippedJs: verdict(
          extensionUi.shippedJs.gzipBytes / 1_024,
          '<',
          TARGETS.shippedJsKiB,
          'KiB',
        ),
        relayOverhead: verdict(relay.ratio, '<=', TARGETS.relayRatio, 'x'),
        remoteRelayOverhead: verdict(remote.relay.ratio, '<=', TARGETS.remoteRelayRatio, 'x'),
        coldStart: verdict(coldStart.medians.ratio, '<=', TARGETS.coldStartRatio, 'x'),
        coldStartMs: verdict(coldStart.medians.hostAllRunningMs, '<=', TARGETS.coldStartMs, 'ms'),
        hostShare: verdict(
          coldStart.medians.hostAllRunningMs / coldStart.medians.directParallelMs,
          '<=',
          TARGETS.hostShareRatio,
          'x',
        ),
        hello: verdict(coldStart.medians.hostBootMs, '<=', TARGETS.helloMs, 'ms'),
        cpuBeyondHop: verdict(hostCpuBeyondHopUs(relay) ?? NaN, '<=', TARGETS.cpuBeyondHopUs, 'us'),
        hostMemory: verdict(hostRss, '<=', TARGETS.hostRssMiB, 'MiB'),
        hostPeakRss: verdict(afterRelay.host?.peakMiB ?? NaN, '<=', TARGETS.hostPeakRssMiB, 'MiB'),
        loadFrames: verdict(load.largestFrameBytes, '<=', MAX_HOST_TO_BROWSER_FRAME_BYTES, 'bytes'),
        listingRatio: verdict(
          Math.max(tokens.hostRatio, ...tokens.formats.map((f) => f.ratio)),
          '<=',
          LISTING_RATIO_TARGET,
          'x',
        ),
      },
    };
    writeReport(RESULTS_PATH, report);
    const scaleSection = [
      '',
      '7. Scale: generated servers (test/fixtures/generated-server.mjs, v2 SDK), 50 tools each; spawn to',
      `   all running with trust stored (median of ${SCALE_RUNS}), the whole tools/list (every page), host RSS`,
      ...renderScale(scale),
    ].join('\n');
    process.stdout.write(
      `${renderReport(report)}\n${scaleSection}\n\nwritten to ${RESULTS_PATH}\n`,
    );
  } finally {
    for (const step of cleanup.reverse()) {
      try {
        await step();
      } catch (error) {
        progress(`cleanup: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}

/**
 * The host under load: a third host with the eight servers of the load fleet, every load tool
 * allow-listed (and so pinned) first, then idle and loaded rounds alternating.
 */
async function measureUnderLoad(): Promise<LoadReport> {
  progress(
    `load: ${LOAD_SETTINGS.inFlight} calls in flight over 8 servers, 1 + ${LOAD_SETTINGS.rounds} x ${LOAD_SETTINGS.callsPerRound} calls`,
  );
  const fleet = loadFleet();
  try {
    const { host, servers } = await startTrustedHost({
      bundle: BUNDLE,
      home: fleet.makeHome(),
      origin: ORIGIN,
    });
    try {
      for (const call of fleet.calls) await ensureAllowed(host, call.name, call.arguments);
      const serverPids = servers.map((s) =>
        s.status.state === 'running' ? s.status.pid : undefined,
      );
      const meter = cpuMeter({ bench: process.pid, host: host.pid });
      const before = host.pid === undefined ? null : (readMemory(host.pid) ?? null);
      const result = await measureLoad(
        {
          call: (i) => {
            const call = fleet.calls[i % fleet.calls.length]!;
            return host.request('tools/call', { name: call.name, arguments: call.arguments });
          },
          hello: () => host.request('host/hello', BARE_HOP_PARAMS),
        },
        LOAD_SETTINGS,
        () => ({ ...meter(), servers: cpuTotalMs(serverPids) }),
      );
      return {
        ...result,
        fleet: LOAD_FLEET_COUNTS,
        framesRead: host.framesRead,
        largestFrameBytes: host.largestFrameBytes,
        hostMemory: {
          before,
          after: host.pid === undefined ? null : (readMemory(host.pid) ?? null),
        },
      };
    } finally {
      await host.close();
    }
  } finally {
    fleet.dispose();
  }
}

/**
 * One call each way, checked, so the timed loops measure working calls and not error replies. The
 * relayed one also allow-lists the tool if the host's policy asks for approval per call.
 */
async function checkEcho(host: FramesClient, client: Client, exposedName: string): Promise<void> {
  const relayed = CallToolResultSchema.parse(
    await ensureAllowed(host, exposedName, { message: 'x' }),
  );
  const direct = await client.callTool({ name: ECHO_TOOL, arguments: { message: 'x' } });
  const relayedText = relayed.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  if (relayed.isError === true || !relayedText.includes('x')) {
    throw new Error(`the relayed echo did not echo: ${JSON.stringify(relayed)}`);
  }
  if (direct.isError === true) throw new Error(`the direct echo failed: ${JSON.stringify(direct)}`);
}

function progress(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
