import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import { inMemoryLauncher } from '../testing/in-memory-launcher';
import type { ServerLaunch } from '../shared/server-spec';
import { ServerRuntime } from './server-runtime';
import type { Client } from '@modelcontextprotocol/client';
import { MAX_CURSOR_CHARS } from '../shared/tool-definition';
import { ListChangedRefresh, listServerTools } from './tool-list';

const TTL_LAUNCH: ServerLaunch = {
  name: 'notes',
  executable: '/usr/bin/fake',
  notFound: null,
  notFoundReason: 'command-not-found',
  command: 'fake',
  args: [],
  env: {},
  cwd: undefined,
  handshakeTimeoutMs: 5_000,
  toolTimeoutMs: 5_000,
  remote: null,
};

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

// Lists with a ttl (2026-07-28, SEP-2549): re-listed when the ttl runs out and not before, unless
// list_changed arrives; a re-listing that changed nothing is not announced (each announcement
// makes the extension fetch the whole listing again).
describe('list ttl', () => {
  function listing(ttlMs: number | undefined) {
    const timers: Array<{ fn: () => void; ms: number; cancelled: boolean }> = [];
    let lists = 0;
    let announced = 0;
    let server: McpServer | undefined;
    const launcher = inMemoryLauncher({
      revisions: '2026',
      ...(ttlMs === undefined ? {} : { listTtlMs: ttlMs }),
      tools: () => [{ name: 'read' }],
      setup: (s) => {
        server = s;
      },
      onClientMessage: (_launch, method) => {
        if (method === 'tools/list') lists += 1;
      },
    });
    const runtime = new ServerRuntime({
      launch: TTL_LAUNCH,
      spawnServer: launcher.spawnServer,
      clientInfo: { name: 'switchyard-test', version: '0' },
      schedule: (fn, ms) => {
        const timer = { fn, ms, cancelled: false };
        timers.push(timer);
        return () => {
          timer.cancelled = true;
        };
      },
      events: {
        onStateChange: () => undefined,
        onToolsChanged: () => {
          announced += 1;
        },
        onLog: () => undefined,
      },
    });
    const live = () => timers.filter((t) => !t.cancelled);
    return {
      runtime,
      live,
      lists: () => lists,
      announced: () => announced,
      server: () => server,
      expire: async () => {
        const due = live();
        for (const timer of due) timer.cancelled = true;
        for (const timer of due) timer.fn();
        await vi.waitFor(() => {
          expect(lists).toBeGreaterThan(0);
        });
      },
    };
  }

  it('re-lists when the ttl runs out, not before, and announces only a change', async () => {
    const t = listing(60_000);
    await t.runtime.start();
    expect(t.lists()).toBe(1);
    expect(t.live().map((timer) => timer.ms)).toEqual([60_000]);
    const afterStart = t.announced();

    await t.expire();
    await vi.waitFor(() => {
      expect(t.lists()).toBe(2);
      expect(t.live()).toHaveLength(1);
    });
    expect(t.announced()).toBe(afterStart);
    await t.runtime.stop();
    expect(t.live()).toEqual([]);
  });

  it('re-lists at once on list_changed, and announces it', async () => {
    const t = listing(60_000);
    await t.runtime.start();
    const afterStart = t.announced();
    t.server()?.registerTool('write', {}, () => ({ content: [] }));
    await vi.waitFor(() => {
      expect(t.runtime.tools.map((tool) => tool.name)).toEqual(['read', 'write']);
    });
    await vi.waitFor(() => {
      expect(t.announced()).toBe(afterStart + 1);
    });
    await t.runtime.stop();
  });

  it('never re-lists on a timer without a ttl', async () => {
    const t = listing(undefined);
    await t.runtime.start();
    expect(t.lists()).toBe(1);
    expect(t.live()).toEqual([]);
    await t.runtime.stop();
  });
});

describe('listServerTools paging', () => {
  /**
   * A client whose `tools/list` pages come from `next` (the cursor a page was asked with in, the
   * page out). Only the two methods listServerTools uses exist; the cast says so.
   */
  function pagedClient(
    next: (cursor: string | undefined) => { tools: unknown[]; nextCursor?: string },
  ) {
    const asked: Array<string | undefined> = [];
    const client = {
      getServerCapabilities: () => ({ tools: {} }),
      request: (request: { params: { cursor?: string } }) => {
        asked.push(request.params.cursor);
        return Promise.resolve(next(request.params.cursor));
      },
    };
    return { client: client as unknown as Client, asked };
  }
  const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });

  it('stops at a cursor it has seen instead of listing the same page a hundred times', async () => {
    const { client, asked } = pagedClient(() => ({ tools: [tool('a')], nextCursor: 'again' }));
    const listing = await listServerTools(client, 1_000);
    expect(asked).toEqual([undefined, 'again']);
    expect(listing.failure).toBeUndefined();
  });

  it('does not send back a cursor longer than MAX_CURSOR_CHARS, and says why it stopped', async () => {
    const { client, asked } = pagedClient(() => ({
      tools: [tool('a')],
      nextCursor: 'c'.repeat(MAX_CURSOR_CHARS + 1),
    }));
    const listing = await listServerTools(client, 1_000);
    expect(asked).toEqual([undefined]);
    expect(listing.tools.map((t) => t.name)).toEqual(['a']);
    expect(listing.failure).toMatch(/cursor is longer than 4096 characters/);
  });
});
