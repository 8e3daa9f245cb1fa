import { Client, InMemoryTransport, type ProtocolEra } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { inMemoryLauncher, type InMemoryLauncherOptions } from '../testing/in-memory-launcher';
import type { ServerLaunch } from '../shared/server-spec';
import type { LaunchFn } from './runtime-types';
import { ServerRuntime } from './server-runtime';

// Revision negotiation (decision 0016) through the real runtime, SDK client and SDK servers. The
// dangerous direction is an outage: a server that speaks only 2025-11-25, or one that dies on the
// probe, or one that ignores it, must still start. Then cost: a server known to be legacy is not
// probed again, and a 2026-07-28 server is spoken to in 2026-07-28.

const LAUNCH: ServerLaunch = {
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

interface Probe {
  /** Methods the client sent, per launch. */
  readonly sent: string[][];
  readonly settled: ProtocolEra[];
  readonly runtime: ServerRuntime;
}

/**
 * A runtime over in-memory servers. `fate` decides what the server of each launch (by index) does
 * with each message: answer it, ignore it, or exit on it.
 */
function probe(
  options: InMemoryLauncherOptions & {
    readonly knownLegacy?: boolean;
    readonly fate?: (launch: number, method: string) => 'answer' | 'ignore' | 'exit';
    readonly launch?: Partial<ServerLaunch>;
  } = {},
): Probe {
  const sent: string[][] = [];
  const settled: ProtocolEra[] = [];
  const base = inMemoryLauncher({
    tools: () => [{ name: 'read' }],
    ...options,
  });
  const spawnServer: LaunchFn = async (launch) => {
    const index = sent.length;
    const methods: string[] = [];
    sent.push(methods);
    const process = await base.spawnServer(launch);
    const transport = process.transport;
    const send = transport.send.bind(transport);
    transport.send = async (message, sendOptions) => {
      const method = 'method' in message ? message.method : 'response';
      methods.push(method);
      const fate = options.fate?.(index, method) ?? 'answer';
      if (fate === 'ignore') return;
      if (fate === 'exit') {
        // The server read the probe and exited: its pipe closes.
        void transport.close();
        return;
      }
      await send(message, sendOptions);
    };
    return process;
  };
  const runtime = new ServerRuntime({
    launch: { ...LAUNCH, ...options.launch },
    spawnServer,
    clientInfo: { name: 'switchyard-test', version: '0' },
    negotiation: {
      knownLegacy: () => options.knownLegacy === true,
      settled: (era) => settled.push(era),
    },
    events: {
      onStateChange: () => undefined,
      onToolsChanged: () => undefined,
      onLog: () => undefined,
    },
  });
  return { sent, settled, runtime };
}

function versionOf(runtime: ServerRuntime): string | undefined {
  const state = runtime.state;
  return state.state === 'running' ? state.protocolVersion : state.state;
}

describe('revision negotiation', () => {
  it('probes a 2025-era server, falls back to initialize, and reports it as legacy', async () => {
    const { runtime, sent, settled } = probe();
    await runtime.start();
    expect(versionOf(runtime)).toBe('2025-11-25');
    expect(sent).toEqual([
      ['server/discover', 'initialize', 'notifications/initialized', 'tools/list'],
    ]);
    expect(settled).toEqual(['legacy']);
    expect(runtime.tools.map((t) => t.name)).toEqual(['read']);
    await runtime.stop();
  });

  it('goes straight to initialize with a server known to be legacy, and learns nothing new', async () => {
    const { runtime, sent, settled } = probe({ knownLegacy: true });
    await runtime.start();
    expect(versionOf(runtime)).toBe('2025-11-25');
    expect(sent[0]?.[0]).toBe('initialize');
    expect(sent.flat()).not.toContain('server/discover');
    expect(settled).toEqual([]);
    await runtime.stop();
  });

  it('speaks 2026-07-28 with a server that offers it', async () => {
    const { runtime, sent, settled } = probe({ revisions: '2026' });
    await runtime.start();
    expect(versionOf(runtime)).toBe('2026-07-28');
    expect(sent[0]).not.toContain('initialize');
    expect(settled).toEqual(['modern']);
    expect(runtime.tools.map((t) => t.name)).toEqual(['read']);
    const result = await runtime.callTool('read', {});
    expect(result).toEqual({ content: [] });
    await runtime.stop();
  });

  it('starts a server that exits on the probe once more, without the probe', async () => {
    const { runtime, sent, settled } = probe({
      fate: (launch, method) => (launch === 0 && method === 'server/discover' ? 'exit' : 'answer'),
    });
    await runtime.start();
    expect(versionOf(runtime)).toBe('2025-11-25');
    expect(sent.map((methods) => methods[0])).toEqual(['server/discover', 'initialize']);
    expect(settled).toEqual(['legacy']);
    await runtime.stop();
  });

  it('fails a server that dies on the probe and then on initialize, after one more start', async () => {
    const { runtime, sent, settled } = probe({
      fate: (_launch, method) =>
        method === 'server/discover' || method === 'initialize' ? 'exit' : 'answer',
    });
    await runtime.start();
    expect(sent).toEqual([['server/discover'], ['initialize']]);
    expect(runtime.state).toMatchObject({ state: 'failed', reason: 'handshake-failed' });
    expect(settled).toEqual([]);
  });

  it('falls back to initialize when a server ignores the probe', async () => {
    const { runtime, sent, settled } = probe({
      fate: (_launch, method) => (method === 'server/discover' ? 'ignore' : 'answer'),
      launch: { handshakeTimeoutMs: 400 },
    });
    await runtime.start();
    expect(versionOf(runtime)).toBe('2025-11-25');
    expect(sent).toHaveLength(1);
    expect(settled).toEqual(['legacy']);
    await runtime.stop();
  });

  it('times a silent server out as a handshake timeout, probe included', async () => {
    const { runtime, sent } = probe({
      fate: () => 'ignore',
      launch: { handshakeTimeoutMs: 200 },
    });
    await runtime.start();
    expect(runtime.state).toMatchObject({ state: 'failed', reason: 'handshake-timeout' });
    expect(sent).toHaveLength(1);
  });
});

describe('roots on a 2026-07-28 connection', () => {
  it('does not announce changed roots, which that revision asks for per request', async () => {
    const sent: string[] = [];
    const logs: string[] = [];
    const launcher = inMemoryLauncher({
      revisions: '2026',
      onClientMessage: (_launch, method) => sent.push(method),
    });
    const runtime = new ServerRuntime({
      launch: LAUNCH,
      spawnServer: launcher.spawnServer,
      clientInfo: { name: 'switchyard-test', version: '0' },
      roots: () => [{ uri: 'file:///work' }],
      events: {
        onStateChange: () => undefined,
        onToolsChanged: () => undefined,
        onLog: (_level, message) => logs.push(message),
      },
    });
    await runtime.start();
    runtime.rootsChanged();
    await runtime.stop();
    expect(sent).not.toContain('notifications/roots/list_changed');
    expect(logs).toEqual([]);
  });
});

describe('the stdio shape (why ServerProcess.transport has pid and stderr)', () => {
  async function connectIgnoringProbe(stdioShaped: boolean): Promise<string> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await new McpServer({ name: 's', version: '1' }).connect(serverSide);
    const send = clientSide.send.bind(clientSide);
    clientSide.send = async (message, options) => {
      if ('method' in message && message.method === 'server/discover') return;
      await send(message, options);
    };
    const client = new Client(
      { name: 't', version: '0' },
      { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 50 } } },
    );
    const transport = stdioShaped
      ? Object.assign(clientSide, { pid: 1, stderr: undefined })
      : clientSide;
    try {
      await client.connect(transport);
      return client.getNegotiatedProtocolVersion() ?? 'none';
    } catch {
      return 'failed';
    } finally {
      await client.close();
    }
  }

  it('an unanswered probe is a legacy server on stdio, and an outage otherwise', async () => {
    expect(await connectIgnoringProbe(true)).toBe('2025-11-25');
    expect(await connectIgnoringProbe(false)).toBe('failed');
  });
});
