import { appendFileSync } from 'node:fs';

/**
 * Where a relayed call's CPU goes, for the bench (issue 15): an opt-in clock that charges the time
 * spent in each stage's synchronous code to that stage. Synchronous code never waits, so its wall
 * time is CPU time on the main thread (a write's syscall included), unless the kernel preempts
 * the host meanwhile, which a busy machine does. `performance.now()` costs about 0.3 us a reading
 * where `process.cpuUsage()` costs 2.5 (measured on the bench machine): with a dozen readings per
 * call the latter would be a tenth of what it measures. Stages nest: entering one pauses the one
 * around it, so every microsecond is charged to one stage only (exclusive time). What no stage
 * covers (the event loop, stream and promise plumbing between stages, the SDK's promise chain,
 * GC outside them) is left out; the bench reports it as the rest of the host's CPU.
 *
 * Off unless `SWITCHYARD_STAGE_CLOCK` names a file: then `stageClock` exists, and on SIGUSR2 and
 * at exit the host appends one JSON line of cumulative totals to that file. When off the call
 * sites cost one `undefined` check (`stageClock?.enter(...)`): the browser never sets it.
 */

export const STAGES = [
  /** Frame read from the browser: decode, JSON.parse, envelope and params validation, dispatch. */
  'frame-in',
  /** Routing and policy: profile, catalog lookup, visibility, the tool gate's decision. */
  'policy',
  /** The request to the server: the SDK's request, its JSON line, the write to its stdin. */
  'forward',
  /** The server's answer: line split, JSON.parse, envelope check, the SDK's dispatch, normalizing. */
  'response',
  /** The result gate: sanitize, redact, fit the frame, wrap for the model. */
  'result-gate',
  /** The audit record: queued, built (arguments and result hashed), written. */
  'audit',
  /** The reply to the browser: JSON, frame, the write to stdout. */
  'frame-out',
] as const;
export type Stage = (typeof STAGES)[number];

/** Cumulative totals, as written to the file. */
export interface StageTotals {
  /** Microseconds charged to each stage. */
  readonly us: Readonly<Record<Stage, number>>;
  /** Times each stage was entered. */
  readonly entries: Readonly<Record<Stage, number>>;
}

export interface StageClock {
  enter(stage: Stage): void;
  /** Leaves the innermost stage entered (resumes the one around it). */
  leave(): void;
  totals(): StageTotals;
}

/** A clock over `now` (microseconds); exported for tests. */
export function createStageClock(now: () => number): StageClock {
  const us = zeroes();
  const entries = zeroes();
  const stack: Stage[] = [];
  let since = 0;
  const charge = (): void => {
    const t = now();
    const current = stack.at(-1);
    if (current !== undefined) us[current] += t - since;
    since = t;
  };
  return {
    enter(stage) {
      charge();
      stack.push(stage);
      entries[stage] += 1;
    },
    leave() {
      charge();
      stack.pop();
    },
    totals: () => ({ us: { ...us }, entries: { ...entries } }),
  };
}

function zeroes(): Record<Stage, number> {
  return {
    'frame-in': 0,
    policy: 0,
    forward: 0,
    response: 0,
    'result-gate': 0,
    audit: 0,
    'frame-out': 0,
  };
}

function micros(): number {
  // The global, read only once the clock is on: importing perf_hooks cost the start 6 ms.
  return globalThis.performance.now() * 1_000;
}

function fromEnvironment(): StageClock | undefined {
  const file = process.env['SWITCHYARD_STAGE_CLOCK'];
  if (file === undefined || file === '') return undefined;
  const clock = createStageClock(micros);
  const dump = (): void => {
    appendFileSync(file, `${JSON.stringify(clock.totals())}\n`);
  };
  process.on('SIGUSR2', dump);
  process.on('exit', dump);
  return clock;
}

/** The host's clock: undefined (and free) unless the bench asked for it. */
export const stageClock: StageClock | undefined = fromEnvironment();
