/**
 * When to restart a crashed server: exponential backoff, bounded, and a crash loop gives up
 * instead of spinning (design D12). Pure, so the schedule is a table in its test.
 */
export interface RestartPolicy {
  /** Restarts allowed in a row before the server is marked failed ('crash-loop'). */
  readonly maxRestarts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** A run at least this long counts as stable and resets the consecutive-crash count. */
  readonly stableAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  maxRestarts: 5,
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  stableAfterMs: 60_000,
};

export type RestartDecision =
  | { readonly kind: 'restart'; readonly restarts: number; readonly delayMs: number }
  | { readonly kind: 'give-up' };

/** Decides what follows a crash, given how many restarts already happened in a row. */
export function restartDecision(policy: RestartPolicy, restartsSoFar: number): RestartDecision {
  if (restartsSoFar >= policy.maxRestarts) return { kind: 'give-up' };
  const restarts = restartsSoFar + 1;
  const delayMs = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (restarts - 1));
  return { kind: 'restart', restarts, delayMs };
}
