import { mkdirSync, writeFileSync } from 'node:fs';
import type { ScaleReport } from './scale';
import { dirname } from 'node:path';
import type { ColdStartResult } from './cold-start';
import type { HeapProbeResult } from './heap-probe';
import type { LoadReport } from './load';
import type { ProcessMemory } from './memory';
import { renderMemoryBreakdown } from './memory-breakdown';
import { ECHO_SERVER } from './reference-servers';
import { PATHS, type PathName, type RelayResult } from './relay';
import type { ExtensionUiReport } from './extension-ui';
import type { RemoteRelayReport } from './remote-relay';
import { renderStages, type StagesResult } from './stages';
import { median } from './stats';
import { change, count, fixed, renderTable, type Row } from './table';
import type { TokenCostResult } from './token-cost';
import { renderToolSearchCost, type ToolSearchRow } from './tool-search';

/** The bench's findings: rendered as text for people, written as JSON for comparisons. */

/** A figure against its target. Benchmarks report: a FAIL never changes the exit code. */
export interface Verdict {
  readonly value: number;
  readonly target: number;
  readonly comparison: '<=' | '<';
  readonly unit: string;
  readonly pass: boolean;
}

export function verdict(
  value: number,
  comparison: Verdict['comparison'],
  target: number,
  unit: string,
): Verdict {
  const pass = comparison === '<=' ? value <= target : value < target;
  return { value, target, comparison, unit, pass };
}

export interface MemorySnapshot {
  readonly host: ProcessMemory | null;
  readonly servers: Readonly<Record<string, ProcessMemory | null>>;
}

export interface BenchReport {
  readonly meta: {
    readonly date: string;
    readonly node: string;
    readonly platform: string;
    /** Path of the host bundle measured. */
    readonly bundle: string;
    readonly cpus: number;
    readonly cpuModel: string;
    readonly durationMs: number;
    /** 1-minute load average at the start and the end: other work on the machine skews figures. */
    readonly loadAverage: { readonly start: number; readonly end: number };
  };
  readonly relay: RelayResult;
  /** The host's CPU per relayed call and per bare hop, by stage (issue 15). */
  readonly stages: StagesResult;
  readonly coldStart: Omit<ColdStartResult, 'rawTools'>;
  readonly tokens: TokenCostResult;
  /** Tool search mode: MCP listing tokens per turn for 10, 100, 1,000 generated tools. */
  readonly toolSearch: readonly ToolSearchRow[];
  readonly memory: {
    readonly serversUp: MemorySnapshot;
    readonly afterRelay: MemorySnapshot;
    /** tools/call requests the host relayed between the two snapshots. */
    readonly relayedCalls: number;
    /** Live heap after forced full collections, on a second host: tells a leak from slack. */
    readonly heapAfterGc: HeapProbeResult;
  };
  /** 8 servers, 1,000 calls in flight: host/hello latency against idle, throughput, frames. */
  readonly load: LoadReport;
  /** The relay figures again for a Streamable HTTP server on loopback, on a host of its own. */
  readonly remote: RemoteRelayReport;
  /** 3 and 20 generated servers: all running, the whole listing, RSS, and their growth. */
  readonly scale: ScaleReport;
  /** Shipped JS and the side panel's first paint with 0 and 200 stored conversations. */
  readonly extensionUi: ExtensionUiReport;
  readonly verdicts: {
    /** The extension's .js files, each gzipped, KiB. */
    readonly shippedJs: Verdict;
    /** relay p50 / (direct p50 + bare p50). */
    readonly relayOverhead: Verdict;
    /** The same for the remote server: relay p50 / (direct HTTP p50 + bare p50). */
    readonly remoteRelayOverhead: Verdict;
    /** host all-running / slowest single server's ready time. */
    readonly coldStart: Verdict;
    /** Median host spawn to all three servers running, ms. */
    readonly coldStartMs: Verdict;
    /** Host all-running / the same servers started directly at once: the host's share. */
    readonly hostShare: Verdict;
    /** Host alone, spawn to `host/hello` answered, ms. */
    readonly hello: Verdict;
    /** Host CPU per relayed tools/call beyond a bare hop, us. */
    readonly cpuBeyondHop: Verdict;
    /** Model-facing listing / raw tools/list tokens, the worst of the host and every format. */
    readonly listingRatio: Verdict;
    /** Host RSS, the larger of the two snapshots, MiB. */
    readonly hostMemory: Verdict;
    /** The relay host's peak RSS (VmHWM) after the relay run, MiB (NaN off Linux). */
    readonly hostPeakRss: Verdict;
    /** The largest frame the host wrote under load, against the browser's limit, bytes. */
    readonly loadFrames: Verdict;
  };
}

export function writeReport(path: string, report: BenchReport): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
}

const PATH_LABELS: Record<PathName, string> = {
  relay: 'relay (host -> server)',
  direct: 'direct (SDK client -> server)',
  bare: 'bare hop (host/hello)',
};

export function renderReport(report: BenchReport): string {
  const { meta } = report;
  return [
    `Switchyard bench  ${meta.date}  node ${meta.node}  ${meta.platform}  ${meta.cpus} CPUs (${meta.cpuModel})`,
    `bundle ${meta.bundle}`,
    `took ${fixed(meta.durationMs / 1_000, 1)} s; load average ${fixed(meta.loadAverage.start, 2)} at start, ${fixed(meta.loadAverage.end, 2)} at end (anything near ${meta.cpus} or above means a busy machine: noisy figures)`,
    '',
    renderRelay(report),
    '',
    renderColdStart(report),
    '',
    renderTokens(report),
    '',
    renderMemory(report),
    '',
    renderLoad(report),
    '',
    renderRemote(report),
    '',
    renderExtensionUi(report),
    '',
    'Summary',
    verdictLine('relay overhead', report.verdicts.relayOverhead),
    verdictLine('remote relay overhead', report.verdicts.remoteRelayOverhead),
    verdictLine('cold start', report.verdicts.coldStart),
    verdictLine('cold start, all 3 running', report.verdicts.coldStartMs),
    verdictLine('host all-running / all at once direct', report.verdicts.hostShare),
    verdictLine('host alone, host/hello', report.verdicts.hello),
    verdictLine('host CPU per call beyond a bare hop', report.verdicts.cpuBeyondHop),
    verdictLine('host memory', report.verdicts.hostMemory),
    verdictLine('host peak RSS', report.verdicts.hostPeakRss),
    loadRatioLine(report.load),
    verdictLine('largest frame under load', report.verdicts.loadFrames),
    verdictLine('model-facing listing / raw tools/list', report.verdicts.listingRatio),
    verdictLine('shipped JS, gzipped', report.verdicts.shippedJs),
  ].join('\n');
}

function renderExtensionUi({ extensionUi, verdicts }: BenchReport): string {
  const { shippedJs } = extensionUi;
  return [
    'Extension',
    `  shipped JS: ${shippedJs.files} files, ${count(shippedJs.rawBytes)} bytes, ${count(shippedJs.gzipBytes)} gzipped`,
    verdictLine('shipped JS, gzipped', verdicts.shippedJs),
    ...extensionUi.sidePanel.map(
      (p) =>
        `  side panel, ${p.conversations} stored: first paint p50 ${fixed(p.firstPaintMs.p50, 1)} ms (max ${fixed(p.firstPaintMs.max, 1)})` +
        (p.historyListMs === null
          ? ''
          : `; History to first page p50 ${fixed(p.historyListMs.p50, 1)} ms`) +
        ` over ${extensionUi.runs} loads`,
    ),
  ].join('\n');
}

function renderRelay({ relay, stages, verdicts }: BenchReport): string {
  const s = relay.settings;
  const processes = Object.keys(relay.cpuPerCallUs.relay);
  const cpuRows: Row[] = PATHS.map((path) => [
    PATH_LABELS[path],
    ...processes.map((name) => fixed(relay.cpuPerCallUs[path][name], 1)),
  ]);
  return [
    `1. Relay overhead: tools/call of everything's echo {message: 'x'}`,
    `   ${s.rounds} rounds x ${s.blockCalls} sequential calls per path, alternating, after ${s.warmupCalls} warm-up calls each;`,
    `   calls/s with ${s.inFlight} in flight, median of ${s.throughputRounds} runs x ${s.throughputCalls} calls`,
    relayTable(relay, PATH_LABELS),
    verdictLine('relay p50 / floor', verdicts.relayOverhead),
    '',
    '  CPU time per sequential call in us, all threads (where the work is; a busy machine inflates it)',
    renderTable(['path', ...processes], cpuRows),
    ...serverShare(relay),
    verdictLine('host CPU per tools/call beyond a bare hop', verdicts.cpuBeyondHop),
    '',
    ...renderStages(stages),
  ].join('\n');
}

/**
 * What the server itself spends on a relayed call beyond a direct one: a relayed call asks for
 * progress (the side panel shows it, and it extends a long call's deadline), which a server pays
 * for on every call; the direct client's call does not ask. Context for the relay ratio.
 */
function serverShare(relay: RelayResult): string[] {
  const via = relay.cpuPerCallUs.relay[`${ECHO_SERVER} via host`];
  const direct = relay.cpuPerCallUs.direct[`${ECHO_SERVER} direct`];
  if (via == null || direct == null) return [];
  return [
    `  the server's own CPU per call: ${fixed(via, 1)} us relayed, ${fixed(direct, 1)} direct (${fixed(Math.abs(via - direct), 1)} us ${via >= direct ? 'more' : 'less'} relayed; a relayed call carries _meta.progressToken and the direct one does not, the likely cause of a difference; context, no target)`,
  ];
}

/** The latency table of a relay run, its floor, and how far the relay is above it. */
function relayTable(relay: RelayResult, labels: Record<PathName, string>): string {
  const rows: Row[] = PATHS.map((path) => {
    const p = relay.paths[path];
    return [
      labels[path],
      fixed(p.latency.p50, 3),
      fixed(p.latency.p95, 3),
      fixed(p.latency.p99, 3),
      fixed(p.latency.mean, 3),
      count(p.callsPerSecond),
    ];
  });
  rows.push(['floor = direct p50 + bare p50', fixed(relay.floorP50, 3), '', '', '', '']);
  const ratios = relay.roundRatios;
  return [
    renderTable(['path', 'p50 ms', 'p95 ms', 'p99 ms', 'mean ms', 'calls/s'], rows),
    `  relay p50 - floor = ${fixed((relay.paths.relay.latency.p50 - relay.floorP50) * 1_000, 0)} us; per-round ratio ${fixed(Math.min(...ratios), 2)}x .. ${fixed(Math.max(...ratios), 2)}x`,
  ].join('\n');
}

/** The host's CPU per relayed call less its CPU per bare hop, us; null where either is unknown. */
export function hostCpuBeyondHopUs(relay: RelayResult): number | null {
  const relayUs = relay.cpuPerCallUs.relay['host'] ?? null;
  const bareUs = relay.cpuPerCallUs.bare['host'] ?? null;
  return relayUs === null || bareUs === null ? null : relayUs - bareUs;
}

function hostCpuBeyondHop(relay: RelayResult): string {
  return fixed(hostCpuBeyondHopUs(relay), 1);
}

const REMOTE_PATH_LABELS: Record<PathName, string> = {
  relay: 'relay (host -> HTTP server)',
  direct: 'direct (SDK client -> HTTP server)',
  bare: 'bare hop (host/hello)',
};

function renderRemote({ remote, verdicts }: BenchReport): string {
  const { relay } = remote;
  const s = relay.settings;
  const cpu = (path: PathName, name: string) => fixed(relay.cpuPerCallUs[path][name], 1);
  const { serverUp: up, afterRelay: after } = remote.hostMemory;
  return [
    `6. Remote relay overhead: tools/call of echo {message: 'x'} on a Streamable HTTP server on loopback`,
    `   (${remote.server.fixture}, ${remote.server.url}), through a host with it as a remote entry`,
    `   and from a direct SDK client (StreamableHTTPClientTransport), to the same server process;`,
    `   protocol ${remote.protocolVersion.host ?? '-'} via the host, ${remote.protocolVersion.direct ?? '-'} direct;`,
    `   ${s.rounds} rounds x ${s.blockCalls} sequential calls per path, alternating, after ${s.warmupCalls} warm-up calls each;`,
    `   calls/s with ${s.inFlight} in flight, median of ${s.throughputRounds} runs x ${s.throughputCalls} calls`,
    relayTable(relay, REMOTE_PATH_LABELS),
    verdictLine('remote relay p50 / floor', verdicts.remoteRelayOverhead),
    `  CPU per sequential call, us: host ${cpu('relay', 'host')} relayed (${hostCpuBeyondHop(relay)} beyond a bare hop); server ${cpu('relay', 'server')} relayed, ${cpu('direct', 'server')} direct; bench ${cpu('relay', 'bench')} relayed, ${cpu('direct', 'bench')} direct`,
    `  remote host RSS ${fixed(up?.rssMiB, 1)} MiB with the server up, ${fixed(after?.rssMiB, 1)} after the run, peak ${fixed(after?.peakMiB, 1)}`,
  ].join('\n');
}

function renderColdStart({ coldStart, verdicts }: BenchReport): string {
  const m = coldStart.medians;
  const runs = (values: readonly number[]) => values.map((v) => fixed(v, 0)).join(' ');
  const names = Object.keys(m.directReadyMs);
  const rows: Row[] = [
    [
      `host: all ${names.length} servers running`,
      fixed(m.hostAllRunningMs, 1),
      runs(coldStart.host.map((r) => r.allRunningMs)),
    ],
    [
      'host: host/hello answered',
      fixed(m.hostHelloMs, 1),
      runs(coldStart.host.map((r) => r.helloMs)),
    ],
    [
      'host, code cache off: all running',
      fixed(m.hostUncachedAllRunningMs, 1),
      runs(coldStart.hostUncached.map((r) => r.allRunningMs)),
    ],
    [
      'host, code cache off: host/hello answered',
      fixed(m.hostUncachedHelloMs, 1),
      runs(coldStart.hostUncached.map((r) => r.helloMs)),
    ],
    ...names.map((name): Row => {
      const at = coldStart.host.map((r) => r.runningAtMs[name] ?? Number.NaN);
      const hs = coldStart.host.map((r) => r.hostHandshakeMs[name] ?? Number.NaN);
      return [
        `host: ${name} running (handshake ${fixed(median(hs), 0)})`,
        fixed(median(at), 1),
        runs(at),
      ];
    }),
    ...names.map((name): Row => {
      const direct = coldStart.direct[name] ?? [];
      return [
        `direct: ${name} ready (handshake ${fixed(median(direct.map((r) => r.handshakeMs)), 0)})`,
        fixed(m.directReadyMs[name], 1),
        runs(direct.map((r) => r.readyMs)),
      ];
    }),
    [
      'host alone, no servers: host/hello answered',
      fixed(m.hostBootMs, 1),
      runs(coldStart.hostBootMs),
    ],
    [
      'the same, code cache off',
      fixed(m.hostBootUncachedMs, 1),
      runs(coldStart.hostBootUncachedMs),
    ],
    [
      'node answering a hello, nothing else (floor)',
      fixed(m.helloFloorMs, 1),
      runs(coldStart.helloFloorMs),
    ],
    [
      `direct: all ${names.length} started at once, last ready`,
      fixed(m.directParallelMs, 1),
      runs(coldStart.directParallelMs),
    ],
    [
      'host shutdown (stdin EOF -> exit)',
      fixed(m.hostShutdownMs, 1),
      runs(coldStart.host.map((r) => r.shutdownMs)),
    ],
  ];
  return [
    `2. Cold start: spawn -> every server ready (initialize + tools/list); median of ${coldStart.runs} runs`,
    `   (+ warm-up); measurements alternate; "direct" = SDK client per server, one at a time unless said`,
    renderTable(['measure', 'median ms', 'runs ms'], rows),
    `  slowest alone: ${m.slowestServer} ${fixed(m.slowestReadyMs, 1)} ms`,
    `  launch approvals: ${coldStart.setupApprovals} while preparing the home (untimed), ${coldStart.host.reduce((n, r) => n + r.approvals, 0)} during timed runs`,
    `  code cache (decision 0033), cached / off: all running ${fixed(m.hostAllRunningMs / m.hostUncachedAllRunningMs, 2)}x, host/hello ${fixed(m.hostHelloMs / m.hostUncachedHelloMs, 2)}x, host alone ${fixed(m.hostBootMs / m.hostBootUncachedMs, 2)}x`,
    `  host alone is ${fixed(m.hostBootMs - m.helloFloorMs, 0)} ms above a node process that only answers the hello (${fixed(m.hostBootUncachedMs - m.helloFloorMs, 0)} with the cache off)`,
    `  host alone + all at once direct = ${fixed(m.hostBootMs + m.directParallelMs, 1)} ms; host all-running is ${fixed(m.hostAllRunningMs / (m.hostBootMs + m.directParallelMs), 2)}x that (context, no target)`,
    `  starting all ${names.length} at once takes ${fixed(m.directParallelMs / m.slowestReadyMs, 2)}x the slowest alone without any host (the machine's share)`,
    verdictLine("host all-running / all at once direct (the host's share)", verdicts.hostShare),
    verdictLine('host alone, host/hello', verdicts.hello),
    verdictLine('host all-running / slowest alone', verdicts.coldStart),
  ].join('\n');
}

function renderTokens({ tokens, toolSearch }: BenchReport): string {
  return `${renderTokenCost(tokens)}\n${renderToolSearchCost(toolSearch)}`;
}

/** Section 3 of the report; `npm run bench:tokens` prints it alone. */
export function renderTokenCost(tokens: TokenCostResult): string {
  const row = (name: string, c: TokenCostResult['total']): Row => [
    name,
    count(c.tools),
    count(c.rawChars),
    count(c.modelChars),
    change(c.rawChars, c.modelChars),
    count(c.rawTokens),
    count(c.hostTokens),
    change(c.rawTokens, c.hostTokens),
  ];
  return [
    `3. Token cost of the tool listings (raw tools/list from each server vs the host's model-facing listing;`,
    `   tokens estimated with the host's estimator on both sides)`,
    renderTable(
      ['server', 'tools', 'raw chars', 'model chars', 'Δ', 'raw tokens', 'host tokens', 'Δ'],
      [...tokens.servers.map((s) => row(s.server, s)), row('total', tokens.total)],
    ),
    `  host tokens.total ${count(tokens.hostTotal)}; the host's tools/list reply to the extension is ${count(tokens.hostWireChars)} chars`,
    `  same tools on both sides; not compared (the host declares client capabilities the direct client does not): ${tokens.hostOnlyTools.join(', ') || 'none'}`,
    `  per provider wire format, each side as the extension's own adapter sends it (raw: every field of the`,
    `  servers' definitions forwarded; unminified: the host's listing with the servers' schemas; request flags not counted):`,
    renderTable(
      ['format', 'raw tokens', 'unminified', 'model-facing', 'vs unminified', 'model / raw'],
      [
        [
          'host estimate',
          count(tokens.total.rawTokens),
          '-',
          count(tokens.total.hostTokens),
          '-',
          `${fixed(tokens.hostRatio, 2)}x`,
        ],
        ...tokens.formats.map((f): Row => [
          f.format,
          count(f.rawTokens),
          count(f.unminifiedTokens),
          count(f.modelTokens),
          change(f.unminifiedTokens, f.modelTokens),
          `${fixed(f.ratio, 2)}x`,
        ]),
      ],
    ),
  ].join('\n');
}

function renderMemory({ memory, verdicts }: BenchReport): string {
  const mib = (m: ProcessMemory | null | undefined) => fixed(m?.rssMiB, 1);
  const row = (label: string, up: ProcessMemory | null | undefined, after: typeof up): Row => [
    label,
    mib(up),
    mib(after),
    fixed(after?.peakMiB, 1),
    fixed(after?.pssMiB, 1),
    fixed(after?.privateMiB, 1),
  ];
  const host = memory.afterRelay.host;
  const rows: Row[] = [
    row(`host (pid ${host?.pid ?? '-'})`, memory.serversUp.host, host),
    ...Object.keys(memory.serversUp.servers).map((name): Row => {
      const after = memory.afterRelay.servers[name];
      return row(
        `server ${name} (pid ${after?.pid ?? '-'})`,
        memory.serversUp.servers[name],
        after,
      );
    }),
  ];
  const shared =
    host?.pssMiB == null || host.privateMiB == null || host.sharedMiB == null
      ? []
      : [
          `  of the host's ${fixed(host.rssMiB, 1)} MiB, ${fixed(host.sharedMiB, 1)} are pages other processes map too (the node binary and its libraries: every node process, the servers among them, has them); counting those split among the processes that map them (PSS) the host is ${fixed(host.pssMiB, 1)} MiB, its own pages ${fixed(host.privateMiB, 1)} (context, no target)`,
        ];
  const heap = memory.heapAfterGc;
  const heapRows: Row[] = heap.samples.map((h): Row => [
    `after ${count(h.calls)} calls`,
    fixed(h.heapUsed / MIB, 2),
    fixed(h.external / MIB, 2),
    fixed(h.rss / MIB, 1),
  ]);
  return [
    `4. Memory: resident set size in MiB (${process.platform === 'linux' ? '/proc/<pid>/status VmRSS, peak VmHWM; PSS and private pages after the relay from smaps_rollup' : 'ps -o rss'})`,
    renderTable(['process', 'servers up', 'after relay', 'peak', 'PSS', 'private'], rows),
    `  host RSS ${growth(memory.serversUp.host, memory.afterRelay.host)} over ${count(memory.relayedCalls)} relayed calls`,
    ...shared,
    verdictLine('host RSS', verdicts.hostMemory),
    '',
    '  Leak or slack: live heap after forced full GCs, on a second host started with --expose-gc, in MiB',
    renderTable(['sample', 'heap used', 'external', 'rss'], heapRows),
    `  heap after GC ${fixed(heap.bytesPerCall, 1)} bytes per call over the last round (steady growth = a leak; near 0 = the RSS growth above is GC slack)`,
    ...renderMemoryBreakdown(heap),
  ].join('\n');
}

const MIB = 1_048_576;

function renderLoad({ load, relay, verdicts }: BenchReport): string {
  const s = load.settings;
  const fleet = Object.entries(load.fleet)
    .map(([server, n]) => `${n} ${server}`)
    .join(', ');
  const servers = Object.values(load.fleet).reduce((a, b) => a + b, 0);
  const row = (label: string, h: BenchReport['load']['idleHello']): Row => [
    label,
    fixed(h.p50, 3),
    fixed(h.p99, 3),
    fixed(h.max, 1),
    count(h.count),
  ];
  const cpu = load.cpuPerCallUs;
  const { before, after } = load.hostMemory;
  return [
    `5. Under load: ${servers} servers (${fleet}), ${count(s.inFlight)} tools/call kept in flight (echo,`,
    `   list_allowed_directories, read_graph in turn); ${s.rounds} rounds x ${count(s.callsPerRound)} calls after a warm-up round,`,
    `   alternating with idle rounds; a host/hello every ${s.probeIntervalMs} ms in both (open loop: slow spells are not under-sampled)`,
    renderTable(
      ['host/hello', 'p50 ms', 'p99 ms', 'max ms', 'samples'],
      [
        row('idle', load.idleHello),
        row(`${count(s.inFlight)} calls in flight`, load.loadedHello),
        ['under load / idle', `${fixed(load.ratioP50, 0)}x`, `${fixed(load.ratioP99, 0)}x`, '', ''],
      ],
    ),
    `  calls/s under load ${count(load.callsPerSecond)} (rounds ${load.rounds.map((r) => count(r.callsPerSecond)).join(' ')}); error replies ${count(load.rounds.reduce((n, r) => n + r.errors, 0))}`,
    `  CPU per call under load, us: host ${fixed(cpu['host'], 1)} (${fixed(relay.cpuPerCallUs.relay['host'], 1)} one at a time, section 1), all ${servers} servers ${fixed(cpu['servers'], 1)}, bench ${fixed(cpu['bench'], 1)}`,
    `  largest frame the host wrote ${count(load.largestFrameBytes)} bytes of ${count(verdicts.loadFrames.target)} allowed, over ${count(load.framesRead)} frames`,
    `  host RSS ${fixed(before?.rssMiB, 1)} MiB before the load, ${fixed(after?.rssMiB, 1)} after, peak ${fixed(after?.peakMiB, 1)}`,
  ].join('\n');
}

function loadRatioLine(load: LoadReport): string {
  return `  host/hello under load / idle = ${fixed(load.ratioP50, 0)}x at p50, ${fixed(load.ratioP99, 0)}x at p99   no target`;
}

function verdictLine(label: string, v: Verdict): string {
  const value =
    v.unit === 'x'
      ? `${fixed(v.value, 2)}x`
      : v.unit === 'bytes'
        ? `${count(v.value)} bytes`
        : `${fixed(v.value, 1)} ${v.unit}`;
  const target =
    v.unit === 'x'
      ? `${v.target}x`
      : v.unit === 'bytes'
        ? `${count(v.target)} bytes`
        : `${v.target} ${v.unit}`;
  return `  ${label} = ${value}   target ${v.comparison} ${target}   ${v.pass ? 'PASS' : 'FAIL'}`;
}

function growth(before: ProcessMemory | null, after: ProcessMemory | null): string {
  if (before === null || after === null) return 'change unknown';
  const mib = after.rssMiB - before.rssMiB;
  return `${mib >= 0 ? '+' : ''}${fixed(mib, 1)} MiB`;
}
