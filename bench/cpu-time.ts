import { readFileSync, readdirSync } from 'node:fs';

/**
 * CPU time a process has used, all its threads (V8's GC helpers and libuv's pool included), in
 * ms with nanosecond resolution, from `/proc/<pid>/task/<tid>/schedstat` (Linux only; its first
 * field is time on a CPU in ns). Clock-tick counters (`/proc/<pid>/stat`, 10 ms) are too coarse
 * for blocks of a few hundred sub-millisecond calls.
 */

/** Cumulative CPU ms per named process, null where unknown; read together, as one moment. */
export type CpuMeter = () => Readonly<Record<string, number | null>>;

/** Cumulative CPU ms of `pid`, or null when not on Linux or the process is gone. */
export function cpuTimeMs(pid: number): number | null {
  if (process.platform !== 'linux') return null;
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  let ns = 0;
  for (const tid of tasks) {
    try {
      const [onCpu] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ');
      ns += Number(onCpu);
    } catch {
      // A thread that ended between the listing and the read used no more CPU.
    }
  }
  return ns / 1e6;
}

/** A meter over named pids: each call returns every process's cumulative CPU ms. */
export function cpuMeter(pids: Readonly<Record<string, number | undefined>>): CpuMeter {
  return () =>
    Object.fromEntries(
      Object.entries(pids).map(([name, pid]) => [name, pid === undefined ? null : cpuTimeMs(pid)]),
    );
}

/** Cumulative CPU ms of all these processes together; null if any of them is unknown. */
export function cpuTotalMs(pids: ReadonlyArray<number | undefined>): number | null {
  let total = 0;
  for (const pid of pids) {
    const ms = pid === undefined ? null : cpuTimeMs(pid);
    if (ms === null) return null;
    total += ms;
  }
  return total;
}

/** Adds `after - before` per process to `into`; unknown on either side makes the total unknown. */
export function addCpu(
  into: Record<string, number | null>,
  before: Readonly<Record<string, number | null>>,
  after: Readonly<Record<string, number | null>>,
): void {
  for (const [name, end] of Object.entries(after)) {
    const start = before[name] ?? null;
    const sofar = name in into ? (into[name] ?? null) : 0;
    into[name] = sofar === null || start === null || end === null ? null : sofar + end - start;
  }
}
