import { performance } from 'node:perf_hooks';
import { addCpu, type CpuMeter } from './cpu-time';
import { median, summarize, type Summary } from './stats';

/**
 * Relay overhead: the same small tool call through the host and straight to the server, and the
 * bare hop through the host that touches no server. The three are measured in alternating blocks
 * (the order rotates every round) so drift in the machine's speed lands on all of them alike.
 */

export const PATHS = ['relay', 'direct', 'bare'] as const;
export type PathName = (typeof PATHS)[number];

/** One round trip; resolves when its answer is in. */
export type RoundTrip = () => Promise<unknown>;

export interface RelaySettings {
  /** Sequential calls of each path before anything is recorded. */
  readonly warmupCalls: number;
  readonly rounds: number;
  /** Sequential calls per path per round. */
  readonly blockCalls: number;
  /** Calls kept in flight for the throughput figure. */
  readonly inFlight: number;
  /** Calls per throughput run; `throughputRounds` runs per path, alternating. */
  readonly throughputCalls: number;
  readonly throughputRounds: number;
}

export interface PathResult {
  /** Every sequential call of every round, in ms. */
  readonly latency: Summary;
  /** The p50 of each round's block, in ms: shows how steady the figure is. */
  readonly roundP50s: readonly number[];
  /** Median calls/s over the throughput runs, `inFlight` calls outstanding. */
  readonly callsPerSecond: number;
  readonly throughputRuns: readonly number[];
}

export interface RelayResult {
  readonly settings: RelaySettings;
  readonly paths: Readonly<Record<PathName, PathResult>>;
  /** direct p50 + bare p50, in ms: what a relay cannot beat. */
  readonly floorP50: number;
  /** relay p50 / floor. */
  readonly ratio: number;
  /** The same ratio computed within each round. */
  readonly roundRatios: readonly number[];
  /**
   * CPU time per sequential call, in microseconds, of each metered process (the bench itself, the
   * host, the servers), by path: where a round trip's work is done. Placement on CPUs moves it
   * less than latency, but a busy machine still inflates it (cache and SMT contention).
   */
  readonly cpuPerCallUs: Readonly<Record<PathName, Readonly<Record<string, number | null>>>>;
}

export async function measureRelay(
  trips: Readonly<Record<PathName, RoundTrip>>,
  settings: RelaySettings,
  meter: CpuMeter = () => ({}),
): Promise<RelayResult> {
  for (const path of PATHS) await sequential(trips[path], settings.warmupCalls);

  const samples: Record<PathName, number[]> = { relay: [], direct: [], bare: [] };
  const roundP50s: Record<PathName, number[]> = { relay: [], direct: [], bare: [] };
  const cpuMs: Record<PathName, Record<string, number | null>> = {
    relay: {},
    direct: {},
    bare: {},
  };
  for (let round = 0; round < settings.rounds; round += 1) {
    for (const path of rotate(PATHS, round)) {
      const before = meter();
      const block = await sequential(trips[path], settings.blockCalls);
      addCpu(cpuMs[path], before, meter());
      samples[path].push(...block);
      roundP50s[path].push(median(block));
    }
  }
  const calls = settings.rounds * settings.blockCalls;
  const perCallUs = (ms: Record<string, number | null>) =>
    Object.fromEntries(
      Object.entries(ms).map(([name, v]) => [name, v === null ? null : (v * 1_000) / calls]),
    );

  const throughputRuns: Record<PathName, number[]> = { relay: [], direct: [], bare: [] };
  for (let round = 0; round < settings.throughputRounds; round += 1) {
    for (const path of rotate(PATHS, round)) {
      throughputRuns[path].push(
        await throughput(trips[path], settings.throughputCalls, settings.inFlight),
      );
    }
  }

  const result = (path: PathName): PathResult => ({
    latency: summarize(samples[path]),
    roundP50s: roundP50s[path],
    callsPerSecond: median(throughputRuns[path]),
    throughputRuns: throughputRuns[path],
  });
  const paths = { relay: result('relay'), direct: result('direct'), bare: result('bare') };
  const floorP50 = paths.direct.latency.p50 + paths.bare.latency.p50;
  return {
    settings,
    paths,
    floorP50,
    ratio: paths.relay.latency.p50 / floorP50,
    roundRatios: roundP50s.relay.map(
      (relay, i) => relay / (roundP50s.direct[i]! + roundP50s.bare[i]!),
    ),
    cpuPerCallUs: {
      relay: perCallUs(cpuMs.relay),
      direct: perCallUs(cpuMs.direct),
      bare: perCallUs(cpuMs.bare),
    },
  };
}

/** `calls` round trips one after another (one in flight); each one's latency in ms. */
async function sequential(trip: RoundTrip, calls: number): Promise<number[]> {
  const latencies = new Array<number>(calls);
  for (let i = 0; i < calls; i += 1) {
    const startedAt = performance.now();
    await trip();
    latencies[i] = performance.now() - startedAt;
  }
  return latencies;
}

/** Calls per second for `calls` round trips with `inFlight` of them outstanding at all times. */
async function throughput(trip: RoundTrip, calls: number, inFlight: number): Promise<number> {
  let issued = 0;
  const worker = async (): Promise<void> => {
    while (issued < calls) {
      issued += 1;
      await trip();
    }
  };
  const startedAt = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  return calls / ((performance.now() - startedAt) / 1_000);
}

function rotate<T>(items: readonly T[], by: number): T[] {
  const k = by % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}
