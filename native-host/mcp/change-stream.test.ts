import { describe, expect, it } from 'vitest';
import {
  MAX_QUICK_REOPENINGS,
  REOPEN_FIRST_DELAY_MS,
  STREAM_STABLE_MS,
  keepListening,
  type ChangeStreamOptions,
} from './change-stream';

// Dangerous direction: a change stream that ends and is never opened again (tool changes stop
// being followed, silently), or one reopened in a tight loop against a server that refuses it.

type How = 'local' | 'graceful' | 'remote';

/** `refusals`: which listens (0 the first) the server refuses. */
function harness(options: { era?: 'modern' | 'legacy'; refusals?: readonly number[] } = {}) {
  const streams: Array<(how: How) => void> = [];
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const warnings: string[] = [];
  let reopened = 0;
  let current = true;
  let clock = 0;
  let listens = 0;
  const client: ChangeStreamOptions['client'] = {
    getProtocolEra: () => options.era ?? 'modern',
    getServerCapabilities: () => ({ tools: { listChanged: true } }),
    listen: () => {
      const index = listens;
      listens += 1;
      if (options.refusals?.includes(index) === true) return Promise.reject(new Error('refused'));
      let end: (how: How) => void = () => undefined;
      const closed = new Promise<How>((resolve) => (end = resolve));
      streams.push(end);
      return Promise.resolve({ honoredFilter: {}, close: () => Promise.resolve(), closed });
    },
  };
  keepListening({
    client,
    timeoutMs: 1_000,
    isCurrent: () => current,
    schedule: (fn, ms) => {
      timers.push({ fn, ms });
      return () => undefined;
    },
    onWarning: (w) => warnings.push(w),
    onReopened: () => (reopened += 1),
    now: () => clock,
  });
  const settle = async () => {
    for (let i = 0; i < 10; i += 1) await Promise.resolve();
  };
  return {
    streams,
    timers,
    warnings,
    reopened: () => reopened,
    end: async (how: How) => {
      streams.at(-1)?.(how);
      await settle();
    },
    fire: async () => {
      timers.shift()?.fn();
      await settle();
    },
    settle,
    advance: (ms: number) => (clock += ms),
    disconnect: () => (current = false),
  };
}

describe('keepListening', () => {
  it('opens the stream again after an unexpected end, and re-lists what it missed', async () => {
    const h = harness();
    await h.settle();
    expect(h.streams).toHaveLength(1);
    await h.end('remote');
    expect(h.timers.map((t) => t.ms)).toEqual([REOPEN_FIRST_DELAY_MS]);
    await h.fire();
    expect(h.streams).toHaveLength(2);
    expect(h.reopened()).toBe(1);
  });

  it('backs off on quick ends, starts over after a stable stream, and gives up at last', async () => {
    const h = harness();
    await h.settle();
    const delays: number[] = [];
    for (let i = 0; i < MAX_QUICK_REOPENINGS; i += 1) {
      await h.end('remote');
      delays.push(h.timers[0]?.ms ?? -1);
      await h.fire();
    }
    expect(delays.slice(0, 4)).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(delays.at(-1)).toBeLessThanOrEqual(60_000);
    // Open long enough: the next end is no quick one.
    h.advance(STREAM_STABLE_MS);
    await h.end('remote');
    expect(h.timers[0]?.ms).toBe(REOPEN_FIRST_DELAY_MS);
    await h.fire();
    for (let i = 0; i < MAX_QUICK_REOPENINGS - 1; i += 1) {
      await h.end('remote');
      await h.fire();
    }
    await h.end('remote');
    expect(h.timers).toEqual([]);
    expect(h.warnings.at(-1)).toMatch(/closed its list-change stream 8 times in a row/);
  });

  it.each<How>(['graceful', 'local'])('leaves a stream ended %s closed', async (how) => {
    const h = harness();
    await h.settle();
    await h.end(how);
    expect(h.timers).toEqual([]);
  });

  it('does not reopen for a connection that is gone', async () => {
    const h = harness();
    await h.settle();
    h.disconnect();
    await h.end('remote');
    expect(h.timers).toEqual([]);
  });

  it('warns once when the first listen is refused, and does not retry it', async () => {
    const h = harness({ refusals: [0] });
    await h.settle();
    expect(h.warnings).toEqual(['could not subscribe to list changes: refused']);
    expect(h.timers).toEqual([]);
  });

  it('retries a reopening the server refuses, with the backoff', async () => {
    const h = harness({ refusals: [1] });
    await h.settle();
    await h.end('remote');
    await h.fire(); // the second listen is refused: another, longer wait
    expect(h.streams).toHaveLength(1);
    expect(h.timers.map((t) => t.ms)).toEqual([2 * REOPEN_FIRST_DELAY_MS]);
    await h.fire();
    expect(h.streams).toHaveLength(2);
    expect(h.reopened()).toBe(1);
    expect(h.warnings).toEqual([]);
  });

  it('does nothing on a 2025-era connection (changes arrive unasked)', async () => {
    const h = harness({ era: 'legacy' });
    await h.settle();
    expect(h.streams).toEqual([]);
  });
});
