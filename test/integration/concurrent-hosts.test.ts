import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { FIXTURE_SERVER, HostHarness, makeHome } from './host-harness';

/**
 * Two hosts on one `$SWITCHYARD_HOME` (two browsers, or a browser and the CLI) write the same
 * config.json and trust.json. Each write replaces the whole file, so without the lock across
 * processes (native-host/shared/file-lock.ts) the later rename wins and the other's change is
 * lost. Here both hosts write at once and every change must be in the files afterwards.
 */

const SERVERS_PER_HOST = 100;
const RULES_PER_HOST = 100;

let hosts: HostHarness[] = [];
afterEach(async () => {
  await Promise.all(hosts.map((host) => host.close()));
  hosts = [];
});

interface Consent {
  server: string;
  fingerprint: string;
}

describe('two hosts sharing a home', () => {
  test('100 policy/set and 100 trust/approve from each, at once: nothing is lost and both see it', async () => {
    // Disabled servers: approving one records its trust without starting it, so the test writes
    // files without running 200 processes.
    const mcpServers = Object.fromEntries(
      Array.from({ length: 2 * SERVERS_PER_HOST }, (_, i) => [
        `s${i}`,
        { command: process.execPath, args: [FIXTURE_SERVER], disabled: true },
      ]),
    );
    const home = makeHome({ mcpServers });
    const a = new HostHarness(home);
    const b = new HostHarness(home);
    hosts = [a, b];
    await Promise.all([a.hello(), b.hello()]);

    // A disabled server waits at no gate, so trust/pending lists nothing; a stale fingerprint is
    // answered with the current consent request (as a card that went stale would be).
    const fingerprintOf = new Map<string, string>();
    for (const server of Object.keys(mcpServers)) {
      const reply = await a.request('trust/approve', { server, fingerprint: '0'.repeat(64) });
      expect(reply.error?.data?.reason).toBe('fingerprint-mismatch');
      const consent = reply.error?.data?.['consent'] as Consent;
      fingerprintOf.set(server, consent.fingerprint);
    }

    const storm = (host: HostHarness, side: 'a' | 'b', firstServer: number) => [
      ...Array.from({ length: RULES_PER_HOST }, (_, i) =>
        host.request('policy/set', {
          tool: `${side}${i}__*`,
          policy: i % 2 === 0 ? 'allow' : 'deny',
        }),
      ),
      ...Array.from({ length: SERVERS_PER_HOST }, (_, i) => {
        const server = `s${firstServer + i}`;
        return host.request('trust/approve', { server, fingerprint: fingerprintOf.get(server) });
      }),
    ];
    const replies = await Promise.all([...storm(a, 'a', 0), ...storm(b, 'b', SERVERS_PER_HOST)]);
    expect(replies.filter((reply) => reply.error !== undefined)).toEqual([]);

    // In the files: every rule of both hosts, every approval of both hosts.
    const config = JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) as {
      toolPolicy: Record<string, string>;
    };
    const expected: Record<string, string> = {};
    for (const side of ['a', 'b']) {
      for (let i = 0; i < RULES_PER_HOST; i++) {
        expected[`${side}${i}__*`] = i % 2 === 0 ? 'allow' : 'deny';
      }
    }
    expect(config.toolPolicy).toEqual(expected);
    const trust = readFileSync(join(home, 'trust.json'), 'utf8');
    for (let i = 0; i < 2 * SERVERS_PER_HOST; i++) expect(trust).toContain(`"s${i}"`);

    // Each host sees the other's changes: neither has anything left to approve, and a write from
    // either starts from a file that holds both hosts' rules.
    for (const host of hosts) {
      for (const server of Object.keys(mcpServers)) {
        const again = await host.request('trust/approve', {
          server,
          fingerprint: fingerprintOf.get(server),
        });
        expect(again.error?.data?.reason).toBe('not-pending');
      }
    }
    const fromA = await a.call<{ rules: Record<string, string> }>('policy/set', {
      tool: 'final_a__*',
      policy: 'ask',
    });
    const fromB = await b.call<{ rules: Record<string, string> }>('policy/set', {
      tool: 'final_b__*',
      policy: 'ask',
    });
    expect(fromA.rules).toEqual({ ...expected, 'final_a__*': 'ask' });
    expect(fromB.rules).toEqual({ ...expected, 'final_a__*': 'ask', 'final_b__*': 'ask' });
  }, 120_000);
});
