import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FUZZ_SEED } from '../support/fuzz';
import {
  FIXTURE_SERVER,
  HostHarness,
  ROOT,
  processesMatching,
  rssKiB,
  unwrap,
  type Notification,
} from './host-harness';

// Seeded fuzzing of what an MCP server writes on stdout (issue 13). The host spawns
// test/fixtures/hostile-server.mjs as a configured, trusted server; its `flood` tool writes
// 10,000 seeded hostile messages (lines that are not JSON or not UTF-8, a line over the 16 MiB
// cap, responses to requests never sent, notifications with bad params, requests of its own,
// deep nesting, batches). The dangerous direction is a server that takes more than itself down:
// the host crashing or stalling, another server or `host/hello` no longer answering, memory that
// grows with the garbage. Reproduce with the FUZZ_SEED a failure names; FUZZ_CASE=<i> floods only
// message i.

const HOSTILE_SERVER = join(ROOT, 'test/fixtures/hostile-server.mjs');
const MESSAGES = 10_000;
/** Generous: the host idles around 60-90 MiB; one 17 MiB line is counted, never buffered. */
const RSS_LIMIT_KIB = 400 * 1024;
const STACK_TRACE = /^\s+at .+:\d+:\d+\)?$/m;

interface Summary {
  name: string;
  status: { state: string; pid?: number; restarts?: number };
}

function floodArgs(marker: string, count: number): string[] {
  const only = process.env['FUZZ_CASE'];
  return [
    HOSTILE_SERVER,
    '--seed',
    String(FUZZ_SEED),
    '--count',
    String(count),
    ...(only === undefined || only === '' ? [] : ['--only', only]),
    marker,
  ];
}

async function startHost(marker: string, count: number): Promise<HostHarness> {
  const host = await HostHarness.start(
    {
      hostile: { command: process.execPath, args: floodArgs(marker, count), toolTimeout: 50 },
      good: { command: process.execPath, args: [FIXTURE_SERVER, marker] },
    },
    { toolPolicy: { 'hostile__*': 'allow', good__ok: 'allow' } },
  );
  const servers = (await host.settled()) as Summary[];
  expect(servers.map((s) => [s.name, s.status.state])).toEqual([
    ['hostile', 'running'],
    ['good', 'running'],
  ]);
  return host;
}

function summaryOf(host: HostHarness, name: string): Promise<Summary> {
  return host
    .call<{ servers: Summary[] }>('servers/list')
    .then(
      ({ servers }) => servers.find((s) => s.name === name) ?? { name, status: { state: '?' } },
    );
}

async function textOf(host: HostHarness, tool: string): Promise<string> {
  const result = await host.call<{ content: Array<{ text?: string }> }>('tools/call', {
    name: tool,
    arguments: {},
  });
  return unwrap(result.content[0]?.text ?? '');
}

/** The host answers `host/hello` and the well-behaved server's tool, again and again. */
async function keepAsking(host: HostHarness, until: () => boolean): Promise<number> {
  let rounds = 0;
  do {
    expect((await host.hello()).result, `host/hello, round ${rounds}`).toBeDefined();
    expect(await textOf(host, 'good__ok'), `good__ok, round ${rounds}`).toBe('ok');
    rounds += 1;
  } while (!until() && rounds < 1_000);
  return rounds;
}

async function closeCleanly(host: HostHarness, marker: string): Promise<void> {
  const exit = await host.close();
  const stderr = host.stderr.join('');
  expect(exit, stderr.slice(-2_000)).toEqual({ code: 0, signal: null });
  expect(stderr).not.toMatch(/fatal/);
  expect(stderr).not.toMatch(STACK_TRACE);
  expect(processesMatching(marker)).toEqual([]);
}

const toolsChanged = (n: Notification, server: string): boolean =>
  n.method === 'notifications/tools/changed' && n.params['server'] === server;

/** Waits, one `tools/changed` at a time, until the host lists `tool` (at most 50 listings). */
async function untilListed(host: HostHarness, tool: string): Promise<void> {
  const server = tool.split('__')[0] ?? '';
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const seen = host.notifications.length;
    const { tools } = await host.call<{ tools: Array<{ name: string }> }>('tools/list');
    if (tools.some((t) => t.name === tool)) return;
    await host.until(
      () => host.notifications.slice(seen).some((n) => toolsChanged(n, server)),
      `tools/changed for ${server}`,
    );
  }
  throw new Error(`${tool} was never listed again`);
}

describe(`a hostile MCP server on stdout (FUZZ_SEED=${FUZZ_SEED}, ${MESSAGES} messages)`, () => {
  it('costs that server nothing but noise: the host, host/hello and the other server keep answering', async () => {
    const marker = `sy-fuzz-${randomUUID()}`;
    const host = await startHost(marker, MESSAGES);
    try {
      const before = await summaryOf(host, 'hostile');
      const rssBefore = rssKiB(host.child.pid ?? 0);
      let flooded = false;
      const flood = host.request('tools/call', { name: 'hostile__flood', arguments: {} });
      void flood.finally(() => {
        flooded = true;
      });
      // While the host reads the flood, everything else it serves still answers.
      await keepAsking(host, () => flooded);
      const reply = await flood;
      expect(reply.error, JSON.stringify(reply.error)).toBeUndefined();

      // Garbage never ends the connection (design D1): the same process still serves, and lists
      // its tools again when it says they changed (the flood may have spoiled a listing).
      await untilListed(host, 'hostile__ok');
      expect(await textOf(host, 'hostile__ok')).toBe('ok');
      const after = await summaryOf(host, 'hostile');
      expect(after.status).toMatchObject({ state: 'running', pid: before.status.pid });
      await keepAsking(host, () => true);

      // What reached the browser is the protocol's: logs are capped text, and a hostile message
      // costs at most one (no amplification of the noise towards the extension).
      const logs = host.notifications.filter((n) => n.method === 'notifications/log');
      expect(logs.length).toBeLessThanOrEqual(MESSAGES);
      for (const n of host.notifications) {
        if (n.method === '(orphan reply)') throw new Error(`orphan reply: ${JSON.stringify(n)}`);
        if (n.method !== 'notifications/log') continue;
        expect(typeof n.params['message']).toBe('string');
        expect(String(n.params['message']).length).toBeLessThanOrEqual(8_000);
      }
      const rss = rssKiB(host.child.pid ?? 0);
      expect(rss, `RSS ${rss} KiB after the flood, ${rssBefore} KiB before`).toBeLessThan(
        RSS_LIMIT_KIB,
      );
    } finally {
      await closeCleanly(host, marker);
    }
  });

  it('restarts it per the supervisor policy when it exits after a flood', async () => {
    const marker = `sy-fuzz-${randomUUID()}`;
    const host = await startHost(marker, 2_000);
    try {
      const before = await summaryOf(host, 'hostile');
      const seen = host.notifications.length;
      const reply = await host.request('tools/call', {
        name: 'hostile__flood-exit',
        arguments: {},
      });
      expect(reply.error?.data?.reason, JSON.stringify(reply.error)).toBe('server-exited');
      expect(reply.error?.message).toContain('exit code 9');
      // Crashed, then back after the first backoff (1 s) as a new process.
      const changes = (): Summary[] =>
        host.notifications
          .slice(seen)
          .filter((n) => n.method === 'notifications/servers/changed')
          .map((n) => n.params['server'] as Summary)
          .filter((s) => s.name === 'hostile');
      await host.until(
        () => changes().some((s) => s.status.state === 'crashed'),
        'the hostile server reported crashed',
      );
      await host.until(
        () =>
          changes().some((s) => s.status.state === 'running' && s.status.pid !== before.status.pid),
        'the hostile server running again',
      );
      await untilListed(host, 'hostile__ok');
      expect(await textOf(host, 'hostile__ok')).toBe('ok');
      await keepAsking(host, () => true);
    } finally {
      await closeCleanly(host, marker);
    }
  });
});
