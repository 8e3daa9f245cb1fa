import { describe, expect, it } from 'vitest';
import { ListChangedRefresh } from './tool-list';

// A burst of tools/list_changed must cost one trailing listing, never a listing per
// notification, and a refresh must stop once its connection is gone. Dangerous direction: a
// notification during a refresh that is dropped (the tools shown are stale).

/** A refresh whose listings complete when the test says so. */
function scripted() {
  const pending: Array<() => void> = [];
  const relisted: string[] = [];
  const settled: string[] = [];
  let current = 'a';
  const refresh = new ListChangedRefresh<string>({
    relist: (connection) => {
      relisted.push(connection);
      return new Promise<void>((resolve) => {
        pending.push(resolve);
      });
    },
    isCurrent: (connection) => connection === current,
    onSettled: (connection) => settled.push(connection),
  });
  const finishListing = async (): Promise<void> => {
    pending.shift()?.();
    // Let the refresh loop run up to its next listing (or its end).
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
  };
  return {
    refresh,
    relisted,
    settled,
    finishListing,
    disconnect: () => {
      current = 'b';
    },
  };
}

describe('ListChangedRefresh', () => {
  it('collapses notifications during a listing into one more listing', async () => {
    const s = scripted();
    s.refresh.request('a');
    s.refresh.request('a');
    s.refresh.request('a');
    expect(s.relisted).toEqual(['a']);

    await s.finishListing();
    expect(s.relisted).toEqual(['a', 'a']);
    await s.finishListing();
    expect(s.relisted).toEqual(['a', 'a']);
    expect(s.settled).toEqual(['a']);
  });

  it('stops, and announces nothing, once its connection is no longer current', async () => {
    const s = scripted();
    s.refresh.request('a');
    s.refresh.request('a');
    s.disconnect();

    await s.finishListing();
    expect(s.relisted).toEqual(['a']);
    expect(s.settled).toEqual([]);
  });
});
