import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListening, stopListening, type ListeningProcess } from '../support/listening-process';
import { HostHarness, ROOT, unwrap } from './host-harness';

// A remote server that forgets the host's session (restarted behind its URL, or expiring idle
// sessions) answers 404 on it; the spec says the client then starts a new session. The dangerous
// direction: the host keeps sending the dead session id, every call fails, and the server shows
// `running` until the user restarts it by hand.

const SESSION_SERVER = join(ROOT, 'test/fixtures/remote-session-server.mjs');

type Status = { state: string } & Record<string, unknown>;

describe('a remote server that forgets its session', () => {
  let remote: ListeningProcess;
  let host: HostHarness;

  beforeAll(async () => {
    remote = await startListening([SESSION_SERVER]);
    host = await HostHarness.start(
      { stateful: { type: 'http', url: `http://127.0.0.1:${remote.port}/mcp` } },
      {},
      {},
    );
  }, 60_000);

  afterAll(async () => {
    await host.close();
    await stopListening(remote);
  });

  const status = async (): Promise<Status | undefined> => {
    const { servers } = await host.call<{ servers: Array<{ name: string; status: Status }> }>(
      'servers/list',
    );
    return servers.find((s) => s.name === 'stateful')?.status;
  };
  const echo = (message: string) =>
    host.request('tools/call', { name: 'stateful__echo', arguments: { message } });

  it('starts a new session and serves again', async () => {
    await host.settled();
    expect(await status()).toMatchObject({ state: 'running', protocolVersion: '2025-11-25' });
    const first = await echo('before');
    expect(unwrap(JSON.stringify(first.result))).toContain('before');

    await fetch(`http://127.0.0.1:${remote.port}/forget`, { method: 'POST' });
    // The call that meets the 404 fails as a lost connection the agent may retry, not as the
    // server's own error.
    const failed = await echo('lost');
    expect(failed.error?.data?.reason).toMatch(/server-exited|server-unavailable/);
    // The host reconnects by itself, with a new session.
    for (let i = 0; ; i += 1) {
      const now = await status();
      if (now?.state === 'running') break;
      expect(i).toBeLessThan(100);
      expect(now?.state).toMatch(/crashed|starting/);
      await new Promise((r) => setTimeout(r, 100));
    }
    const again = await echo('after');
    expect(again.error).toBeUndefined();
    expect(unwrap(JSON.stringify(again.result))).toContain('after');
    const stats = (await (await fetch(`http://127.0.0.1:${remote.port}/stats`)).json()) as {
      sessions: number;
    };
    expect(stats.sessions).toBe(2);
  }, 60_000);
});
