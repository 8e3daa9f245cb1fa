import { describe, expect, it, vi } from 'vitest';
import { inMemoryLauncher, type InMemoryLauncher } from '../testing/in-memory-launcher';
import type { ServerLaunch } from '../shared/server-spec';
import { ServerRuntime } from './server-runtime';

// Starts that overlap (the host's own start-up, a restart from the popup, another client's
// start): at the edges real processes cannot reach on demand, an in-memory MCP server behind the
// process seam whose spawns complete only when the test says so. The dangerous direction is a
// restart that answers early or leaves the server stopped while the user asked for it to run.

const LAUNCH: ServerLaunch = {
  name: 'fake',
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

/** In-memory servers with one tool; each spawn completes when `release()` is called, in order. */
function heldSpawns(): InMemoryLauncher {
  return inMemoryLauncher({
    hold: true,
    tools: () => [{ name: 'noop', description: 'Does nothing.' }],
  });
}

function runtimeWith(spawns: InMemoryLauncher): ServerRuntime {
  return new ServerRuntime({
    launch: LAUNCH,
    spawnServer: spawns.spawnServer,
    clientInfo: { name: 'switchyard-test', version: '0' },
    events: {
      onStateChange: () => undefined,
      onToolsChanged: () => undefined,
      onLog: () => undefined,
    },
  });
}

describe('overlapping starts', () => {
  it('a start during another waits for it instead of answering "starting"', async () => {
    const spawns = heldSpawns();
    const runtime = runtimeWith(spawns);
    const first = runtime.start();
    let secondDone = false;
    const second = runtime.start().then(() => {
      secondDone = true;
    });
    await vi.waitFor(() => {
      expect(spawns.waiting).toBe(1);
    });

    expect(secondDone).toBe(false);
    spawns.release();
    await Promise.all([first, second]);

    expect(runtime.state.state).toBe('running');
    expect(spawns.launched.length).toBe(1);
  });

  it('a restart whose stop overtook a start in progress starts afresh, never ends stopped', async () => {
    const spawns = heldSpawns();
    const runtime = runtimeWith(spawns);
    const first = runtime.start();
    await vi.waitFor(() => {
      expect(spawns.waiting).toBe(1);
    });

    await runtime.stop();
    const second = runtime.start();
    spawns.release(); // the overtaken spawn completes, and is closed at once
    await first;
    await vi.waitFor(() => {
      expect(spawns.waiting).toBe(1);
    });
    spawns.release();
    await second;

    expect(runtime.state.state).toBe('running');
    expect(spawns.launched.length).toBe(2);
    await runtime.stop();
  });

  it('a stop after a waiting start wins: nothing starts again', async () => {
    const spawns = heldSpawns();
    const runtime = runtimeWith(spawns);
    const first = runtime.start();
    const second = runtime.start();
    await vi.waitFor(() => {
      expect(spawns.waiting).toBe(1);
    });

    await runtime.stop();
    spawns.release();
    await Promise.all([first, second]);

    expect(runtime.state.state).toBe('stopped');
    expect(spawns.waiting).toBe(0);
    expect(spawns.launched.length).toBe(1);
  });
});

describe('tools changed', () => {
  it('is reported when a running server stops, and not for a stop of one that listed nothing', async () => {
    const spawns = inMemoryLauncher({
      tools: () => [{ name: 'noop', description: 'Does nothing.' }],
    });
    const reported: string[] = [];
    const runtime = new ServerRuntime({
      launch: LAUNCH,
      spawnServer: spawns.spawnServer,
      clientInfo: { name: 'switchyard-test', version: '0' },
      events: {
        onStateChange: () => undefined,
        onToolsChanged: (r) => reported.push(r.state.state),
        onLog: () => undefined,
      },
    });
    await runtime.start();
    expect(reported).toEqual(['running']);
    await runtime.stop();
    expect(reported).toEqual(['running', 'stopped']);
    await runtime.stop();
    expect(reported).toEqual(['running', 'stopped']);
  });
});
