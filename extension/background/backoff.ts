/**
 * The pure reconnect backoff of the native connection (see messaging/connection.ts for the
 * states it moves between).
 */

/** Reconnect schedule after the host crashed: `min(initialMs * 2^(n-1), maxMs)` for the nth retry. */
export interface BackoffPolicy {
  readonly initialMs: number;
  readonly maxMs: number;
  /** Retries in a row before giving up (state `crashed` with `retryInMs: null`). */
  readonly maxAttempts: number;
  /** A connection that lasted this long counts as stable: the retry count starts over. */
  readonly stableMs: number;
}

/** 1, 2, 4, 8, 16, 30, 30, 30 s, then give up: about two minutes of a host that cannot stay up. */
export const DEFAULT_BACKOFF: BackoffPolicy = {
  initialMs: 1_000,
  maxMs: 30_000,
  maxAttempts: 8,
  stableMs: 60_000,
};

/** Delay before retry number `retry` (1-based), or null when the policy has given up. */
export function backoffDelayMs(policy: BackoffPolicy, retry: number): number | null {
  if (retry < 1 || retry > policy.maxAttempts) return null;
  return Math.min(policy.initialMs * 2 ** (retry - 1), policy.maxMs);
}
