import { afterEach, describe, expect, test, vi } from 'vitest';
import type { HostNotificationParams } from '../../protocol/methods';
import type { ServerState, ServerSummary } from '../../protocol/servers';
import type { ConnectionState } from '../messaging/connection';
import { waitForStartingServers, type ReadinessHost } from './server-readiness';
import { serverSummary } from '../testing/server-summary';

const CONNECTED: ConnectionState = {
  state: 'connected',
  hostVersion: '0.1.0',
  home: '/h',
  configWarnings: [],
  runtime: null,
};

const RUNNING: ServerState = {
  state: 'running',
  pid: 1,
  handshakeMs: 5,
  protocolVersion: '2025-06-18',
  serverInfo: { name: 'x', version: '1' },
};

type Listener = (params: HostNotificationParams<'notifications/servers/changed'>) => void;

function fakeHost(servers: ServerSummary[]) {
  const listeners = new Set<Listener>();
  const requests: string[] = [];
  const host: ReadinessHost & {
    emit(server: ServerSummary): void;
    listeners: Set<Listener>;
    requests: string[];
  } = {
    state: CONNECTED,
    listeners,
    requests,
    request: (method) => {
      requests.push(method);
      return Promise.resolve({ servers });
    },
    on: (_method, handler) => {
      listeners.add(handler);
      return () => listeners.delete(handler);
    },
    emit: (server) => {
      for (const listener of [...listeners]) listener({ server });
    },
  };
  return host;
}

describe('waitForStartingServers', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test('returns at once when nothing is starting, and leaves no listener behind', async () => {
    const host = fakeHost([serverSummary('a', RUNNING), serverSummary('b', { state: 'stopped' })]);
    vi.useFakeTimers();
    let done = false;
    const waiting = waitForStartingServers(host, 60_000).then(() => {
      done = true;
    });
    // No time passes and no server reports: it is done once the listing is in.
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
    await waiting;
    expect(host.requests).toEqual(['servers/list']);
    expect(host.listeners.size).toBe(0);
  });

  test('waits until every starting server has finished, however it ended', async () => {
    const host = fakeHost([
      serverSummary('a', { state: 'starting', attempt: 0 }),
      serverSummary('b', { state: 'starting', attempt: 0 }),
    ]);
    let done = false;
    const waiting = waitForStartingServers(host, 60_000).then(() => {
      done = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    host.emit(serverSummary('a', RUNNING));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(done).toBe(false);
    host.emit(
      serverSummary('b', { state: 'failed', reason: 'handshake-timeout', message: 'too slow' }),
    );
    await waiting;
    expect(done).toBe(true);
    expect(host.listeners.size).toBe(0);
  });

  test('gives up after the timeout and lets the run go on', async () => {
    const host = fakeHost([serverSummary('slow', { state: 'starting', attempt: 0 })]);
    vi.useFakeTimers();
    let done = false;
    const waiting = waitForStartingServers(host, 5).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(4);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    await waiting;
    expect(host.listeners.size).toBe(0);
  });

  test('does nothing when there is no host to ask', async () => {
    const host = {
      ...fakeHost([serverSummary('a', { state: 'starting', attempt: 0 })]),
      state: { state: 'not-installed', message: 'missing' } as const,
    };
    vi.useFakeTimers();
    let done = false;
    const waiting = waitForStartingServers(host, 60_000).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
    expect(host.requests).toEqual([]);
    expect(host.listeners.size).toBe(0);
    await waiting;
  });

  test('while the handshake is under way, it asks (the request waits for it) and waits', async () => {
    const host = {
      ...fakeHost([serverSummary('a', { state: 'starting', attempt: 0 })]),
      state: { state: 'connecting', attempt: 1 } as const,
    };
    let done = false;
    const waiting = waitForStartingServers(host, 60_000).then(() => {
      done = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(host.requests).toEqual(['servers/list']);
    expect(done).toBe(false);
    host.emit(serverSummary('a', RUNNING));
    await waiting;
    expect(done).toBe(true);
    expect(host.listeners.size).toBe(0);
  });
});
