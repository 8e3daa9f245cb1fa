import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorReasonSchema } from '../../protocol/errors';
import { MAX_HOST_TO_BROWSER_FRAME_BYTES } from '../../protocol/limits';
import {
  EVERYTHING_SERVER,
  FILESYSTEM_SERVER,
  HostHarness,
  MEMORY_SERVER,
  processesMatching,
  unwrap,
  type JsonRpcReply,
  type ServerEntryInput,
} from './host-harness';

// Issue 13: eight real servers, a thousand tools/call in flight at once, and one server SIGKILLed
// in the middle. Every call answers once (a result or a typed error), every frame fits the
// browser's limit, the host stays up, the killed server comes back, and nothing outlives the host.

const CALLS = 1_000;
/** Replies in before the victim is killed: the kill lands with most calls still in flight. */
const REPLIES_BEFORE_KILL = 250;

interface LoadServer {
  readonly name: string;
  readonly entry: (marker: string) => ServerEntryInput;
  /** The tool each call to this server makes, and what its answer must contain. */
  readonly call: (i: number) => { tool: string; arguments: Record<string, unknown> };
  readonly expect: (i: number, marker: string) => string;
}

const everything = (name: string, call: LoadServer['call'], expectText: LoadServer['expect']) => ({
  name,
  entry: (marker: string) => ({
    command: process.execPath,
    args: [EVERYTHING_SERVER, 'stdio', marker],
  }),
  call,
  expect: expectText,
});

const echo = (i: number) => ({ tool: 'echo', arguments: { message: `call ${i}` } });
/** Long enough that only the kill ends it; progress every half second shows it is running. */
const endless = () => ({
  tool: 'trigger-long-running-operation',
  arguments: { duration: 60, steps: 120 },
});
/** Still running when the victim is killed, done a few seconds later. */
const lasting = () => ({
  tool: 'trigger-long-running-operation',
  arguments: { duration: 4, steps: 4 },
});

const SERVERS: readonly LoadServer[] = [
  everything('everything1', echo, (i) => `call ${i}`),
  everything('everything2', echo, (i) => `call ${i}`),
  everything('lasting', lasting, () => 'Long running operation completed'),
  // Killed while every one of its calls runs: none may succeed, each must fail typed.
  everything('victim', endless, () => 'Long running operation completed'),
  ...['files1', 'files2'].map((name): LoadServer => ({
    name,
    // The allowed folder carries the marker, so `ps` finds the server by its command line.
    entry: (marker) => ({
      command: process.execPath,
      args: [FILESYSTEM_SERVER, mkdtempSync(join(tmpdir(), `${marker}-`))],
    }),
    call: () => ({ tool: 'list_allowed_directories', arguments: {} }),
    expect: (_i, marker) => marker,
  })),
  ...['memory1', 'memory2'].map((name): LoadServer => ({
    name,
    entry: (marker) => ({
      command: process.execPath,
      args: [MEMORY_SERVER, marker],
      env: {
        MEMORY_FILE_PATH: join(mkdtempSync(join(tmpdir(), 'switchyard-mem-')), 'memory.jsonl'),
      },
    }),
    call: () => ({ tool: 'read_graph', arguments: {} }),
    expect: () => 'entities',
  })),
];

/** Read-only tools the user allow-listed: no call waits for an approval card. */
const TOOL_POLICY = {
  '*__echo': 'allow',
  '*__list_allowed_directories': 'allow',
  '*__read_graph': 'allow',
  '*__trigger-long-running-operation': 'allow',
};

interface CallResult {
  content: Array<{ type: string; text?: string }>;
  isError?: boolean;
}

interface ServerStatus {
  name: string;
  status: { state: string; pid?: number };
}

const resultText = (reply: JsonRpcReply): string =>
  (reply.result as CallResult).content.map((c) => unwrap(c.text ?? '')).join('\n');

async function waitGone(marker: string): Promise<Array<{ pid: number; args: string }>> {
  for (let i = 0; i < 100; i += 1) {
    const left = processesMatching(marker);
    if (left.length === 0) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
  return processesMatching(marker);
}

describe('the host under load', () => {
  it('answers 1,000 calls in flight across 8 servers exactly once while one is SIGKILLed', async () => {
    const run = `sy-load-${randomUUID()}`;
    const markerOf = (server: string) => `${run}-${server}`;
    const host = await HostHarness.start(
      Object.fromEntries(SERVERS.map((s) => [s.name, s.entry(markerOf(s.name))])),
      { toolPolicy: TOOL_POLICY },
    );
    host.autoApprove = false;
    try {
      const servers = await host.settled();
      expect(servers.map((s) => [s.name, s.status.state])).toEqual(
        SERVERS.map((s) => [s.name, 'running']),
      );
      const victimProcesses = processesMatching(markerOf('victim'));
      expect(victimProcesses).toHaveLength(1);
      const victimPid = victimProcesses[0]!.pid;

      // Every frame written before the first await: all 1,000 are in flight at once.
      const sent = Array.from({ length: CALLS }, (_, i) => {
        const server = SERVERS[i % SERVERS.length]!;
        const { tool, arguments: args } = server.call(i);
        const id = `load-${i}`;
        const reply = host.request(
          'tools/call',
          { name: `${server.name}__${tool}`, arguments: args },
          id,
        );
        // Awaited below; if the host dies first, that failure is the one to report, once.
        reply.catch(() => undefined);
        return { i, id, server, reply };
      });
      const answered = () => sent.filter((c) => host.replyCounts.has(c.id)).length;
      const victimIds = new Set(sent.filter((c) => c.server.name === 'victim').map((c) => c.id));

      // Kill once the victim is working on its calls and a quarter of all calls have answered.
      await host.until(
        () =>
          answered() >= REPLIES_BEFORE_KILL &&
          host.notifications.some(
            (n) =>
              n.method === 'notifications/progress' && victimIds.has(String(n.params.requestId)),
          ),
        'the victim at work and a quarter of the calls answered',
      );
      const answeredAtKill = answered();
      process.kill(victimPid, 'SIGKILL');
      // Its calls run until killed: each must be failed by the kill, none left waiting. (A call
      // held up in the host until the restart would run on the new process for a minute.)
      await host.until(
        () => [...victimIds].every((id) => host.replyCounts.has(id)),
        "every call of the victim's answered after the kill",
        10_000,
      );

      const replies = await Promise.all(sent.map((c) => c.reply));
      // The kill landed in the middle: calls of other servers were still in flight.
      expect(answeredAtKill).toBeLessThan(CALLS - victimIds.size);
      expect(host.child.exitCode).toBeNull();

      // Every id answered exactly once, and nothing the extension did not ask about.
      for (const call of sent) expect(host.replyCounts.get(call.id)).toBe(1);
      expect(host.notifications.filter((n) => n.method.startsWith('('))).toEqual([]);
      // Every frame the host wrote fits the browser's limit (checked on the length prefix).
      expect(host.frameLengths.length).toBeGreaterThan(CALLS);
      expect(Math.max(...host.frameLengths)).toBeLessThanOrEqual(MAX_HOST_TO_BROWSER_FRAME_BYTES);

      sent.forEach(({ i, server }, k) => {
        const reply = replies[k]!;
        if (reply.error) {
          // A clean, typed error: a reason from the closed set, and only for the victim's calls.
          expect(typeof reply.error.code).toBe('number');
          expect(ErrorReasonSchema.safeParse(reply.error.data?.reason).success).toBe(true);
          expect([server.name, reply.error.data?.reason]).toEqual(['victim', 'server-exited']);
          expect(reply.error.message).toContain('SIGKILL');
        } else {
          expect(server.name).not.toBe('victim');
          expect((reply.result as CallResult).isError).toBeFalsy();
          expect(resultText(reply)).toContain(server.expect(i, markerOf(server.name)));
        }
      });

      // The host is still up and still answers.
      const hello = await host.hello();
      expect(hello.result).toMatchObject({ protocolVersion: 1 });

      // Supervisor policy: the crash is reported, then the server is restarted after its backoff.
      const victimStates = () =>
        host.notifications
          .filter((n) => n.method === 'notifications/servers/changed')
          .map((n) => n.params.server as ServerStatus)
          .filter((server) => server.name === 'victim')
          .map((server) => server.status);
      const restarted = await host.until(() => {
        const states = victimStates();
        const crash = states.findIndex((s) => s.state === 'crashed');
        return crash < 0 ? undefined : states.slice(crash).find((s) => s.state === 'running');
      }, 'the victim reported crashed, then running again');
      // The new process is really there, by `ps`, and is not the one that was killed.
      expect(restarted.pid).not.toBe(victimPid);
      expect(processesMatching(markerOf('victim')).map((p) => p.pid)).toEqual([restarted.pid]);
      const again = await host.request('tools/call', {
        name: 'victim__echo',
        arguments: { message: 'back' },
      });
      expect(resultText(again)).toContain('back');

      expect((await host.close()).code).toBe(0);
      expect(await waitGone(run)).toEqual([]);
    } finally {
      await host.close();
    }
  }, 60_000);
});
