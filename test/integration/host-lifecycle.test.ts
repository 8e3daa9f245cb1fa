import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GUARDIAN_NAME } from '../../native-host/supervisor/guardian';
import { describe, expect, it } from 'vitest';
import {
  EVERYTHING_SERVER,
  FIXTURE_SERVER,
  HostHarness,
  MEMORY_SERVER,
  isAlive,
  approveAll,
  liveProcesses,
  makeHome,
  processesMatching,
  runCli,
} from './host-harness';

// No process the host started may survive it: Chromium never kills a host's children.
// Survivors are found with `ps`, never with the host's own bookkeeping.

async function waitGone(marker: string): Promise<Array<{ pid: number; args: string }>> {
  for (let i = 0; i < 100; i += 1) {
    const left = processesMatching(marker);
    if (left.length === 0) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
  return processesMatching(marker);
}

/** A server started through `sh -c` whose grandchild ignores SIGTERM, tagged with `marker`. */
function shellWithGrandchild(marker: string) {
  return {
    command: 'sh',
    args: ['-c', `"${process.execPath}" "${FIXTURE_SERVER}" --grandchild ${marker}`],
  };
}

/** The pid of that grandchild, as the server printed it on stderr. */
async function grandchildOf(host: HostHarness, server: string): Promise<number> {
  const logs = await host.call<{ lines: string[] }>('servers/logs', { server });
  return Number(logs.lines.join('\n').match(/grandchild-pid=(\d+)/)?.[1]);
}

describe('host lifecycle', () => {
  it('leaves zero processes behind when the browser closes stdin, even sh -c grandchildren that ignore SIGTERM', async () => {
    // A marker in every command line lets `ps` find exactly this test's processes.
    const marker = `sy-marker-${randomUUID()}`;
    const host = await HostHarness.start({
      everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio', marker] },
      memory: { command: process.execPath, args: [MEMORY_SERVER, marker] },
      shell: shellWithGrandchild(marker),
    });
    const servers = await host.settled();
    expect(servers.every((s) => s.status.state === 'running')).toBe(true);
    const grandchild = await grandchildOf(host, 'shell');
    expect(grandchild).toBeGreaterThan(0);
    expect(isAlive(grandchild)).toBe(true);
    expect(processesMatching(marker).length).toBeGreaterThanOrEqual(3);

    const exit = await host.close();
    expect(exit.code).toBe(0);
    expect(await waitGone(marker)).toEqual([]);
    expect(isAlive(grandchild)).toBe(false);
  });

  it('leaves nothing behind even when it is SIGKILLed and gets no shutdown: its guardian kills the groups', async () => {
    // SIGKILL, the OOM killer or a crash of Node run no shutdown code: only the guardian (a
    // /bin/sh holding a pipe from the host) sees the host go, and kills what it had started.
    const marker = `sy-marker-${randomUUID()}`;
    const host = await HostHarness.start({
      shell: shellWithGrandchild(marker),
    });
    const servers = await host.settled();
    expect(servers.every((s) => s.status.state === 'running')).toBe(true);
    const grandchild = await grandchildOf(host, 'shell');
    expect(isAlive(grandchild)).toBe(true);

    host.child.kill('SIGKILL');
    expect((await host.exited).signal).toBe('SIGKILL');
    // The grandchild ignores SIGTERM and has no stdin: without the guardian it would run on.
    expect(await waitGone(marker)).toEqual([]);
    expect(isAlive(grandchild)).toBe(false);
  });

  it('when the guardian dies with the host, the next host reaps the servers it left, and doctor says so', async () => {
    // `kill -9` of the whole session, or the OOM killer taking the guardian too: nothing of the
    // dead host is left to act, so its pid record is what the next host reaps by.
    const marker = `sy-marker-${randomUUID()}`;
    const first = await HostHarness.start({ shell: shellWithGrandchild(marker) });
    expect((await first.settled()).every((s) => s.status.state === 'running')).toBe(true);
    const grandchild = await grandchildOf(first, 'shell');
    const guardian = liveProcesses().find(
      (p) => p.ppid === first.child.pid && p.args.endsWith(GUARDIAN_NAME),
    );
    expect(guardian).toBeDefined();
    process.kill(guardian?.pid ?? -1, 'SIGKILL');
    first.child.kill('SIGKILL');
    await first.exited;
    // Left running: the grandchild ignores SIGTERM and has no stdin.
    await new Promise((r) => setTimeout(r, 300));
    expect(isAlive(grandchild)).toBe(true);
    expect(readdirSync(join(first.home, 'run')).filter((f) => f.startsWith('host-'))).toEqual([
      `host-${first.child.pid}.json`,
    ]);

    // The next host (a browser opening the side panel) reaps before it starts its own servers.
    const next = new HostHarness(first.home);
    await next.hello();
    for (let i = 0; i < 100 && isAlive(grandchild); i += 1) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(isAlive(grandchild)).toBe(false);
    await next.close();
    expect(readdirSync(join(first.home, 'run')).filter((f) => f.startsWith('host-'))).toEqual([]);

    const doctor = runCli({ ...process.env, SWITCHYARD_HOME: first.home }, 'doctor');
    expect(doctor.out).toContain('Servers left running by a host that died without its shutdown');
    expect(doctor.out).toMatch(
      new RegExp(`shell \\(process group \\d+, left by host ${first.child.pid}`),
    );
    expect(await waitGone(marker)).toEqual([]);
  });

  it('never kills a process that took over a recorded pid', async () => {
    // A record left by a dead host names a pid that now belongs to an unrelated program.
    const marker = `sy-marker-${randomUUID()}`;
    const unrelated = spawn('sh', ['-c', `exec sleep 60 # ${marker}`], {
      detached: true,
      stdio: 'ignore',
    });
    try {
      const home = makeHome({ mcpServers: {} });
      mkdirSync(join(home, 'run'));
      writeFileSync(
        join(home, 'run', 'host-2.json'),
        JSON.stringify({
          version: 1,
          host: { pid: 2, start: 'linux:1' },
          groups: [{ pgid: unrelated.pid, start: 'linux:1', startedAtMs: 0, server: 'old' }],
        }),
      );
      const host = new HostHarness(home);
      await host.hello();
      await host.close();
      expect(isAlive(unrelated.pid ?? -1)).toBe(true);
      expect(readdirSync(join(home, 'run')).filter((f) => f.startsWith('host-'))).toEqual([]);
    } finally {
      unrelated.kill('SIGKILL');
    }
  });

  it('exits cleanly when the browser dies and stderr breaks with stdin', async () => {
    // A browser that crashes closes all three pipes at once; a write to the broken stderr must
    // not turn into an endless uncaught-error loop.
    const marker = `sy-marker-${randomUUID()}`;
    const host = await HostHarness.start({
      a: { command: process.execPath, args: [FIXTURE_SERVER, marker] },
    });
    await host.settled();
    host.child.stderr?.destroy();
    host.child.stdout?.destroy();
    const exit = await host.close();
    expect(exit.code).not.toBeNull();
    expect(await waitGone(marker)).toEqual([]);
  });

  it('kills every server on SIGTERM to the host', async () => {
    const marker = `sy-marker-${randomUUID()}`;
    const host = await HostHarness.start({
      a: { command: process.execPath, args: [FIXTURE_SERVER, '--grandchild', marker] },
      b: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio', marker] },
    });
    await host.settled();
    host.child.kill('SIGTERM');
    await host.exited;
    expect(await waitGone(marker)).toEqual([]);
  });

  it('kills a server that is still in its handshake when the host shuts down', async () => {
    const marker = `sy-marker-${randomUUID()}`;
    const host = await HostHarness.start({
      slow: {
        command: process.execPath,
        args: [FIXTURE_SERVER, '--silent', '--grandchild', marker],
        timeout: 60,
      },
    });
    for (let i = 0; i < 200 && processesMatching(marker).length < 2; i += 1) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(processesMatching(marker).length).toBeGreaterThanOrEqual(2);
    const servers = await host.call<{ servers: Array<{ status: { state: string } }> }>(
      'servers/list',
    );
    expect(servers.servers[0]?.status.state).toBe('starting');
    await host.close();
    expect(await waitGone(marker)).toEqual([]);
  });

  it('refuses a caller that is not a Switchyard extension, before spawning anything', async () => {
    const marker = `sy-marker-${randomUUID()}`;
    const home = makeHome({
      mcpServers: { a: { command: process.execPath, args: [FIXTURE_SERVER, marker] } },
    });
    const host = new HostHarness(home, {
      args: ['chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/'],
    });
    const exit = await host.exited;
    expect(exit.code).toBe(2);
    expect(host.stderr.join('')).toContain('Refusing caller');
    expect(processesMatching(marker)).toEqual([]);
  });

  it('answers a frame that is not JSON with a parse error and keeps serving', async () => {
    const host = await HostHarness.start({});
    try {
      const body = Buffer.from('{not json', 'utf8');
      const header = Buffer.alloc(4);
      header.writeUInt32LE(body.length);
      host.sendRaw(Buffer.concat([header, body]));
      await host.until(
        () => host.notifications.find((n) => n.method === '(orphan reply)'),
        'a parse error reply',
      );
      const list = await host.call<{ servers: unknown[] }>('servers/list');
      expect(list.servers).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it('ends cleanly on a length prefix over the cap, leaving no servers behind', async () => {
    const marker = `sy-marker-${randomUUID()}`;
    const host = await HostHarness.start({
      a: { command: process.execPath, args: [FIXTURE_SERVER, marker] },
    });
    await host.settled();
    const header = Buffer.alloc(4);
    header.writeUInt32LE(0xffffffff);
    host.sendRaw(header);
    const exit = await host.exited;
    expect(exit.code).toBe(1);
    expect(await waitGone(marker)).toEqual([]);
  });

  it('refuses requests before host/hello and a wrong protocol version', async () => {
    const host = new HostHarness(makeHome({ mcpServers: {} }));
    try {
      const early = await host.request('servers/list');
      expect(early.error?.data?.reason).toBe('protocol-mismatch');
      const wrong = await host.request('host/hello', {
        protocolVersion: 999,
        client: { name: 't', version: '0' },
      });
      expect(wrong.error?.data?.reason).toBe('protocol-mismatch');
      expect((await host.hello()).result).toBeDefined();
    } finally {
      await host.close();
    }
  });

  it('rejects a malformed config file whole, naming the file, line and key', async () => {
    const home = makeHome('{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}\n');
    const host = new HostHarness(home);
    try {
      const hello = await host.hello();
      const warnings = (hello.result as { configWarnings: string[] }).configWarnings;
      expect(warnings.join('\n')).toMatch(/config\.json:3:\d+: trailing comma/);
      expect((await host.call<{ servers: unknown[] }>('servers/list')).servers).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it('skips a malformed entry with a warning and starts the others', async () => {
    const home = makeHome({
      mcpServers: {
        bad: { command: 42 },
        remote: { type: 'ws', url: 'wss://example.com/mcp' },
        good: { command: process.execPath, args: [FIXTURE_SERVER] },
      },
    });
    approveAll(home);
    const host = new HostHarness(home);
    try {
      const hello = await host.hello();
      const warnings = (hello.result as { configWarnings: string[] }).configWarnings.join('\n');
      expect(warnings).toContain('bad');
      expect(warnings).toMatch(/remote.*"ws" servers are not supported/s);
      const servers = await host.settled();
      expect(servers.map((s) => [s.name, s.status.state])).toEqual([['good', 'running']]);
    } finally {
      await host.close();
    }
  });
});
