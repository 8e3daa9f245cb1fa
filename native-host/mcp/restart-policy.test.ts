import { describe, expect, it } from 'vitest';
import { DEFAULT_RESTART_POLICY, restartDecision } from './restart-policy';

// Dangerous direction: restarting forever (a crash loop burning CPU and flooding logs).
describe('restartDecision', () => {
  it.each([
    [0, { kind: 'restart', restarts: 1, delayMs: 1_000 }],
    [1, { kind: 'restart', restarts: 2, delayMs: 2_000 }],
    [2, { kind: 'restart', restarts: 3, delayMs: 4_000 }],
    [3, { kind: 'restart', restarts: 4, delayMs: 8_000 }],
    [4, { kind: 'restart', restarts: 5, delayMs: 16_000 }],
    [5, { kind: 'give-up' }],
    [50, { kind: 'give-up' }],
  ])('after %i restarts in a row: %o', (restarts, expected) => {
    expect(restartDecision(DEFAULT_RESTART_POLICY, restarts)).toEqual(expected);
  });

  it('caps the delay', () => {
    const policy = { ...DEFAULT_RESTART_POLICY, maxRestarts: 20 };
    expect(restartDecision(policy, 10)).toEqual({ kind: 'restart', restarts: 11, delayMs: 30_000 });
  });

  // An outage of a remote server is waited out, once a minute, never given up and never faster.
  it.each([
    [0, { kind: 'restart', restarts: 1, delayMs: 1_000 }],
    [4, { kind: 'restart', restarts: 5, delayMs: 16_000 }],
    [5, { kind: 'restart', restarts: 5, delayMs: 60_000 }],
    [500, { kind: 'restart', restarts: 5, delayMs: 60_000 }],
  ])('a remote server out of reach, after %i restarts: %o', (restarts, expected) => {
    expect(restartDecision(DEFAULT_RESTART_POLICY, restarts, true)).toEqual(expected);
  });
});
