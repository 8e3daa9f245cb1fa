import { describe, expect, it } from 'vitest';
import { recordCrash } from './crash-history';

describe('recordCrash', () => {
  it('counts crashes and keeps the last exit', () => {
    const first = recordCrash(null, { code: 1, signal: null }, 10);
    expect(first).toEqual({ count: 1, lastExit: { code: 1, signal: null }, lastAt: 10 });
    const second = recordCrash(first, { code: null, signal: 'SIGKILL' }, 20);
    expect(second).toEqual({ count: 2, lastExit: { code: null, signal: 'SIGKILL' }, lastAt: 20 });
    // The earlier record is a value: not changed by the next one.
    expect(first.count).toBe(1);
  });
});
