import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchFingerprint } from '../../native-host/trust/fingerprint';
import {
  EVERYTHING_SERVER,
  FIXTURE_SERVER,
  HostHarness,
  ROOT,
  runCli,
  unwrap,
} from './host-harness';

// Protocol revision negotiation through the bundled host (decision 0016): the v2 client probes
// with `server/discover`, speaks 2026-07-28 with a server on the v2 SDK and 2025-11-25 with the
// others, and remembers which servers are legacy so that the next host does not probe them. The
// dangerous direction is an outage: a server that speaks 2025-11-25 only, or that exits on the
// probe, must run as it did before the move.

const MODERN_SERVER = join(ROOT, 'test/fixtures/modern-server.mjs');

/** What each process of a recording server received, by pid, in order. */
function received(file: string): string[][] {
  if (!existsSync(file)) return [];
  const byPid = new Map<string, string[]>();
  for (const line of readFileSync(file, 'utf8').trim().split('\n')) {
    const [pid = '', method = ''] = line.split(' ');
    byPid.set(pid, [...(byPid.get(pid) ?? []), method]);
  }
  return [...byPid.values()];
}

describe('negotiating the protocol revision', () => {
  const records = mkdtempSync(join(tmpdir(), 'switchyard-records-'));
  const legacyLog = join(records, 'legacy.log');
  const diesLog = join(records, 'dies.log');
  const legacyArgs = [FIXTURE_SERVER, `--record=${legacyLog}`];
  const diesArgs = [FIXTURE_SERVER, '--exit-on-probe', `--record=${diesLog}`];
  let host: HostHarness;
  let servers: Awaited<ReturnType<HostHarness['settled']>>;

  beforeAll(async () => {
    host = await HostHarness.start({
      legacy: { command: process.execPath, args: legacyArgs },
      dies: { command: process.execPath, args: diesArgs },
      modern: { command: process.execPath, args: [MODERN_SERVER] },
      everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
    });
    servers = await host.settled();
  });

  afterAll(async () => {
    await host.close();
  });

  const version = (name: string) => servers.find((s) => s.name === name)?.status;

  it('speaks 2026-07-28 where the server offers it and 2025-11-25 elsewhere; servers/list says which', () => {
    expect(version('modern')).toMatchObject({ state: 'running', protocolVersion: '2026-07-28' });
    for (const name of ['legacy', 'dies', 'everything']) {
      expect(version(name)).toMatchObject({ state: 'running', protocolVersion: '2025-11-25' });
    }
  });

  it('relays a call to a 2026-07-28 server', async () => {
    const result = await host.call<{ content: Array<{ text: string }> }>('tools/call', {
      name: 'modern__echo',
      arguments: { message: 'hi' },
    });
    expect(unwrap(result.content[0]?.text ?? '')).toBe('echo: hi');
  });

  it('subscribes to a resource on a 2026-07-28 server with subscriptions/listen, and stops', async () => {
    const uri = 'modern://counter';
    const subscribed = await host.call<{ subscribed: boolean }>('resources/subscribe', {
      server: 'modern',
      uri,
    });
    expect(subscribed.subscribed).toBe(true);
    await host.call('policy/set', { tool: 'modern__bump', policy: 'allow' });
    const updates = () =>
      host.notifications.filter(
        (n) =>
          n.method === 'notifications/resources/updated' &&
          (n.params as { server?: string }).server === 'modern',
      );
    await host.call('tools/call', { name: 'modern__bump', arguments: {} });
    const first = await host.until(() => updates()[0], 'notifications/resources/updated');
    expect(first.params).toEqual({ server: 'modern', uri });

    const stopped = await host.call<{ unsubscribed: boolean }>('resources/unsubscribe', {
      server: 'modern',
      uri,
    });
    expect(stopped.unsubscribed).toBe(true);
    await host.call('tools/call', { name: 'modern__bump', arguments: {} });
    // The call's answer comes after any update it announced: none came once unsubscribed.
    expect(updates()).toHaveLength(1);
  });

  it('probes once per process, and starts a server that exits on the probe once more without it', () => {
    expect(received(legacyLog)).toEqual([
      ['server/discover', 'initialize', 'notifications/initialized', 'tools/list'],
    ]);
    expect(received(diesLog)).toEqual([
      ['server/discover'],
      ['initialize', 'notifications/initialized', 'tools/list'],
    ]);
  });

  it('remembers the legacy servers by launch fingerprint in negotiation.json', async () => {
    // Written in the background once each handshake is done.
    const legacy = () => {
      const path = join(host.home, 'negotiation.json');
      if (!existsSync(path)) return [];
      const file = JSON.parse(readFileSync(path, 'utf8')) as { legacy: Record<string, string> };
      return Object.keys(file.legacy).sort();
    };
    const fingerprint = (args: string[]) =>
      launchFingerprint({
        executable: process.execPath,
        args,
        env: {},
        cwd: null,
        provenance: 'user',
        workspaceRoot: null,
      });
    const expected = [legacyArgs, diesArgs, [EVERYTHING_SERVER, 'stdio']].map(fingerprint).sort();
    await vi.waitFor(() => {
      expect(legacy()).toEqual(expected);
    });
  });

  it('lets the next host skip the probe for them, and doctor shows each revision', () => {
    const doctor = runCli({ ...process.env, SWITCHYARD_HOME: host.home }, 'doctor');
    expect(doctor.out).toMatch(/modern\s+running\s+2026-07-28/);
    expect(doctor.out).toMatch(/legacy\s+running\s+2025-11-25/);
    // doctor was the next host: it went straight to initialize with both.
    expect(received(legacyLog).at(-1)?.[0]).toBe('initialize');
    expect(received(diesLog)).toHaveLength(3);
    expect(received(diesLog).at(-1)?.[0]).toBe('initialize');
  });
});
