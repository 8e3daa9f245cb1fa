import { describe, expect, it } from 'vitest';
import { coalesce } from './coalesce';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('coalesce', () => {
  it('runs once more after a burst of asks during a run', async () => {
    const gates = [deferred(), deferred()];
    let runs = 0;
    const refresh = coalesce(async () => {
      const gate = gates[runs];
      runs += 1;
      await gate?.promise;
    });
    const first = refresh();
    void refresh();
    void refresh();
    const last = refresh();
    expect(runs).toBe(1);
    gates[0]?.resolve();
    await Promise.resolve();
    await Promise.resolve();
    expect(runs).toBe(2);
    gates[1]?.resolve();
    await Promise.all([first, last]);
    expect(runs).toBe(2);
    await refresh();
    expect(runs).toBe(3);
  });

  it('keeps going after a failed run', async () => {
    let runs = 0;
    const refresh = coalesce(() => {
      runs += 1;
      return Promise.reject(new Error('host gone'));
    });
    await refresh();
    await refresh();
    expect(runs).toBe(2);
  });
});
