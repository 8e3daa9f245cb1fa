import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ProcessSpawnError,
  ProcessTransport,
  TransportClosedError,
  killProcessGroupNow,
  type ExitInfo,
  type ProcessTransportOptions,
} from './process-transport';
import { RingBuffer } from './ring-buffer';

// Real processes (style habit 9). Timing is never asserted: grace periods are shrunk so the
// SIGKILL path runs quickly, and every wait is for an event, with a generous bound. The margin
// after SIGKILL is large because this container's init does not reap orphans: a killed
// grandchild stays a zombie, so the group never empties and close() runs to its deadline.
const GRACE_MS = 300;
const MARGIN_MS = 3000;
const WAIT_MS = 20_000;
const TEST_TIMEOUT_MS = 60_000;
const NODE = process.execPath;
const SH = '/bin/sh';
const posix = process.platform !== 'win32';

interface Recorded {
  transport: ProcessTransport;
  messages: JSONRPCMessage[];
  noise: string[];
  stderr: string[];
  errors: Error[];
  exits: ExitInfo[];
  closes: number;
}

const launched: Recorded[] = [];
const strayPids: number[] = [];

afterEach(async () => {
  for (const { transport } of launched.splice(0)) {
    await transport.close();
    if (transport.pid !== undefined) killProcessGroupNow(transport.pid);
  }
  for (const pid of strayPids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

function launch(
  options: Omit<Partial<ProcessTransportOptions>, 'args'> & { args: string[] },
): Recorded {
  const noise: string[] = [];
  const stderr: string[] = [];
  const transport = new ProcessTransport({
    command: NODE,
    env: { PATH: process.env.PATH ?? '' },
    killGraceMs: GRACE_MS,
    exitMarginMs: MARGIN_MS,
    onProtocolNoise: (description) => noise.push(description),
    onStderrLine: (line) => stderr.push(line),
    ...options,
  });
  const recorded: Recorded = {
    transport,
    messages: [],
    noise,
    stderr,
    errors: [],
    exits: [],
    closes: 0,
  };
  transport.onmessage = (message) => recorded.messages.push(message);
  transport.onerror = (error) => recorded.errors.push(error);
  transport.onexit = (info) => recorded.exits.push(info);
  transport.onclose = () => {
    recorded.closes++;
  };
  launched.push(recorded);
  return recorded;
}

/** `node -e script` as a server. */
function nodeScript(
  script: string,
  extra: Omit<Partial<ProcessTransportOptions>, 'args'> = {},
): Recorded {
  return launch({ args: ['-e', script], ...extra });
}

async function waitFor(what: string, predicate: () => boolean): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function methodOf(message: JSONRPCMessage): string | undefined {
  return 'method' in message ? message.method : undefined;
}

/** The pid a child reported in a `{"method":"pid","params":{"pid":N}}` notification. */
function reportedPid(messages: JSONRPCMessage[], method: string): number | undefined {
  for (const message of messages) {
    if ('method' in message && message.method === method) {
      const pid = message.params?.pid;
      if (typeof pid === 'number') return pid;
    }
  }
  return undefined;
}

/** Processes in group `pgid` that are not zombies, from `ps` (not from our own bookkeeping). */
function livingGroupMembers(pgid: number): string[] {
  const table = execFileSync('ps', ['-eo', 'pid=,pgid=,stat=,args='], { encoding: 'utf8' });
  return table
    .split('\n')
    .map((row) => row.trim().split(/\s+/))
    .filter(
      ([, group, stat]) => group === String(pgid) && stat !== undefined && !stat.startsWith('Z'),
    )
    .map((fields) => fields.join(' '));
}

function isLiving(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // kill(pid, 0) succeeds on a zombie too; a zombie has exited.
  const stat = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
  return stat !== '' && !stat.startsWith('Z');
}

const READY = `process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'ready', params: { pid: process.pid } }) + '\\n');`;

const ECHO_SERVER = `
const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const m = JSON.parse(line);
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { echoed: m.params } }) + '\\n');
});
rl.on('close', () => process.exit(0));
`;

describe('ProcessTransport with real processes', () => {
  it(
    'relays JSON-RPC both ways, under backpressure, and closes once',
    async () => {
      const r = nodeScript(ECHO_SERVER);
      await r.transport.start();
      expect(r.transport.pid).toBeGreaterThan(1);
      const padding = 'p'.repeat(10_000);
      const count = 500;
      await Promise.all(
        Array.from({ length: count }, (_, id) =>
          r.transport.send({ jsonrpc: '2.0', id, method: 'echo', params: { id, padding } }),
        ),
      );
      await waitFor('all echoes', () => r.messages.length === count);
      expect(r.messages.map((m) => ('id' in m ? m.id : undefined))).toEqual(
        Array.from({ length: count }, (_, id) => id),
      );
      await r.transport.close();
      expect(r.closes).toBe(1);
      expect(r.exits).toHaveLength(1);
      expect(r.transport.exitInfo).toEqual(r.exits[0]);
      await expect(r.transport.send({ jsonrpc: '2.0', method: 'late' })).rejects.toBeInstanceOf(
        TransportClosedError,
      );
      await r.transport.close();
      expect(r.closes).toBe(1);
      expect(r.errors).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'skips garbage and a 20 MB line, and still delivers the next message',
    async () => {
      const r = nodeScript(`
        process.stdout.write('Server starting...\\n');
        process.stdout.write('{"not":"json-rpc"}\\n');
        process.stdout.write('\\n');
        process.stdout.write('x'.repeat(20 * 1024 * 1024) + '\\n');
        process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'after' }) + '\\n');
        process.stdin.resume();
      `);
      await r.transport.start();
      await waitFor('the message after the long line', () =>
        r.messages.some((m) => methodOf(m) === 'after'),
      );
      expect(r.messages.map(methodOf)).toEqual(['after']);
      expect(r.noise).toHaveLength(3);
      expect(r.noise[0]).toMatch(/not JSON/);
      expect(r.noise[1]).toMatch(/not a JSON-RPC 2\.0 message/);
      expect(r.noise[2]).toMatch(/discarded a stdout line of 20971520 bytes/);
      await r.transport.close();
      expect(r.closes).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'SIGKILLs a child that ignores SIGTERM and stdin EOF, after the grace period',
    async () => {
      const r = nodeScript(`
        process.on('SIGTERM', () => {});
        process.stdin.resume();
        setInterval(() => {}, 1000);
        ${READY}
      `);
      await r.transport.start();
      // Only once the handler is installed does the child really ignore SIGTERM.
      await waitFor('ready', () => r.messages.length > 0);
      const pid = r.transport.pid ?? 0;
      await r.transport.close();
      expect(r.transport.exitInfo).toEqual({ code: null, signal: 'SIGKILL' });
      expect(r.closes).toBe(1);
      expect(isLiving(pid)).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  it.runIf(posix)(
    'leaves nothing alive behind sh -c: a grandchild that ignores SIGTERM is SIGKILLed',
    async () => {
      const r = launch({
        command: SH,
        // The grandchild's script travels in the environment: no quoting through the shell.
        args: ['-c', '"$NODE_BIN" -e "$GRANDCHILD" & wait'],
        env: {
          PATH: process.env.PATH ?? '',
          NODE_BIN: NODE,
          GRANDCHILD: `
            process.on('SIGTERM', () => {});
            setInterval(() => {}, 1000);
            process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'grandchild', params: { pid: process.pid } }) + '\\n');
          `,
        },
      });
      await r.transport.start();
      await waitFor(
        'the grandchild pid',
        () => reportedPid(r.messages, 'grandchild') !== undefined,
      );
      const grandchild = reportedPid(r.messages, 'grandchild') ?? 0;
      strayPids.push(grandchild);
      const pgid = r.transport.pid ?? 0;
      expect(grandchild).not.toBe(pgid);
      expect(livingGroupMembers(pgid).length).toBeGreaterThanOrEqual(2);

      await r.transport.close();

      expect(isLiving(grandchild)).toBe(false);
      expect(livingGroupMembers(pgid)).toEqual([]);
      expect(r.transport.exitInfo).toBeDefined();
      expect(r.closes).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );

  it.runIf(posix)(
    'sweeps the group when the main process exits by itself (code 3) and leaves a grandchild',
    async () => {
      const r = launch({
        command: SH,
        args: ['-c', '"$NODE_BIN" -e "$GRANDCHILD" & read line; exit 3'],
        env: {
          PATH: process.env.PATH ?? '',
          NODE_BIN: NODE,
          GRANDCHILD: `
            process.on('SIGTERM', () => {});
            setInterval(() => {}, 1000);
            process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'grandchild', params: { pid: process.pid } }) + '\\n');
          `,
        },
      });
      await r.transport.start();
      await waitFor(
        'the grandchild pid',
        () => reportedPid(r.messages, 'grandchild') !== undefined,
      );
      const grandchild = reportedPid(r.messages, 'grandchild') ?? 0;
      strayPids.push(grandchild);
      const pgid = r.transport.pid ?? 0;

      await r.transport.send({ jsonrpc: '2.0', method: 'exit-now' }); // sh's `read` returns
      await waitFor('onclose', () => r.closes > 0);

      expect(r.exits).toEqual([{ code: 3, signal: null }]);
      expect(isLiving(grandchild)).toBe(false);
      expect(livingGroupMembers(pgid)).toEqual([]);
      await r.transport.close();
      expect(r.closes).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'reports exit code 3, flushes the last stderr line, then closes once',
    async () => {
      const ring = new RingBuffer({ maxLines: 10 });
      const r = nodeScript(
        `process.stderr.write('fatal: bad config\\nlast words'); process.exit(3);`,
        {
          stderr: ring,
        },
      );
      const order: string[] = [];
      r.transport.onexit = (info) => {
        r.exits.push(info);
        order.push('exit');
      };
      r.transport.onclose = () => {
        r.closes++;
        order.push(`close:${ring.lines().join('|')}`);
      };
      await r.transport.start();
      await waitFor('onclose', () => r.closes > 0);
      expect(r.exits).toEqual([{ code: 3, signal: null }]);
      expect(order).toEqual(['exit', 'close:fatal: bad config|last words']);
      expect(r.stderr).toEqual(['fatal: bad config', 'last words']);
      await expect(r.transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow(
        /exited \(exit code 3\)/,
      );
      await r.transport.close();
      expect(r.closes).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'reports a SIGKILL from outside',
    async () => {
      const r = nodeScript(`process.stdin.resume(); ${READY}`);
      await r.transport.start();
      await waitFor('ready', () => r.messages.length > 0);
      process.kill(r.transport.pid ?? 0, 'SIGKILL');
      await waitFor('onclose', () => r.closes > 0);
      expect(r.exits).toEqual([{ code: null, signal: 'SIGKILL' }]);
      expect(r.transport.exitInfo).toEqual({ code: null, signal: 'SIGKILL' });
      await r.transport.close();
      expect(r.closes).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'rejects start with ENOENT for a missing command, and closes once',
    async () => {
      const r = launch({ command: '/nonexistent/switchyard-test-server', args: [] });
      const error: unknown = await r.transport.start().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProcessSpawnError);
      if (!(error instanceof ProcessSpawnError)) return;
      expect(error.code).toBe('ENOENT');
      expect(error.message).toMatch(/does not exist.*config\.json/);
      expect(r.closes).toBe(1);
      expect(r.transport.exitInfo).toBeUndefined();
      await r.transport.close();
      expect(r.closes).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );

  it.runIf(posix)(
    'rejects start with EACCES for a file that is not executable',
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'switchyard-transport-'));
      try {
        const file = path.join(dir, 'server.sh');
        await writeFile(file, '#!/bin/sh\n');
        await chmod(file, 0o644);
        const r = launch({ command: file, args: [] });
        await expect(r.transport.start()).rejects.toMatchObject({ code: 'EACCES' });
        expect(r.closes).toBe(1);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'keeps going when a callback throws',
    async () => {
      const r = nodeScript(`
        for (const n of [1, 2]) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'n' + n }) + '\\n');
        process.stdin.resume();
      `);
      const seen: string[] = [];
      r.transport.onmessage = (message) => {
        seen.push(methodOf(message) ?? '');
        if (seen.length === 1) throw new Error('handler bug');
      };
      await r.transport.start();
      await waitFor('both messages', () => seen.length === 2);
      expect(seen).toEqual(['n1', 'n2']);
      expect(r.errors.map((e) => e.message)).toEqual(['handler bug']);
      await r.transport.close();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'handles close() before start() and during start()',
    async () => {
      const never = nodeScript('');
      await never.transport.close();
      expect(never.closes).toBe(1);
      await expect(never.transport.start()).rejects.toThrow(/already started/);

      const r = nodeScript(
        `process.stdin.resume(); process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);`,
      );
      const started = r.transport.start();
      const closed = r.transport.close();
      await started;
      await closed;
      expect(r.closes).toBe(1);
      expect(r.transport.exitInfo).toBeDefined();
    },
    TEST_TIMEOUT_MS,
  );
});

// The win32 branch, run here with a real child and the platform injected: no group signals,
// stdin EOF first, the tree kill only for a child still alive after the grace period.
describe('ProcessTransport on win32 (injected)', () => {
  it(
    'lets a child that exits on stdin EOF go without taskkill',
    async () => {
      const trees: number[] = [];
      const r = nodeScript(ECHO_SERVER, { platform: 'win32', killTree: (pid) => trees.push(pid) });
      await r.transport.start();
      await r.transport.close();
      expect(r.transport.exitInfo).toEqual({ code: 0, signal: null });
      expect(trees).toEqual([]);
      expect(r.closes).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'kills the tree of a child that ignores stdin EOF, after the grace period',
    async () => {
      const trees: number[] = [];
      const r = nodeScript(`process.stdin.resume(); setInterval(() => {}, 1000); ${READY}`, {
        platform: 'win32',
        killTree: (pid) => trees.push(pid),
      });
      await r.transport.start();
      await waitFor('ready', () => r.messages.length > 0);
      await r.transport.close();
      expect(trees).toEqual([r.transport.pid]);
      expect(r.transport.exitInfo).toEqual({ code: null, signal: 'SIGKILL' });
      expect(r.closes).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('ProcessTransport under the SDK Client', () => {
  it(
    'connects to the reference server, calls echo, and leaves no process behind',
    async () => {
      const server = path.resolve(
        import.meta.dirname,
        '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
      );
      const r = launch({ args: [server, 'stdio'], killGraceMs: 1000 });
      const client = new Client({ name: 'switchyard-test', version: '0.0.0' });
      await client.connect(r.transport);
      const pid = r.transport.pid ?? 0;

      const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
      expect(result.content).toEqual([{ type: 'text', text: 'Echo: hi' }]);

      await client.close();
      expect(r.closes).toBe(1);
      expect(r.transport.exitInfo).toBeDefined();
      expect(isLiving(pid)).toBe(false);
      if (posix) expect(livingGroupMembers(pid)).toEqual([]);
      expect(r.noise).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('killProcessGroupNow', () => {
  it('refuses pids that would signal our own group or every process', () => {
    for (const pid of [0, 1, -5, 1.5, Number.NaN]) {
      expect(() => {
        killProcessGroupNow(pid);
      }).toThrow(RangeError);
    }
  });

  it.runIf(posix)(
    'kills a live group synchronously and ignores a group that is gone',
    async () => {
      const r = nodeScript(`process.on('SIGTERM', () => {}); process.stdin.resume(); ${READY}`);
      await r.transport.start();
      await waitFor('ready', () => r.messages.length > 0);
      killProcessGroupNow(r.transport.pid ?? 0);
      await waitFor('onclose', () => r.closes > 0);
      expect(r.exits).toEqual([{ code: null, signal: 'SIGKILL' }]);
      expect(() => {
        killProcessGroupNow(r.transport.pid ?? 0);
      }).not.toThrow();
    },
    TEST_TIMEOUT_MS,
  );
});
