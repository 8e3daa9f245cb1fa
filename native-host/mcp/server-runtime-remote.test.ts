import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { ServerState } from '../../protocol/servers';
import type { ServerLaunch } from '../shared/server-spec';
import type { ServerProcess } from './runtime-types';
import type { ScheduleFn } from './schedule';
import { ServerRuntime } from './server-runtime';

// A remote server that cannot be reached, or that needs a sign-in, through the real runtime with
// a transport that refuses every request (what remote-launch.ts reports for each). The dangerous
// directions: an outage given up for good (the user must notice and restart it by hand after a
// VPN blip), or a sign-in retried in a loop that can never succeed without the user.

const LAUNCH: ServerLaunch = {
  name: 'linear',
  executable: 'https://mcp.linear.app/mcp',
  notFound: null,
  notFoundReason: 'command-not-found',
  command: '',
  args: [],
  env: {},
  cwd: undefined,
  handshakeTimeoutMs: 5_000,
  toolTimeoutMs: 5_000,
  remote: { transport: 'streamable-http', url: 'https://mcp.linear.app/mcp', headers: {} },
};

/** A transport whose every send fails with `error`, as an unreachable or 401-ing server's does. */
class RefusingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  constructor(private readonly error: Error) {}
  start(): Promise<void> {
    return Promise.resolve();
  }
  send(): Promise<void> {
    return Promise.reject(this.error);
  }
  close(): Promise<void> {
    this.onclose?.();
    return Promise.resolve();
  }
}

function remoteProcess(failure: { lost?: string; signIn?: string }): ServerProcess {
  return {
    transport: new RefusingTransport(new TypeError('fetch failed')),
    pid: undefined,
    exitInfo: undefined,
    stderrTail: () => [],
    stderrDropped: 0,
    remote: {
      url: LAUNCH.remote?.url ?? '',
      origin: 'https://mcp.linear.app',
      transport: () => 'streamable-http',
      lastProblem: () => failure.lost,
      signInRequired: () => failure.signIn,
    },
  };
}

/** A runtime whose restarts wait for `fire()`, with every state it went through. */
function runtime(failure: { lost?: string; signIn?: string }) {
  const timers: Array<{ run: () => void; ms: number }> = [];
  const schedule: ScheduleFn = (run, ms) => {
    timers.push({ run, ms });
    return () => undefined;
  };
  const states: ServerState[] = [];
  let launches = 0;
  const server = new ServerRuntime({
    launch: LAUNCH,
    spawnServer: () => {
      launches += 1;
      return Promise.resolve(remoteProcess(failure));
    },
    clientInfo: { name: 'switchyard-test', version: '0' },
    schedule,
    events: {
      onStateChange: (r) => states.push(r.state),
      onToolsChanged: () => undefined,
      onLog: () => undefined,
    },
  });
  /** Runs the restart the runtime scheduled last, and waits for it to settle. */
  const fire = async (): Promise<number> => {
    const timer = timers.pop();
    if (timer === undefined) throw new Error('no restart scheduled');
    timer.run();
    for (let i = 0; i < 50 && server.state.state === 'starting'; i += 1) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    return timer.ms;
  };
  return { server, states, fire, launches: () => launches };
}

describe('a remote server out of reach', () => {
  it('is retried once a minute past the restart limit, never given up', async () => {
    const r = runtime({ lost: 'connection refused (ECONNREFUSED)' });
    await r.server.start();
    // Out of reach at the very first start (the browser opened offline): retried, not failed.
    expect(r.server.state).toMatchObject({ state: 'crashed', restarts: 1, retryInMs: 1_000 });
    const delays: number[] = [];
    for (let i = 0; i < 8; i += 1) delays.push(await r.fire());
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 60_000, 60_000, 60_000]);
    expect(r.server.state).toMatchObject({ state: 'crashed', retryInMs: 60_000 });
    expect(r.states.some((s) => s.state === 'failed')).toBe(false);
    expect(r.launches()).toBe(9);
  });

  it('a reachable server that refuses the handshake fails at once, as a local one does', async () => {
    const r = runtime({});
    await r.server.start();
    expect(r.server.state).toMatchObject({ state: 'failed', reason: 'handshake-failed' });
  });
});

describe('a remote server that needs sign-in', () => {
  it('fails as auth-required at once, and is not restarted', async () => {
    const r = runtime({ signIn: "'linear' needs sign-in: sign in with 'switchyard auth linear'" });
    await r.server.start();
    expect(r.server.state).toEqual({
      state: 'failed',
      reason: 'auth-required',
      message: "'linear' needs sign-in: sign in with 'switchyard auth linear'",
    });
    expect(r.launches()).toBe(1);
  });
});
