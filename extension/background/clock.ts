/**
 * Time as a parameter (style habit 6): the host client's timeouts and reconnect backoff take a
 * Clock, so tests advance a fake one instead of waiting.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `callback` once after `delayMs`; the returned function cancels it (idempotent). */
  setTimer(callback: () => void, delayMs: number): () => void;
}

/** The real clock: `Date.now` and `setTimeout`, looked up at call time (WXT builds the module top level). */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(callback, delayMs) {
    const handle = setTimeout(callback, delayMs);
    return () => {
      clearTimeout(handle);
    };
  },
};
