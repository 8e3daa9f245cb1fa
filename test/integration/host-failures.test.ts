import { describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER, FIXTURE_SERVER, HostHarness, unwrap } from './host-harness';

// Failures degrade: one bad server never takes the host or the other servers down.

interface Status {
  state: string;
  reason?: string;
  message?: string;
  pid?: number;
  exit?: { code: number | null; signal: string | null };
}
interface Summary {
  name: string;
  status: Status;
}

const byName = (servers: Summary[], name: string): Status => {
  const found = servers.find((s) => s.name === name);
  if (!found) throw new Error(`no server ${name}`);
  return found.status;
};

describe('failing servers degrade', () => {
  it('marks each broken server failed with a reason while the good one runs', async () => {
    const host = await HostHarness.start({
      good: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
      silent: { command: process.execPath, args: [FIXTURE_SERVER, '--silent'], timeout: 1 },
      missing: { command: 'switchyard-no-such-command-xyz' },
      dies: { command: process.execPath, args: [FIXTURE_SERVER, '--exit-at-start'] },
      noisy: { command: process.execPath, args: [FIXTURE_SERVER, '--noise'] },
    });
    try {
      const servers = (await host.settled()) as Summary[];
      expect(byName(servers, 'good').state).toBe('running');
      expect(byName(servers, 'noisy').state).toBe('running');
      expect(byName(servers, 'silent')).toMatchObject({
        state: 'failed',
        reason: 'handshake-timeout',
      });
      const missing = byName(servers, 'missing');
      expect(missing).toMatchObject({ state: 'failed', reason: 'command-not-found' });
      expect(missing.message).toContain('switchyard-no-such-command-xyz');
      const dies = byName(servers, 'dies');
      expect(dies).toMatchObject({
        state: 'failed',
        reason: 'handshake-failed',
        exit: { code: 7 },
      });
      expect(dies.message).toContain('missing API token');
      // The noisy server's garbage and 10 MB line did not cost it its connection.
      const ok = await host.call<{ content: Array<{ text: string }> }>('tools/call', {
        name: 'noisy__ok',
        arguments: {},
      });
      expect(unwrap(ok.content[0]?.text ?? '')).toBe('ok');
      const failedCall = await host.request('tools/call', { name: 'silent__ok', arguments: {} });
      expect(failedCall.error?.data?.reason).toBe('unknown-tool');
    } finally {
      await host.close();
    }
  });

  it('fails 20 in-flight calls cleanly when the server is SIGKILLed, then restarts it', async () => {
    const host = await HostHarness.start({
      victim: { command: process.execPath, args: [FIXTURE_SERVER] },
      bystander: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
    });
    try {
      const servers = (await host.settled()) as Summary[];
      const pid = byName(servers, 'victim').pid;
      expect(pid).toBeGreaterThan(0);
      const calls = Array.from({ length: 20 }, () =>
        host.request('tools/call', { name: 'victim__slow', arguments: { ms: 60_000 } }),
      );
      await new Promise((r) => setTimeout(r, 200));
      process.kill(pid!, 'SIGKILL');
      const replies = await Promise.all(calls);
      for (const reply of replies) {
        expect(reply.error?.data?.reason).toBe('server-exited');
        expect(reply.error?.message).toContain('SIGKILL');
      }
      // The host is still up and the other server still answers.
      const echo = await host.call<{ content: Array<{ text: string }> }>('tools/call', {
        name: 'bystander__echo',
        arguments: { message: 'still here' },
      });
      expect(unwrap(echo.content[0]?.text ?? '')).toContain('still here');
      // The crash was reported, and the server comes back by itself.
      await host.until(
        () =>
          host.notifications.some(
            (n) =>
              n.method === 'notifications/servers/changed' &&
              (n.params.server as Summary).status.state === 'crashed',
          ),
        'a crashed notification',
      );
      await host.until(
        () =>
          host.notifications.some((n) => {
            const s = n.params.server as Summary | undefined;
            return (
              n.method === 'notifications/servers/changed' &&
              s?.name === 'victim' &&
              s.status.state === 'running' &&
              s.status.pid !== pid
            );
          }),
        'victim running again',
      );
      // Clients re-list on tools/changed: an automatic restart must send one too.
      await host.until(
        () =>
          host.notifications.filter(
            (n) => n.method === 'notifications/tools/changed' && n.params.server === 'victim',
          ).length >= 2,
        'tools/changed for the restarted victim',
      );
      const again = await host.call<{ content: Array<{ text: string }> }>('tools/call', {
        name: 'victim__ok',
        arguments: {},
      });
      expect(unwrap(again.content[0]?.text ?? '')).toBe('ok');
    } finally {
      await host.close();
    }
  });

  it('fails a call whose server exits mid-call with the exit code and stderr', async () => {
    const host = await HostHarness.start({
      crashy: { command: process.execPath, args: [FIXTURE_SERVER] },
    });
    try {
      await host.settled();
      const reply = await host.request('tools/call', { name: 'crashy__crash', arguments: {} });
      expect(reply.error?.data?.reason).toBe('server-exited');
      expect(reply.error?.message).toContain('exit code 3');
      expect(reply.error?.message).toContain('simulated failure');
    } finally {
      await host.close();
    }
  });

  it('stops, starts and restarts a server on request', async () => {
    const host = await HostHarness.start({
      s: { command: process.execPath, args: [FIXTURE_SERVER] },
    });
    try {
      await host.settled();
      await host.call('tools/list', {});
      const stopped = await host.call<{ server: Summary }>('servers/stop', { server: 's' });
      expect(stopped.server.status.state).toBe('stopped');
      // The model was offered s__ok while s ran: the call is told its server is stopped.
      const call = await host.request('tools/call', { name: 's__ok', arguments: {} });
      expect(call.error?.data).toMatchObject({ reason: 'server-unavailable', state: 'stopped' });
      const started = await host.call<{ server: Summary }>('servers/start', { server: 's' });
      expect(started.server.status.state).toBe('running');
      const restarted = await host.call<{ server: Summary }>('servers/restart', { server: 's' });
      expect(restarted.server.status.state).toBe('running');
      expect(restarted.server.status.pid).not.toBe(started.server.status.pid);
      const unknown = await host.request('servers/start', { server: 'nope' });
      expect(unknown.error?.data?.reason).toBe('unknown-server');
    } finally {
      await host.close();
    }
  });
});
