import { describe, expect, test } from 'vitest';
import type { ServerState, ServerSummary } from '../../protocol/servers';
import type { CliIo } from './io';
import { doctor, reapedText, serversTable } from './doctor';
import { sectionText } from './secrets-doctor';

function summary(name: string, status: ServerState, toolCount = 0): ServerSummary {
  return {
    ...{
      name,
      provenance: 'user',
      workspaceRoot: null,
      disabled: false,
      apps: true,
      command: 'node',
    },
    ...{
      args: ['server.js'],
      resolvedCommand: '/usr/bin/node',
      cwd: null,
      envKeys: [],
      remote: null,
    },
    ...{ status, crashes: null, toolCount, tokens: toolCount * 100 },
  };
}

describe('serversTable', () => {
  const lines = serversTable([
    summary(
      'memory',
      {
        state: 'running',
        pid: 42,
        handshakeMs: 211.6,
        protocolVersion: '2025-11-25',
        serverInfo: { name: 'memory-server', version: '0.6.3' },
      },
      9,
    ),
    summary('ghost', {
      state: 'failed',
      reason: 'command-not-found',
      message: "'ghost' was not found",
    }),
  ]).split('\n');

  test('shows the MCP revision each running server negotiated', () => {
    expect(lines[0]).toMatch(
      /^SERVER\s+STATE\s+MCP\s+HANDSHAKE\s+TOOLS\s+TOKENS\s+COMMAND OR URL$/,
    );
    expect(lines[1]).toMatch(
      /^memory\s+running\s+2025-11-25\s+212 ms\s+9\s+900\s+\/usr\/bin\/node server\.js$/,
    );
  });

  test('a server that is not running has no revision or handshake', () => {
    expect(lines[2]).toMatch(
      /^ghost\s+failed: command-not-found\s+-\s+-\s+0\s+0\s+\/usr\/bin\/node/,
    );
  });
});

describe('reapedText', () => {
  const entry = (i: number, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => ({
    server: `s${i}`,
    pgid: 1000 + i,
    hostPid: 77,
    at: `2026-12-01T00:00:0${i}.000Z`,
    signal,
  });

  test('names each server, its group, the dead host and whether it had to be killed', () => {
    const text = reapedText([entry(2, 'SIGKILL'), entry(1)]);
    expect(text).toContain(
      '  2026-12-01T00:00:02.000Z  s2 (process group 1002, left by host 77; killed)\n',
    );
    expect(text).toContain(
      '  2026-12-01T00:00:01.000Z  s1 (process group 1001, left by host 77; stopped)\n',
    );
    expect(text).not.toContain('more');
  });

  test('shows the newest five and counts the rest', () => {
    const text = reapedText([9, 8, 7, 6, 5, 4, 3].map((i) => entry(i)));
    expect(text).toContain('s5 ');
    expect(text).not.toContain('s4 ');
    expect(text).toContain('... and 2 more');
  });
});

describe('the secrets section', () => {
  test.each([
    [
      'the file store, with why, and each server with references',
      {
        kind: 'file',
        where: '/h/secrets.json (mode 0600)',
        note: 'no OS secret store: no D-Bus',
      } as const,
      [{ server: 'github', fromEnv: ['A'], fromStore: ['B'], unresolved: ['C'] }],
      'Secrets:         /h/secrets.json (mode 0600)\n                 (no OS secret store: no D-Bus)\n  github: A (environment), B (secret store), C (NOT SET)\n',
    ],
    [
      'the OS store, no references',
      { kind: 'secret-service', where: 'the Secret Service' } as const,
      [],
      'Secrets:         the Secret Service\n',
    ],
  ])('%s', (_name, info, variables, text) => {
    expect(sectionText(info, undefined, variables)).toBe(text);
  });

  test('a store that cannot be opened says why', () => {
    expect(sectionText(null, "SWITCHYARD_SECRET_STORE is 'x'", [])).toBe(
      "Secrets:         (no store: SWITCHYARD_SECRET_STORE is 'x')\n",
    );
  });
});

// `switchyard doctor --jsno` (or `--help`) ran the whole check and printed the text report, exit
// 0 or 1, to a script that expected JSON.
test.each([['--jsno'], ['--help'], ['memory']])('doctor %s is a usage error', async (arg) => {
  const err: string[] = [];
  const io: CliIo = {
    out: () => {
      throw new Error('nothing goes to stdout');
    },
    err: (t) => err.push(t),
    env: { SWITCHYARD_HOME: '/nonexistent/switchyard-doctor-test' },
    platform: process.platform,
  };
  expect(await doctor(io, ['--json', arg])).toBe(2);
  expect(err.join('')).toBe(
    `switchyard doctor: unknown argument '${arg}'\nusage: switchyard doctor [--json]\n`,
  );
});
