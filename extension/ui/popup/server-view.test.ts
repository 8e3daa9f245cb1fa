import { describe, expect, it, test } from 'vitest';
import serversFixture from '../../../protocol/fixtures/servers-list.json';
import { requestMethods } from '../../../protocol/methods';
import type { ConsentRequest, ServerState, ServerSummary } from '../../../protocol/servers';
import {
  ACTION_LABELS,
  actionButtonName,
  actionsFor,
  appsSwitch,
  describeProvenance,
  describeState,
  formatTokens,
  isRevokedHere,
  serverRow,
  serverRows,
  type ServerAction,
} from './server-view';

// The dangerous direction is a row that looks safer than the host's state: a server waiting for
// approval shown as startable, a changed command shown as a plain "needs approval", or a workspace
// or edited entry shown as the user's own.

const { servers } = requestMethods['servers/list'].result.parse(serversFixture.result);

function fixture(name: string): ServerSummary {
  const server = servers.find((s) => s.name === name);
  if (server === undefined) throw new Error(`no fixture server ${name}`);
  return server;
}

const pendingConsent = fixture('shop-db').status;
if (pendingConsent.state !== 'needs-approval') throw new Error('fixture changed');
const consent: ConsentRequest = pendingConsent.consent;

function summary(status: ServerState, overrides: Partial<ServerSummary> = {}): ServerSummary {
  return { ...fixture('everything'), status, ...overrides };
}

const exit1 = { code: 1, signal: null };

const states: ReadonlyArray<
  readonly [string, ServerState, string, string | null, readonly ServerAction[]]
> = [
  [
    'running',
    {
      state: 'running',
      pid: 1,
      handshakeMs: 12,
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'x', version: '1' },
    },
    'running',
    null,
    ['stop', 'restart', 'revoke', 'remove'],
  ],
  ['starting', { state: 'starting', attempt: 1 }, 'starting', null, ['stop', 'revoke', 'remove']],
  [
    'starting again',
    { state: 'starting', attempt: 3 },
    'starting',
    'Attempt 3.',
    ['stop', 'revoke', 'remove'],
  ],
  ['stopped', { state: 'stopped' }, 'stopped', null, ['start', 'revoke', 'remove']],
  [
    'new workspace server',
    { state: 'needs-approval', consent },
    'needs approval',
    consent.summary,
    ['approve', 'remove'],
  ],
  [
    'entry edited outside Switchyard',
    { state: 'needs-approval', consent: { ...consent, reason: 'edited-outside' } },
    'needs approval',
    consent.summary,
    ['approve', 'remove'],
  ],
  [
    'changed command: a stale approval to forget',
    { state: 'needs-approval', consent: { ...consent, reason: 'changed' } },
    'command changed - needs approval',
    consent.summary,
    ['approve', 'forget', 'remove'],
  ],
  [
    'crashed, restarting',
    { state: 'crashed', exit: exit1, restarts: 2, retryInMs: 1500 },
    'crashed (exit code 1)',
    'The server exited with exit code 1. Restarted 2×. Restarting in 2 s.',
    ['stop', 'restart', 'revoke', 'remove'],
  ],
  [
    'crashed by a signal',
    { state: 'crashed', exit: { code: null, signal: 'SIGKILL' }, restarts: 0, retryInMs: 0 },
    'crashed (signal SIGKILL)',
    'The server exited with signal SIGKILL.',
    ['stop', 'restart', 'revoke', 'remove'],
  ],
  [
    'command not found',
    { state: 'failed', reason: 'command-not-found', message: "'x' was not found on PATH" },
    'failed: not found on PATH',
    "'x' was not found on PATH",
    ['start', 'revoke', 'remove'],
  ],
  [
    'spawn failed',
    { state: 'failed', reason: 'spawn-failed', message: 'EACCES' },
    'failed: could not start',
    'EACCES',
    ['start', 'revoke', 'remove'],
  ],
  [
    'a variable not set',
    {
      state: 'failed',
      reason: 'missing-variable',
      message: "'github' needs GITHUB_TOKEN, which is not set",
    },
    'failed: a variable is not set',
    "'github' needs GITHUB_TOKEN, which is not set",
    ['start', 'revoke', 'remove'],
  ],
  [
    'needs sign-in: the sign-in panel says it, not the host sentence too',
    {
      state: 'failed',
      reason: 'auth-required',
      message:
        "'linear' needs sign-in: sign in to 'linear' with 'switchyard auth linear' or the popup's Sign in.",
    },
    'needs sign-in',
    null,
    ['revoke', 'remove'],
  ],
  [
    'handshake timeout',
    { state: 'failed', reason: 'handshake-timeout', message: 'm' },
    'failed: handshake timed out',
    'm',
    ['start', 'revoke', 'remove'],
  ],
  [
    'handshake failed',
    { state: 'failed', reason: 'handshake-failed', message: 'm' },
    'failed: handshake failed',
    'm',
    ['start', 'revoke', 'remove'],
  ],
  [
    'crash loop with its last exit',
    { state: 'failed', reason: 'crash-loop', message: 'm', exit: exit1 },
    'failed: keeps crashing (exit code 1)',
    'm',
    ['start', 'revoke', 'remove'],
  ],
];

describe('server state', () => {
  test.each(states)('%s', (_, status, label, detail, actions) => {
    expect(describeState(status).label).toBe(label);
    expect(describeState(status).detail).toBe(detail);
    expect(actionsFor(summary(status))).toEqual(actions);
  });

  it('offers Remove only for entries in the user config', () => {
    expect(actionsFor(fixture('shop-db'))).toEqual(['approve']);
    expect(actionsFor({ ...fixture('shop-db'), status: { state: 'stopped' } })).toEqual([
      'start',
      'revoke',
    ]);
  });

  it('never offers Start to a server at the launch gate', () => {
    for (const reason of ['workspace', 'edited-outside', 'changed'] as const) {
      const actions = actionsFor(
        summary({ state: 'needs-approval', consent: { ...consent, reason } }),
      );
      expect(actions).not.toContain('start');
      expect(actions).not.toContain('restart');
    }
  });
});

describe('provenance', () => {
  test.each([
    ['a user entry', fixture('everything'), 'user'],
    ['a workspace entry names its folder', fixture('shop-db'), 'workspace: /home/alex/src/webshop'],
    [
      'a workspace entry without a folder',
      { ...fixture('shop-db'), workspaceRoot: null, status: { state: 'stopped' } as const },
      'workspace',
    ],
    [
      'a user entry edited by another program',
      summary({ state: 'needs-approval', consent: { ...consent, reason: 'edited-outside' } }),
      'edited outside Switchyard',
    ],
  ])('%s', (_, server, expected) => {
    expect(describeProvenance(server)).toBe(expected);
  });

  // The host reports a server the user revoked as `edited-outside` (docs/protocol.md): the popup
  // says "user" only for the exact launch its own revoke left waiting. Anything else waiting
  // (another fingerprint: the entry changed since) still reads as edited outside.
  const waiting = summary({
    state: 'needs-approval',
    consent: { ...consent, reason: 'edited-outside' },
  });
  test.each([
    ['revoked here, same launch', waiting, consent.fingerprint, 'user', true],
    ['nothing revoked here', waiting, null, 'edited outside Switchyard', false],
    [
      'revoked here, launch changed since',
      waiting,
      'f'.repeat(64),
      'edited outside Switchyard',
      false,
    ],
    [
      'revoked here, now waiting for another reason',
      summary({ state: 'needs-approval', consent: { ...consent, reason: 'changed' } }),
      consent.fingerprint,
      'user',
      false,
    ],
    ['revoked here, approved since', fixture('everything'), consent.fingerprint, 'user', false],
  ])('%s', (_, server, revoked, provenance, revokedHere) => {
    expect(describeProvenance(server, revoked)).toBe(provenance);
    expect(isRevokedHere(server, revoked)).toBe(revokedHere);
    expect(serverRow(server, revoked).revokedHere).toBe(revokedHere);
  });
});

describe('rows', () => {
  it('shows the literal command line, quoted so it splits back the same', () => {
    const row = serverRow(
      summary({ state: 'stopped' }, { command: 'npx', args: ['-y', 'fs', '/Users/me/My Docs'] }),
    );
    expect(row.launch).toMatchObject({
      kind: 'local',
      commandLine: "npx -y fs '/Users/me/My Docs'",
    });
  });

  // A remote summary has an empty command and no resolved program: a row that showed them would
  // read as a broken local server ("not found on PATH") and hide where the data goes.
  test.each([
    [
      'Streamable HTTP with a token header',
      {
        url: 'https://mcp.linear.app/mcp',
        transport: 'streamable-http',
        headerNames: ['Authorization'],
      },
      'https://mcp.linear.app',
      'Streamable HTTP',
    ],
    [
      'automatic, on this machine',
      { url: 'http://127.0.0.1:3000/mcp', transport: 'auto', headerNames: [] },
      'http://127.0.0.1:3000',
      'Streamable HTTP, or the legacy HTTP+SSE if the server needs it',
    ],
    [
      'legacy SSE',
      { url: 'https://old.example.com/sse', transport: 'sse', headerNames: [] },
      'https://old.example.com',
      'HTTP with server-sent events (legacy)',
    ],
  ] as const)('shows a remote server by its origin: %s', (_, remote, origin, transport) => {
    const row = serverRow(
      summary(
        { state: 'stopped' },
        {
          command: '',
          args: [],
          resolvedCommand: null,
          envKeys: [],
          cwd: null,
          remote: { ...remote, headerNames: [...remote.headerNames] },
        },
      ),
    );
    expect(row.launch).toEqual({
      kind: 'remote',
      url: remote.url,
      origin,
      transport,
      headerNames: remote.headerNames,
    });
  });

  it("names a remote server's pre-registered OAuth client", () => {
    const row = serverRow(
      summary(
        { state: 'stopped' },
        {
          command: '',
          args: [],
          resolvedCommand: null,
          envKeys: [],
          cwd: null,
          remote: {
            url: 'https://mcp.example.com/mcp',
            transport: 'streamable-http',
            headerNames: [],
            oauthClientId: 'Iv1.abc',
          },
        },
      ),
    );
    expect(row.launch).toMatchObject({ kind: 'remote', oauthClientId: 'Iv1.abc' });
  });

  it('shows the handshake time only while running', () => {
    expect(serverRow(fixture('everything')).handshake).toBe('handshake 537 ms');
    expect(serverRow(fixture('filesystem')).handshake).toBeNull();
  });

  it('derives the fixture rows: attention first, then running, then stopped', () => {
    expect(serverRows(servers).map((row) => [row.name, row.state.label])).toEqual([
      ['github', 'failed: not found on PATH'],
      ['shop-db', 'needs approval'],
      ['everything', 'running'],
      ['filesystem', 'stopped'],
    ]);
  });

  it('sorts by name case-insensitively within a group and leaves its input alone', () => {
    const input = ['b', 'A', 'c'].map((name) => summary({ state: 'stopped' }, { name }));
    expect(serverRows(input).map((row) => row.name)).toEqual(['A', 'b', 'c']);
    expect(input.map((server) => server.name)).toEqual(['b', 'A', 'c']);
  });

  it('formats token counts', () => {
    expect(formatTokens(1)).toBe('1 token');
    expect(formatTokens(18250)).toBe('18,250 tokens');
  });
});

describe('accessible names of a row’s buttons (issue 14)', () => {
  // The dangerous direction: a name that does not say which server it acts on (a screen reader
  // hears "Stop" once per row), or one that does not start with what the button shows.
  const names: ReadonlyArray<readonly [Exclude<ServerAction, 'approve'>, string]> = [
    ['start', 'Start filesystem'],
    ['stop', 'Stop filesystem'],
    ['restart', 'Restart filesystem'],
    ['revoke', 'Revoke filesystem'],
    ['forget', 'Forget approval of filesystem'],
    ['remove', 'Remove filesystem'],
  ];
  test.each(names)('%s is "%s"', (action, name) => {
    expect(actionButtonName(action, 'filesystem')).toBe(name);
    // Label in name (WCAG 2.5.3): the visible label, whole, comes first.
    expect(name.startsWith(`${ACTION_LABELS[action]} `)).toBe(true);
  });

  it('names every action', () => {
    expect(names.map(([action]) => action).sort()).toEqual(Object.keys(ACTION_LABELS).sort());
  });
});

describe('the MCP Apps switch', () => {
  // The dangerous direction: a switch that shows apps on while the host has them off.
  const on = summary({ state: 'stopped' }, { name: 'pdf', apps: true });
  const off = summary({ state: 'stopped' }, { name: 'pdf', apps: false });
  const cases: ReadonlyArray<
    readonly [string, ServerSummary, boolean | null, boolean, { checked: boolean; busy: boolean }]
  > = [
    ['on as the host reports it', on, null, false, { checked: true, busy: false }],
    ['off as the host reports it', off, null, false, { checked: false, busy: false }],
    ['switched off, not yet reported', on, false, true, { checked: false, busy: true }],
    ['switched on, not yet reported', off, true, true, { checked: true, busy: true }],
    // The list may report the new value while the server still reconnects.
    [
      'switched off, reported, still reconnecting',
      off,
      false,
      true,
      { checked: false, busy: true },
    ],
    [
      'switched off, answered, list not re-read yet',
      on,
      false,
      false,
      { checked: false, busy: true },
    ],
    ['switched off, answered and reported', off, false, false, { checked: false, busy: false }],
  ];
  test.each(cases)('%s', (_label, server, wanted, sending, expected) => {
    expect(appsSwitch(server, wanted, sending)).toMatchObject({
      ...expected,
      name: 'MCP Apps for pdf',
    });
  });

  it('says in one line what on and off mean', () => {
    expect(appsSwitch(on, null).hint).toBe('Pages its tools offer show in the chat, sandboxed.');
    expect(appsSwitch(off, null).hint).toBe('Off: its tools answer in text; no pages are shown.');
  });
});
