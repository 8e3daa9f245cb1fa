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
  /**
   * A remote server that cannot be reached at all (refused, no route, DNS) is an outage, not a
   * crash loop: past `maxRestarts` it is retried at this interval for as long as it lasts (a
   * laptop offline, a VPN down), instead of being given up.
   */
  readonly unreachableRetryMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  maxRestarts: 5,
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  stableAfterMs: 60_000,
  unreachableRetryMs: 60_000,
};

export type RestartDecision =
  | { readonly kind: 'restart'; readonly restarts: number; readonly delayMs: number }
  | { readonly kind: 'give-up' };

/**
 * Decides what follows a crash, given how many restarts already happened in a row and whether
 * the crash was a remote server out of reach.
 */
export function restartDecision(
  policy: RestartPolicy,
  restartsSoFar: number,
  unreachable = false,
): RestartDecision {
  if (restartsSoFar >= policy.maxRestarts) {
    if (!unreachable) return { kind: 'give-up' };
    return {
      kind: 'restart',
      restarts: policy.maxRestarts,
      delayMs: Math.max(policy.maxDelayMs, policy.unreachableRetryMs),
    };
  }
  const restarts = restartsSoFar + 1;
  const delayMs = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (restarts - 1));
  return { kind: 'restart', restarts, delayMs };
}
