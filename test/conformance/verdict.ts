import { z } from 'zod';

/**
 * The pure half of the conformance runner (scripts/conformance.ts): what one scenario's run
 * means, and the run as a whole against the baseline of expected failures.
 */

/** One entry of the suite's checks.json (its `ConformanceCheck`), the members read here. */
export const CheckSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  status: z.enum(['SUCCESS', 'FAILURE', 'WARNING', 'SKIPPED', 'INFO']),
  errorMessage: z.string().optional(),
});
export type Check = z.infer<typeof CheckSchema>;
export const ChecksFileSchema = z.array(CheckSchema);

/**
 * test/conformance/baseline.json: each scenario expected to fail, with the reason. A reason is
 * required: an entry nobody can explain is an entry nobody will remove.
 */
export const BaselineSchema = z.strictObject({
  $comment: z.string().optional(),
  expectedFailures: z.record(z.string().min(1), z.string().trim().min(1)),
});
export type Baseline = z.infer<typeof BaselineSchema>;

export interface ScenarioRun {
  readonly scenario: string;
  /** The suite's exit code for the scenario (it folds in the client's exit code and time-out). */
  readonly exitCode: number | null;
  /** The checks it recorded, or null when it wrote no checks.json. */
  readonly checks: readonly Check[] | null;
  /** The adapter's own last word on stderr ("FAILED: ..."), if it gave one. */
  readonly clientError?: string;
  readonly timedOut: boolean;
}

export interface ScenarioOutcome {
  readonly scenario: string;
  readonly passed: boolean;
  /** Why it failed, one line each: failed and warned checks, the client's exit, a time-out. */
  readonly problems: readonly string[];
  readonly checkCounts: {
    readonly success: number;
    readonly failure: number;
    readonly warning: number;
  };
}

/**
 * A scenario passes as the suite's own single-scenario mode decides: no FAILURE and no WARNING
 * check, no time-out, and a zero exit (which also covers a client that exited non-zero in a
 * scenario that does not allow it). A missing checks.json is a failure.
 */
export function outcomeOf(run: ScenarioRun): ScenarioOutcome {
  const checks = run.checks ?? [];
  const count = (status: Check['status']) => checks.filter((c) => c.status === status).length;
  const problems: string[] = [];
  if (run.checks === null) problems.push('the suite wrote no checks.json');
  for (const check of checks) {
    if (check.status === 'FAILURE' || check.status === 'WARNING') {
      problems.push(
        `${check.status} ${check.id}: ${check.errorMessage ?? check.description}`.slice(0, 400),
      );
    }
  }
  if (run.timedOut) problems.push('the client timed out');
  if (run.exitCode !== 0) {
    // The adapter's reason explains a non-zero exit. With exit 0 it is no problem: a scenario that
    // expects the client to give up (auth/scope-retry-limit, auth/resource-mismatch) allows it.
    if (run.clientError !== undefined) problems.push(`adapter: ${run.clientError}`.slice(0, 400));
    else if (problems.length === 0)
      problems.push(`the suite exited with code ${String(run.exitCode)}`);
  }
  return {
    scenario: run.scenario,
    passed: run.exitCode === 0 && problems.length === 0,
    problems,
    checkCounts: {
      success: count('SUCCESS'),
      failure: count('FAILURE'),
      warning: count('WARNING'),
    },
  };
}

export interface Verdict {
  readonly passed: number;
  readonly failed: number;
  /** Failed scenarios the baseline lists. */
  readonly expected: number;
  /** Failed scenarios the baseline does not list: regressions. */
  readonly unexpected: readonly string[];
  /** Baseline entries whose scenario passed: the baseline must lose them. */
  readonly stale: readonly string[];
  /** Baseline entries naming no scenario the suite has. */
  readonly unknown: readonly string[];
  /** The run is good: no unexpected failure and a baseline that matches it exactly. */
  readonly ok: boolean;
}

/**
 * The run against the baseline. Dangerous direction: a failure let through as expected. So a
 * baseline entry covers only its own scenario, and an entry that no longer fails, or names no
 * scenario at all, fails the run too, so the baseline cannot rot into a list of excuses.
 * `allScenarios` is every scenario the suite has; a run of a subset judges only what it ran.
 */
export function verdictOf(
  outcomes: readonly ScenarioOutcome[],
  baseline: Baseline,
  allScenarios: readonly string[],
): Verdict {
  const listed = (scenario: string) => Object.hasOwn(baseline.expectedFailures, scenario);
  const failedRuns = outcomes.filter((o) => !o.passed);
  const unexpected = failedRuns.filter((o) => !listed(o.scenario)).map((o) => o.scenario);
  const stale = outcomes.filter((o) => o.passed && listed(o.scenario)).map((o) => o.scenario);
  const unknown = Object.keys(baseline.expectedFailures).filter((s) => !allScenarios.includes(s));
  return {
    passed: outcomes.length - failedRuns.length,
    failed: failedRuns.length,
    expected: failedRuns.length - unexpected.length,
    unexpected,
    stale,
    unknown,
    ok: unexpected.length === 0 && stale.length === 0 && unknown.length === 0,
  };
}

/** The closing line: "conformance: N passed, M failed (K expected)". */
export function summaryLine(verdict: Verdict): string {
  return `conformance: ${verdict.passed} passed, ${verdict.failed} failed (${verdict.expected} expected)`;
}
