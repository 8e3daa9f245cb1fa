import { performance } from 'node:perf_hooks';
import { addCpu, type CpuMeter } from './cpu-time';
import type { ProcessMemory } from './memory';
import type { RoundTrip } from './relay';
import { median, summarize, type Summary } from './stats';

/**
 * Under load: `inFlight` tools/call kept outstanding across the fleet (a new one is sent as each
 * answers) while a prober sends `host/hello` at a steady pace, against the same prober with
 * nothing else in flight. Idle and loaded rounds alternate so drift lands on both. A hello
 * touches no server: its latency under load is how long a request waits behind the calls in the
 * pipe and in the host (head-of-line blocking), plus the bench's own turn: the bench handles every
 * reply too, as the extension's service worker would.
 */

export interface LoadSettings {
  /** Calls kept in flight during a loaded round. */
  readonly inFlight: number;
  /** Calls per loaded round. */
  readonly callsPerRound: number;
  /** Hellos per idle round. */
  readonly idleHellos: number;
  /** A hello is sent this often, idle or loaded, in ms. */
  readonly probeIntervalMs: number;
  /** Loaded rounds (and as many idle ones); one more loaded round first, unrecorded, warms up. */
  readonly rounds: number;
}

export interface LoadRound {
  readonly callsPerSecond: number;
  /** Hellos sent while the pool was full (the ramp-down at the end is left out). */
  readonly hellos: number;
  /** Calls answered with an error (the bench expects none). */
  readonly errors: number;
}

export interface LoadResult {
  readonly settings: LoadSettings;
  readonly idleHello: Summary;
  readonly loadedHello: Summary;
  /** loaded / idle, at p50 and at p99. */
  readonly ratioP50: number;
  readonly ratioP99: number;
  /** Median calls/s over the loaded rounds. */
  readonly callsPerSecond: number;
  readonly rounds: readonly LoadRound[];
  /** CPU time per call of each metered process over the loaded rounds, in microseconds. */
  readonly cpuPerCallUs: Readonly<Record<string, number | null>>;
}

/** The load figures as the report shows them: `LoadResult` plus what the bench saw of the host. */
export interface LoadReport extends LoadResult {
  /** Instances of each reference server. */
  readonly fleet: Readonly<Record<string, number>>;
  /** Frames read from the host over the whole load run, and the largest length prefix, bytes. */
  readonly framesRead: number;
  readonly largestFrameBytes: number;
  /** Host resident memory before the warm-up round and after the last loaded round. */
  readonly hostMemory: {
    readonly before: ProcessMemory | null;
    readonly after: ProcessMemory | null;
  };
}

export async function measureLoad(
  trips: { readonly call: (i: number) => Promise<unknown>; readonly hello: RoundTrip },
  settings: LoadSettings,
  meter: CpuMeter = () => ({}),
): Promise<LoadResult> {
  await loadedRound(trips, settings);

  const idle: number[] = [];
  const loaded: number[] = [];
  const rounds: LoadRound[] = [];
  const cpuMs: Record<string, number | null> = {};
  for (let round = 0; round < settings.rounds; round += 1) {
    idle.push(...(await idleRound(trips.hello, settings)));
    const before = meter();
    const result = await loadedRound(trips, settings);
    const after = meter();
    addCpu(cpuMs, before, after);
    loaded.push(...result.helloLatencies);
    rounds.push({
      callsPerSecond: result.callsPerSecond,
      hellos: result.helloLatencies.length,
      errors: result.errors,
    });
  }
  const calls = settings.rounds * settings.callsPerRound;
  const idleHello = summarize(idle);
  const loadedHello = summarize(loaded);
  return {
    settings,
    idleHello,
    loadedHello,
    ratioP50: loadedHello.p50 / idleHello.p50,
    ratioP99: loadedHello.p99 / idleHello.p99,
    callsPerSecond: median(rounds.map((r) => r.callsPerSecond)),
    rounds,
    cpuPerCallUs: Object.fromEntries(
      Object.entries(cpuMs).map(([name, ms]) => [name, ms === null ? null : (ms * 1_000) / calls]),
    ),
  };
}

/**
 * One loaded round: `inFlight` workers each send a call and, when it answers, the next, until
 * `callsPerRound` have been sent. Meanwhile a hello goes out every `probeIntervalMs` whether or
 * not the last one answered (open loop): a prober that waited for each answer would send many
 * hellos while the host is quick and few while it is slow, and so under-report the slow spells.
 */
async function loadedRound(
  trips: { readonly call: (i: number) => Promise<unknown>; readonly hello: RoundTrip },
  settings: LoadSettings,
): Promise<{ callsPerSecond: number; helloLatencies: number[]; errors: number }> {
  let issued = 0;
  let errors = 0;
  const worker = async (): Promise<void> => {
    while (issued < settings.callsPerRound) {
      issued += 1;
      try {
        await trips.call(issued - 1);
      } catch {
        errors += 1;
      }
    }
  };
  const startedAt = performance.now();
  const pool = Promise.all(Array.from({ length: settings.inFlight }, worker));
  // Hellos sent while every worker still has calls to send: the ramp-down at the end is left out.
  const hellos: Array<Promise<number>> = [];
  while (issued < settings.callsPerRound) {
    hellos.push(timed(trips.hello));
    await sleep(settings.probeIntervalMs);
  }
  await pool;
  const elapsedMs = performance.now() - startedAt;
  return {
    callsPerSecond: settings.callsPerRound / (elapsedMs / 1_000),
    helloLatencies: await Promise.all(hellos),
    errors,
  };
}

/** Hellos one at a time, `probeIntervalMs` apart, with nothing else in flight. */
async function idleRound(hello: RoundTrip, settings: LoadSettings): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < settings.idleHellos; i += 1) {
    latencies.push(await timed(hello));
    await sleep(settings.probeIntervalMs);
  }
  return latencies;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function timed(trip: RoundTrip): Promise<number> {
  const startedAt = performance.now();
  await trip();
  return performance.now() - startedAt;
}
