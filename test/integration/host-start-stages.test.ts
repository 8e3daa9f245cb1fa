import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_SERVER, HostHarness, approveAll, childrenOf, makeHome } from './host-harness';

/**
 * The host's two-stage start (decision 0022): its first stage spawns the approved servers before
 * the rest of the host loads, and the full host adopts them. The launch gate's guarantees hold:
 * a server whose entry changed since its approval, or that is disabled, is not spawned early
 * (nor late, until approved), and an approved one runs once, as the process the first stage
 * spawned. The first stage answers the first `host/hello` (decision 0030); what the browser sends
 * behind it waits for the second stage and sees what it would have seen before.
 */

const pidsIn = (file: string): string[] =>
  existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];

describe('two-stage host start', () => {
  it('spawns only what the trust store approves as written; an edited entry waits unspawned', async () => {
    const marks = mkdtempSync(join(tmpdir(), 'switchyard-stages-'));
    const kept = join(marks, 'kept');
    const edited = join(marks, 'edited');
    const off = join(marks, 'off');
    const entries = (editedArgs: string[]) => ({
      mcpServers: {
        kept: { command: process.execPath, args: [FIXTURE_SERVER, `--started=${kept}`] },
        edited: { command: process.execPath, args: [FIXTURE_SERVER, ...editedArgs] },
        off: {
          command: process.execPath,
          args: [FIXTURE_SERVER, `--started=${off}`],
          disabled: true,
        },
      },
    });
    const home = makeHome(entries([`--started=${edited}`]));
    approveAll(home);
    // The edit after the approval: what would run is no longer what the user approved.
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify(entries([`--started=${edited}`, '--paginate'])),
    );

    const host = new HostHarness(home);
    try {
      // Sent together, as the extension does on connect: the list queued behind the hello is
      // answered by the full host once it has started every server.
      const [hello, listed] = await Promise.all([
        host.hello(),
        host.call<{ servers: Array<{ name: string; status: { state: string } }> }>('servers/list'),
      ]);
      expect(hello.result).toMatchObject({ home, configWarnings: [] });
      expect(listed.servers.find((s) => s.name === 'kept')?.status.state).toMatch(
        /^(starting|running)$/,
      );
      const servers = await host.settled();
      const state = (name: string) => servers.find((s) => s.name === name)?.status.state;
      expect(state('kept')).toBe('running');
      expect(state('edited')).toBe('needs-approval');
      expect(state('off')).toBe('stopped');
      expect(host.stderr.join('')).toContain('spawned before the rest loaded: kept\n');
      // Spawned once: the process the first stage started is the one the host connected to.
      expect(pidsIn(kept)).toHaveLength(1);
      expect(childrenOf(host.child.pid!)).toHaveLength(1);
      // Neither the edited entry nor the disabled one ever ran.
      expect(pidsIn(edited)).toEqual([]);
      expect(pidsIn(off)).toEqual([]);

      const consent = servers.find((s) => s.name === 'edited')?.status['consent'] as
        { fingerprint: string } | undefined;
      await host.call('trust/approve', { server: 'edited', fingerprint: consent?.fingerprint });
      // Approved, it runs: the gate, not the first stage, decided when.
      expect(pidsIn(edited)).toHaveLength(1);
    } finally {
      await host.close();
    }
  });
});
