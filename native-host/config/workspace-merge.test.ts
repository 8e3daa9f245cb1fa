import { describe, expect, it, test } from 'vitest';
import { DEFAULT_HANDSHAKE_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS } from './schema';
import type { ServerConfig } from './schema';
import { LAUNCH_FIELDS, mergeTiers } from './workspace';
import type { MergedServer, WorkspaceConfig } from './workspace';
import { MCP, ROOT, VSCODE } from '../../test/support/workspace-files';

// Dangerous direction: anything a repository wrote reaching the launcher as `user` provenance, a
// trust claim being honoured, or a hostile file throwing out of loadWorkspace (which would stop
// the user's own servers). An entry skipped with a warning is the safe failure.

function user(name: string, entry: Partial<ServerConfig> = {}): ServerConfig {
  return {
    name,
    command: 'npx',
    args: ['-y', `${name}-server`],
    env: { TOKEN: '${TOKEN}' },
    handshakeTimeoutMs: DEFAULT_HANDSHAKE_TIMEOUT_MS,
    toolTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
    disabled: false,
    ...entry,
  };
}

describe('mergeTiers', () => {
  const ws = (servers: WorkspaceConfig['servers'], root = ROOT): WorkspaceConfig => ({
    root,
    servers,
    warnings: [],
  });
  const entry = (
    name: string,
    fields: Omit<WorkspaceConfig['servers'][number], 'name' | 'file' | 'ignoredTrustClaims'>,
    file = MCP,
  ) => ({
    name,
    file,
    ignoredTrustClaims: [],
    ...fields,
  });

  it('passes the user tier through as user provenance', () => {
    const { servers, warnings } = mergeTiers([user('github', { cwd: '/srv', prefix: 'gh' })], []);
    expect(warnings).toEqual([]);
    expect(servers).toEqual([
      {
        ...user('github', { cwd: '/srv', prefix: 'gh' }),
        provenance: 'user',
        workspaceRoot: null,
        fieldSources: { command: 'user', args: 'user', env: 'user', cwd: 'user', remote: 'user' },
        ignoredTrustClaims: [],
      },
    ]);
  });

  // Any launch field from a workspace file makes the server need approval (design D5).
  test.each<[string, Record<string, unknown>, Partial<MergedServer>]>([
    ['command', { command: 'sh' }, { command: 'sh', args: ['-y', 'github-server'] }],
    ['args', { args: ['-y', 'evil'] }, { command: 'npx', args: ['-y', 'evil'] }],
    ['empty args', { args: [] }, { command: 'npx', args: [] }],
    [
      'env',
      { env: { LD_PRELOAD: './evil.so' } },
      { env: { TOKEN: '${TOKEN}', LD_PRELOAD: './evil.so' } },
    ],
    ['env overriding a variable', { env: { TOKEN: 'stolen' } }, { env: { TOKEN: 'stolen' } }],
    ['empty env', { env: {} }, { env: { TOKEN: '${TOKEN}' } }],
    ['cwd', { cwd: `${ROOT}/x` }, { cwd: `${ROOT}/x` }],
  ])(
    'a workspace %s over a user server makes it workspace provenance',
    (field, fields, expected) => {
      const { servers } = mergeTiers([user('github')], [ws([entry('github', fields)])]);
      expect(servers).toHaveLength(1);
      const merged = servers[0];
      expect(merged).toMatchObject({ ...expected, provenance: 'workspace', workspaceRoot: ROOT });
      const written = Object.keys(fields);
      for (const launch of LAUNCH_FIELDS) {
        expect(merged?.fieldSources[launch]).toBe(written.includes(launch) ? MCP : 'user');
      }
      expect(field).toBeTruthy();
    },
  );

  it('ignores non-launch fields over a user server, and lists re-enabling as a trust claim', () => {
    const { servers, warnings } = mergeTiers(
      [user('legacy', { disabled: true, prefix: 'lg' })],
      [
        ws([
          entry('legacy', {
            disabled: false,
            prefix: 'x',
            handshakeTimeoutMs: 1,
            toolTimeoutMs: 1,
          }),
        ]),
      ],
    );
    expect(servers[0]).toMatchObject({
      disabled: true,
      prefix: 'lg',
      handshakeTimeoutMs: DEFAULT_HANDSHAKE_TIMEOUT_MS,
      toolTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
      provenance: 'user',
      workspaceRoot: null,
      ignoredTrustClaims: ['disabled'],
    });
    expect(warnings).toEqual([
      `${MCP}: server "legacy": a workspace file cannot change "prefix", "timeout", "toolTimeout", "disabled" of a server in your config.json; ignored`,
    ]);
  });

  it('keeps the user disabled flag under a launch overlay', () => {
    const { servers } = mergeTiers(
      [user('legacy', { disabled: true })],
      [ws([entry('legacy', { command: 'sh', disabled: false })])],
    );
    expect(servers[0]).toMatchObject({
      command: 'sh',
      disabled: true,
      provenance: 'workspace',
      ignoredTrustClaims: ['disabled'],
    });
  });

  it('does not warn about non-launch fields equal to the user value', () => {
    const { warnings } = mergeTiers(
      [user('a')],
      [ws([entry('a', { disabled: false, command: 'x' })])],
    );
    expect(warnings).toEqual([]);
  });

  it('gives a workspace-only server defaults and its root as cwd', () => {
    const { servers } = mergeTiers([], [ws([entry('new', { command: './server' }, VSCODE)])]);
    expect(servers).toEqual([
      {
        name: 'new',
        command: './server',
        args: [],
        env: {},
        cwd: ROOT,
        handshakeTimeoutMs: DEFAULT_HANDSHAKE_TIMEOUT_MS,
        toolTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
        disabled: false,
        provenance: 'workspace',
        workspaceRoot: ROOT,
        fieldSources: { command: VSCODE, args: VSCODE, env: VSCODE, cwd: VSCODE, remote: VSCODE },
        ignoredTrustClaims: [],
      },
    ]);
  });

  it('keeps the non-launch fields of a workspace-only server', () => {
    const { servers } = mergeTiers(
      [],
      [
        ws([
          entry('new', {
            command: 'x',
            cwd: '/srv',
            prefix: 'nw',
            handshakeTimeoutMs: 5,
            toolTimeoutMs: 6,
            disabled: true,
          }),
        ]),
      ],
    );
    expect(servers[0]).toMatchObject({
      cwd: '/srv',
      prefix: 'nw',
      workspacePrefix: 'nw',
      handshakeTimeoutMs: 5,
      toolTimeoutMs: 6,
      disabled: true,
    });
  });

  it('records the prefix each workspace-only server ends up with, for the launch fingerprint', () => {
    const { servers } = mergeTiers(
      [user('github'), user('mine', { prefix: 'mn' })],
      [
        ws([
          entry('notes', { command: 'x', prefix: 'nt' }),
          // Taken: named by its name, which the approval is keyed by; nothing to record.
          entry('other', { command: 'x', prefix: 'github' }),
          entry('plain', { command: 'x' }),
          // A workspace cannot change the prefix of a server of yours (ignored, warned).
          entry('mine', { command: 'y', prefix: 'zz' }),
          // Its name is taken: the merge names its tools, and that is recorded.
          entry('GitHub', { command: 'x' }),
        ]),
      ],
    );
    const byName = new Map(servers.map((s) => [s.name, s]));
    expect(byName.get('notes')).toMatchObject({ prefix: 'nt', workspacePrefix: 'nt' });
    expect(byName.get('other')).not.toHaveProperty('prefix');
    expect(byName.get('other')).not.toHaveProperty('workspacePrefix');
    expect(byName.get('plain')).not.toHaveProperty('workspacePrefix');
    expect(byName.get('mine')).toMatchObject({ prefix: 'mn', provenance: 'workspace' });
    expect(byName.get('mine')).not.toHaveProperty('workspacePrefix');
    expect(byName.get('github')).not.toHaveProperty('workspacePrefix');
    expect(byName.get('GitHub')).toMatchObject({
      prefix: 'workspace_GitHub',
      workspacePrefix: 'workspace_GitHub',
    });
  });

  it('gives a prefix your config.json stops using to a workspace server only with a new fingerprint', () => {
    // Your `github` entry is skipped (half-edited) or removed: the repository's server asked for
    // its prefix and now gets it, so what its approval covered changed and it must ask again.
    const repo = [ws([entry('aaa', { command: 'x', prefix: 'github' })])];
    const withYours = mergeTiers([user('github')], repo).servers[1];
    const without = mergeTiers([], repo).servers[0];
    expect(withYours).not.toHaveProperty('workspacePrefix');
    expect(without).toMatchObject({ prefix: 'github', workspacePrefix: 'github' });
  });

  test.each<[string, Parameters<typeof entry>[1], string, string | undefined]>([
    ['a prefix like its name', { command: 'x', prefix: 'notes' }, 'a', undefined],
    ['a prefix like its name, up to case', { command: 'x', prefix: 'NOTES' }, 'a', undefined],
    ['a name like its name', { command: 'x' }, 'ｎｏｔｅｓ', 'workspace_notes'],
    ['a name like its prefix', { command: 'x' }, 'nt', 'workspace_nt'],
  ])(
    'a workspace server with %s cannot take the tool names of one listed before it',
    (_, fields, name, prefix) => {
      const { servers, warnings } = mergeTiers(
        [],
        [
          ws([entry('notes', { command: 'x' }), entry('other', { command: 'x', prefix: 'nt' })]),
          ws([entry(name, fields)], '/home/me/other-repo'),
        ],
      );
      const late = servers[2];
      expect(late?.name).toBe(name);
      if (prefix === undefined) expect(late).not.toHaveProperty('prefix');
      else expect(late).toMatchObject({ prefix, workspacePrefix: prefix });
      expect(warnings).toEqual([
        expect.stringMatching(
          /is taken by server "(notes|other)" of the workspace \/|would name its tools like server "(notes|other)" of the workspace \//,
        ),
      ]);
      // The first keep theirs.
      expect(servers[0]).not.toHaveProperty('prefix');
      expect(servers[1]).toHaveProperty('prefix', 'nt');
    },
  );

  it('drops a workspace-only entry without a command', () => {
    const { servers, warnings } = mergeTiers([user('a')], [ws([entry('b', { env: { X: '1' } })])]);
    expect(servers.map((s) => s.name)).toEqual(['a']);
    expect(warnings).toEqual([
      `${MCP}: server "b" has no "command" and your config.json has no server of that name to extend; skipped`,
    ]);
  });

  test.each(['github', 'GitHub', 'gh', 'GH', 'github_', 'git.hub'.replace('.', ''), 'ｇｈ', 'gh.'])(
    'drops a workspace prefix %s that a user server uses',
    (prefix) => {
      const { servers, warnings } = mergeTiers(
        [user('github'), user('other', { prefix: 'gh' })],
        [ws([entry('notes', { command: 'x', prefix })])],
      );
      expect(servers[2]).toMatchObject({ name: 'notes', provenance: 'workspace' });
      expect(servers[2]).not.toHaveProperty('prefix');
      expect(warnings[0]).toMatch(/prefix ".*" is taken by a server in your config.json/);
    },
  );

  // Names are sanitized into tool names (accents and full-width letters folded, other characters
  // to '_', '_' runs collapsed and trimmed): a repository's server named like one of yours, up to
  // that, would take its tool names, its allow rules and its profile filters.
  test.each<[string, { prefix?: string }, string | undefined]>([
    ['github.', {}, 'workspace_github'],
    ['GitHub', {}, 'workspace_GitHub'],
    ['ｇｉｔｈｕｂ', {}, 'workspace_github'],
    ['_github_', {}, 'workspace_github'],
    ['notes', { prefix: 'github.' }, undefined],
    ['notes', { prefix: 'gh_' }, undefined],
  ])('a workspace server %s %j gets tool names of its own', (name, extra, expected) => {
    const { servers, warnings } = mergeTiers(
      [user('github'), user('other', { prefix: 'gh' })],
      [ws([entry(name, { command: 'x', ...extra })])],
    );
    const merged = servers[2];
    expect(merged).toMatchObject({ name, provenance: 'workspace' });
    // A taken prefix is dropped, and the server's own name is free here.
    if (expected === undefined) {
      expect(merged).not.toHaveProperty('prefix');
      expect(warnings).toEqual([
        expect.stringMatching(/prefix ".*" is taken by a server in your config\.json/),
      ]);
      return;
    }
    expect(merged).toHaveProperty('prefix', expected);
    expect(warnings).toEqual([
      `${MCP}: server "${name}" would name its tools like a server in your config.json; they are named "${expected}__…" instead`,
    ]);
  });

  it('picks the next free head when workspace_<name> is taken too', () => {
    const { servers } = mergeTiers(
      [user('github'), user('workspace_github'), user('other', { prefix: 'workspace_github_2' })],
      [ws([entry('github.', { command: 'x' })])],
    );
    expect(servers[3]).toHaveProperty('prefix', 'workspace_github_3');
  });

  it('leaves a workspace server whose names are its own as it is', () => {
    const { servers, warnings } = mergeTiers(
      [user('github')],
      [ws([entry('notes', { command: 'x' }), entry('git', { command: 'x', prefix: 'gitlab' })])],
    );
    expect(servers.slice(1).map((s) => [s.name, s.prefix])).toEqual([
      ['notes', undefined],
      ['git', 'gitlab'],
    ]);
    expect(warnings).toEqual([]);
  });

  it('the first workspace wins a name; order is user tier, then workspace-only servers', () => {
    const second = '/home/u/second';
    const { servers, warnings } = mergeTiers(
      [user('b'), user('a')],
      [
        ws([entry('z', { command: 'first' }), entry('a', { args: ['first'] })]),
        ws(
          [
            entry('z', { command: 'second' }, `${second}/.mcp.json`),
            entry('a', { args: ['second'] }, `${second}/.mcp.json`),
            entry('y', { command: 'y' }, `${second}/.mcp.json`),
          ],
          second,
        ),
      ],
    );
    expect(servers.map((s) => [s.name, s.provenance, s.workspaceRoot])).toEqual([
      ['b', 'user', null],
      ['a', 'workspace', ROOT],
      ['z', 'workspace', ROOT],
      ['y', 'workspace', second],
    ]);
    expect(servers.find((s) => s.name === 'z')?.command).toBe('first');
    expect(servers.find((s) => s.name === 'a')?.args).toEqual(['first']);
    expect(warnings).toEqual([
      `${second}/.mcp.json: server "z" is also defined by the workspace ${ROOT}, which comes first; this one was ignored`,
      `${second}/.mcp.json: server "a" is also defined by the workspace ${ROOT}, which comes first; this one was ignored`,
    ]);
  });

  it('uses the first of two same-named user servers', () => {
    const { servers, warnings } = mergeTiers(
      [user('a', { command: 'one' }), user('a', { command: 'two' })],
      [],
    );
    expect(servers.map((s) => s.command)).toEqual(['one']);
    expect(warnings).toEqual(['user tier: server "a" is listed twice; the first is used']);
  });

  it('copies: the output shares no arrays or objects with the input, and drops unknown fields', () => {
    const base = { ...user('a'), approved: true, trusted: true };
    const over = entry('a', { args: ['x'], env: { B: '1' } });
    const { servers } = mergeTiers([base, user('b')], [ws([over])]);
    servers[0]?.args.push('mutated');
    if (servers[0] !== undefined) servers[0].env['C'] = 'mutated';
    servers[1]?.args.push('mutated');
    expect(over).toEqual(entry('a', { args: ['x'], env: { B: '1' } }));
    expect(base.args).toEqual(['-y', 'a-server']);
    expect(base.env).toEqual({ TOKEN: '${TOKEN}' });
    expect(servers[0]).not.toHaveProperty('approved');
    expect(servers[1]?.args).toEqual(['-y', 'b-server', 'mutated']);
    expect(user('b').args).toEqual(['-y', 'b-server']);
  });

  describe('remote servers (issue 11)', () => {
    const remote = {
      transport: 'streamable-http' as const,
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer ${TOKEN}' },
    };
    const userRemote = (): ServerConfig =>
      user('github', { command: '', args: [], env: {}, remote });

    it('a workspace url over a local user server makes it remote, workspace provenance', () => {
      const evil = { transport: 'auto' as const, url: 'https://evil.example/mcp', headers: {} };
      const { servers } = mergeTiers(
        [user('github', { cwd: '/srv' })],
        [ws([entry('github', { remote: evil })])],
      );
      expect(servers[0]).toMatchObject({
        command: '',
        args: [],
        env: {},
        remote: evil,
        provenance: 'workspace',
        workspaceRoot: ROOT,
      });
      expect(servers[0]?.cwd).toBeUndefined();
      expect(servers[0]?.fieldSources.remote).toBe(MCP);
    });

    it('a workspace command over a remote user server makes it local', () => {
      const { servers } = mergeTiers(
        [userRemote()],
        [ws([entry('github', { command: 'node', args: ['evil.js'] })])],
      );
      expect(servers[0]).toMatchObject({
        command: 'node',
        args: ['evil.js'],
        provenance: 'workspace',
      });
      expect(servers[0]?.remote).toBeUndefined();
    });

    it('a workspace env over a remote user server keeps it remote, and needs approval', () => {
      const { servers, warnings } = mergeTiers(
        [userRemote()],
        [ws([entry('github', { env: { LD_PRELOAD: './evil.so' } })])],
      );
      expect(servers[0]).toMatchObject({
        command: '',
        env: {},
        remote,
        provenance: 'workspace',
        workspaceRoot: ROOT,
      });
      // Not dropped in silence: the user is told the workspace's env goes nowhere.
      expect(warnings).toEqual([expect.stringContaining('env has no meaning for a remote server')]);
    });

    it('a remote user server with no workspace entry stays user provenance', () => {
      const { servers } = mergeTiers([userRemote()], []);
      expect(servers[0]).toMatchObject({ remote, provenance: 'user', workspaceRoot: null });
    });

    it('a workspace-only remote server has no folder and is workspace provenance', () => {
      const { servers, warnings } = mergeTiers([], [ws([entry('docs', { remote })])]);
      expect(warnings).toEqual([]);
      expect(servers[0]).toMatchObject({
        name: 'docs',
        command: '',
        remote,
        provenance: 'workspace',
        workspaceRoot: ROOT,
      });
      expect(servers[0]?.cwd).toBeUndefined();
    });

    it('copies the endpoint: the output shares no headers object with the input', () => {
      const base = userRemote();
      const { servers } = mergeTiers([base], []);
      expect(servers[0]?.remote?.headers).toEqual(remote.headers);
      expect(servers[0]?.remote?.headers).not.toBe(base.remote?.headers);
    });
  });
});
