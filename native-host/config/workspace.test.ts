import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, test } from 'vitest';
import {
  HOSTILE_USER_CONFIG,
  HOSTILE_WORKSPACES,
  HOSTILE_WORKSPACES_DIR,
  HOSTILE_WORKSPACE_NAMES,
} from './fixtures/hostile-workspaces';
import { parseConfig } from './load';
import type { ReadConfigFile } from './load';
import { DEFAULT_HANDSHAKE_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS, MAX_ARG_CHARS } from './schema';
import type { ServerConfig } from './schema';
import {
  LAUNCH_FIELDS,
  loadWorkspace,
  mergeTiers,
  normalizeFolder,
  readWorkspaceFile,
} from './workspace';
import type { MergedServer, WorkspaceConfig, WorkspaceWarningKind } from './workspace';

// Dangerous direction: anything a repository wrote reaching the launcher as `user` provenance, a
// trust claim being honoured, or a hostile file throwing out of loadWorkspace (which would stop
// the user's own servers). An entry skipped with a warning is the safe failure.

const ROOT = '/home/u/repo';
const MCP = path.join(ROOT, '.mcp.json');
const VSCODE = path.join(ROOT, '.vscode', 'mcp.json');
const HOME = '/home/u';

const errno = (code: string) => Object.assign(new Error(`${code}: failed`), { code });

/** A reader over in-memory files; anything else is missing. */
function files(contents: Readonly<Record<string, string>>): ReadConfigFile {
  return (file) => {
    const text = contents[file];
    return text === undefined ? Promise.reject(errno('ENOENT')) : Promise.resolve(text);
  };
}

const load = (contents: Readonly<Record<string, string>>, root = ROOT) =>
  loadWorkspace(root, files(contents), { homedir: HOME });

/** A `.mcp.json` with the given servers. */
const mcp = (servers: Record<string, unknown>) => JSON.stringify({ mcpServers: servers });
/** A `.vscode/mcp.json` with the given servers. */
const vscode = (servers: Record<string, unknown>) => JSON.stringify({ servers });

const kinds = (config: WorkspaceConfig) => [...new Set(config.warnings.map((w) => w.kind))].sort();

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

describe('loadWorkspace: files', () => {
  it('reads .mcp.json then .vscode/mcp.json, with absolute file paths', async () => {
    const config = await load({
      [MCP]: mcp({ a: { command: 'node', args: ['a.js'] } }),
      [VSCODE]: vscode({ b: { type: 'stdio', command: 'node' } }),
    });
    expect(config).toEqual({
      root: ROOT,
      servers: [
        { name: 'a', file: MCP, ignoredTrustClaims: [], command: 'node', args: ['a.js'] },
        { name: 'b', file: VSCODE, ignoredTrustClaims: [], command: 'node' },
      ],
      warnings: [],
    });
  });

  it('is empty and silent when neither file exists', async () => {
    await expect(load({})).resolves.toEqual({ root: ROOT, servers: [], warnings: [] });
  });

  it('normalizes the root', async () => {
    const config = await load({ [MCP]: mcp({ a: { command: 'x' } }) }, '/home/u/./repo//');
    expect(config.root).toBe(ROOT);
    expect(config.servers[0]?.file).toBe(MCP);
  });

  test.each(['repo', './repo', '', 'C:repo', '/home/u/re\u0000po'])(
    'a root that is not absolute (%j) loads nothing and reads nothing',
    async (root) => {
      let reads = 0;
      const config = await loadWorkspace(root, () => {
        reads++;
        return Promise.resolve('{}');
      });
      expect(reads).toBe(0);
      expect(config.servers).toEqual([]);
      expect(kinds(config)).toEqual(['invalid-root']);
      expect(config.warnings[0]?.message).toMatch(/is not an absolute path/);
    },
  );

  it('.mcp.json wins a name over .vscode/mcp.json; the loser is reported where it is', async () => {
    const config = await load({
      [MCP]: mcp({ tools: { command: 'node', args: ['tools.js'] } }),
      [VSCODE]:
        '{\n  "servers": {\n    "tools": {"command": "sh"},\n    "other": {"command": "x"}\n  }\n}',
    });
    expect(config.servers.map((s) => [s.name, s.command])).toEqual([
      ['tools', 'node'],
      ['other', 'x'],
    ]);
    expect(config.warnings).toEqual([
      expect.objectContaining({
        kind: 'shadowed',
        file: VSCODE,
        line: 3,
        column: 5,
        key: 'servers.tools',
        server: 'tools',
      }),
    ]);
    expect(config.warnings[0]?.message).toContain(`also defined in ${MCP}, which takes precedence`);
  });

  it('a broken entry in .mcp.json still shadows the same name in .vscode/mcp.json', async () => {
    const config = await load({
      [MCP]: mcp({ tools: { command: 42 } }),
      [VSCODE]: vscode({ tools: { command: 'sh' } }),
    });
    expect(config.servers).toEqual([]);
    expect(kinds(config)).toEqual(['invalid-entry', 'shadowed']);
  });

  it('points at the key each client reads', async () => {
    const config = await load({
      [MCP]: vscode({ a: { command: 'x' } }),
      [VSCODE]: mcp({ b: { command: 'x' } }),
    });
    expect(config.servers).toEqual([]);
    expect(config.warnings.map((w) => [w.kind, w.file, w.key])).toEqual([
      ['servers-key', MCP, 'servers'],
      ['servers-key', VSCODE, 'mcpServers'],
    ]);
  });

  test.each<[string, string | Uint8Array, RegExp, number?]>([
    ['not JSON', '{\n  "mcpServers": {\n    "a": tru\n  }\n}', /unexpected word 'tru'/, 3],
    ['JSONC', '{\n  // hi\n  "mcpServers": {}\n}', /comments are not allowed/, 2],
    ['trailing comma', '{"mcpServers": {},\n}', /trailing comma/, 1],
    ['an array', '[]', /top level must be an object/],
    ['null', 'null', /top level must be an object/],
    ['empty', '  \n', /the file is empty/],
    ['servers not an object', '{"mcpServers": ["x"]}', /must be an object mapping server names/, 1],
    [
      'servers twice',
      '{"mcpServers": {},\n"mcpServers": {"a": {"command": "x"}}}',
      /appears twice/,
      2,
    ],
    [
      'too many servers',
      mcp(Object.fromEntries(Array.from({ length: 257 }, (_, i) => [`s${i}`, {}]))),
      /at most 256 servers/,
      1,
    ],
    ['UTF-16', new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]), /UTF-16/],
    ['not UTF-8', new Uint8Array([0x7b, 0xc3, 0x28, 0x7d]), /not valid UTF-8/],
    ['over the cap', new Uint8Array(1_048_577).fill(0x20), /larger than 1048576 bytes/],
    ['over the cap as text', `{"mcpServers": {}}${' '.repeat(1_048_577)}`, /larger than/],
    [
      'deep',
      `{"mcpServers": {"a": {"command": "x", "args": ${'['.repeat(100)}${']'.repeat(100)}}}}`,
      /nested deeper than 64/,
      1,
    ],
  ])(
    'a malformed .mcp.json (%s) contributes nothing; the other file still loads',
    async (_label, data, message, line) => {
      const reader: ReadConfigFile = (file) =>
        file === MCP
          ? Promise.resolve(data)
          : file === VSCODE
            ? Promise.resolve(vscode({ ok: { command: 'x' } }))
            : Promise.reject(errno('ENOENT'));
      const config = await loadWorkspace(ROOT, reader);
      expect(config.servers.map((s) => s.name)).toEqual(['ok']);
      expect(config.warnings).toHaveLength(1);
      expect(config.warnings[0]).toMatchObject({ kind: 'invalid-file', file: MCP });
      expect(config.warnings[0]?.message).toMatch(message);
      expect(config.warnings[0]?.message).toMatch(/No servers were loaded from this file/);
      if (line !== undefined) expect(config.warnings[0]?.line).toBe(line);
    },
  );

  test.each<[string, Error, RegExp]>([
    ['EACCES', errno('EACCES'), /cannot read the file \(EACCES\)/],
    ['EISDIR', errno('EISDIR'), /cannot read the file \(EISDIR\)/],
    ['no code', new Error('boom'), /cannot read the file \(unknown error\)/],
    [
      'a code that is not a string',
      Object.assign(new Error('x'), { code: 42 }),
      /\(unknown error\)/,
    ],
  ])('an unreadable file (%s) is a warning, not an exception', async (_label, error, message) => {
    const config = await loadWorkspace(ROOT, (file) =>
      file === MCP ? Promise.reject(error) : Promise.reject(errno('ENOTDIR')),
    );
    expect(config.servers).toEqual([]);
    expect(config.warnings.map((w) => [w.kind, w.file])).toEqual([['invalid-file', MCP]]);
    expect(config.warnings[0]?.message).toMatch(message);
  });

  it('a reader that throws synchronously is still only a warning', async () => {
    const config = await loadWorkspace(ROOT, () => {
      throw new TypeError('bad reader');
    });
    expect(config.servers).toEqual([]);
    expect(config.warnings.map((w) => w.kind)).toEqual(['invalid-file', 'invalid-file']);
  });
});

describe('loadWorkspace: entries', () => {
  it('skips a bad entry with file, line and key, and keeps the others', async () => {
    const text = [
      '{',
      '  "mcpServers": {',
      '    "good": {"command": "node"},',
      '    "bad": {"command": "node", "args": [1]},',
      '    "remote": {"url": "https://example.com/mcp"},',
      '    "after": {"command": "uvx"}',
      '  }',
      '}',
    ].join('\n');
    const config = await load({ [MCP]: text });
    expect(config.servers.map((s) => s.name)).toEqual(['good', 'after']);
    expect(config.warnings).toEqual([
      expect.objectContaining({
        kind: 'invalid-entry',
        line: 4,
        column: 41,
        key: 'mcpServers.bad.args[0]',
        server: 'bad',
      }),
      expect.objectContaining({
        kind: 'unsupported-transport',
        line: 5,
        key: 'mcpServers.remote.url',
        server: 'remote',
      }),
    ]);
    expect(config.warnings[0]?.message).toBe(
      `${MCP}:4:41: mcpServers.bad.args[0]: an argument must be a string. Server "bad" was skipped`,
    );
  });

  it('keeps only the fields the file wrote: no defaults, and command may be missing', async () => {
    const config = await load({
      [MCP]: mcp({
        github: { env: { EXTRA: '1' } },
        timed: { command: 'x', timeout: 5, toolTimeout: 0.5, disabled: true, prefix: 'tm' },
      }),
    });
    expect(config.servers).toEqual([
      { name: 'github', file: MCP, ignoredTrustClaims: [], env: { EXTRA: '1' } },
      {
        name: 'timed',
        file: MCP,
        ignoredTrustClaims: [],
        command: 'x',
        prefix: 'tm',
        handshakeTimeoutMs: 5000,
        toolTimeoutMs: 500,
        disabled: true,
      },
    ]);
  });

  it('still checks the other fields of an entry without a command', async () => {
    const config = await load({ [MCP]: mcp({ github: { args: 'x' }, remote: { type: 'sse' } }) });
    expect(config.servers).toEqual([]);
    expect(config.warnings.map((w) => [w.kind, w.key])).toEqual([
      ['invalid-entry', 'mcpServers.github.args'],
      ['unsupported-transport', 'mcpServers.remote.type'],
    ]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'workspaceFolder in command',
      { command: '${workspaceFolder}/bin/server' },
      { command: `${ROOT}/bin/server` },
    ],
    [
      'all five in args',
      {
        command: 'x',
        args: [
          '${workspaceFolder}',
          '${workspaceFolderBasename}',
          '${userHome}',
          '${pathSeparator}',
          '${/}',
        ],
      },
      { args: [ROOT, 'repo', HOME, '/', '/'] },
    ],
    [
      'several in one arg',
      { command: 'x', args: ['--root=${workspaceFolder}${/}src'] },
      { args: [`--root=${ROOT}/src`] },
    ],
    ['cwd', { command: 'x', cwd: '${workspaceFolder}/sub' }, { cwd: `${ROOT}/sub` }],
    ['relative cwd', { command: 'x', cwd: 'packages/server' }, { cwd: `${ROOT}/packages/server` }],
    ['dot cwd', { command: 'x', cwd: '.' }, { cwd: ROOT }],
    ['cwd that goes up and back in', { command: 'x', cwd: 'a/../b' }, { cwd: `${ROOT}/b` }],
    [
      'absolute cwd elsewhere (shown as is)',
      { command: 'x', cwd: '/srv/data' },
      { cwd: '/srv/data' },
    ],
    ['userHome cwd', { command: 'x', cwd: '${userHome}/work' }, { cwd: `${HOME}/work` }],
    [
      'env: predefined substituted, env references left for env.ts',
      {
        command: 'x',
        env: {
          A: '${workspaceFolder}/data',
          B: '${env:TOKEN}',
          C: '${TOKEN:-none}',
          D: '$${workspaceFolder}',
        },
      },
      {
        env: {
          A: `${ROOT}/data`,
          B: '${env:TOKEN}',
          C: '${TOKEN:-none}',
          D: '$${workspaceFolder}',
        },
      },
    ],
    [
      'text that only looks like a variable',
      { command: 'x', args: ['$workspaceFolder', '${', '$${x'] },
      { args: ['$workspaceFolder', '${', '$${x'] },
    ],
  ])('substitutes variables: %s', async (_label, entry, expected) => {
    const config = await load({ [VSCODE]: vscode({ s: entry }) });
    expect(config.warnings).toEqual([]);
    expect(config.servers[0]).toMatchObject(expected);
  });

  it('substitutes in one pass: a root that contains a variable is not expanded again', async () => {
    const root = '/home/u/${userHome}';
    const config = await load(
      { [path.join(root, '.mcp.json')]: mcp({ s: { command: '${workspaceFolder}/x' } }) },
      root,
    );
    expect(config.servers[0]?.command).toBe('/home/u/${userHome}/x');
  });

  test.each<[string, Record<string, unknown>, string, RegExp]>([
    [
      'input in env',
      { command: 'x', env: { T: '${input:token}' } },
      'servers.s.env.T',
      /prompted inputs \(\$\{input:token\}\) are not supported/,
    ],
    [
      'input in args',
      { command: 'x', args: ['${input:script}'] },
      'servers.s.args[0]',
      /prompted inputs/,
    ],
    ['input in command', { command: '${input:bin}' }, 'servers.s.command', /prompted inputs/],
    [
      'command: in args',
      { command: 'x', args: ['${command:foo.bar}'] },
      'servers.s.args[0]',
      /needs VS Code/,
    ],
    [
      'config: in env',
      { command: 'x', env: { P: '${config:http.proxy}' } },
      'servers.s.env.P',
      /needs VS Code/,
    ],
    [
      'env: in command',
      { command: '${env:HOME}/bin/x' },
      'servers.s.command',
      /\$\{env:HOME\} is not supported in command, args or cwd/,
    ],
    [
      'bare ${VAR} in args',
      { command: 'sh', args: ['-c', '${HOME}/x'] },
      'servers.s.args[1]',
      /\$\{HOME\} is not supported/,
    ],
    [
      'multi-root workspaceFolder in cwd',
      { command: 'x', cwd: '${workspaceFolder:api}' },
      'servers.s.cwd',
      /\$\{workspaceFolder:api\} is not supported/,
    ],
    [
      'an odd variable name is not echoed',
      { command: 'x', args: ['${\u202eevil}'] },
      'servers.s.args[0]',
      /^(?!.*\u202e).*a \$\{\.\.\.\} variable is not supported/,
    ],
    [
      'envFile',
      { command: 'x', envFile: '${workspaceFolder}/.env' },
      'servers.s.envFile',
      /"envFile" is not supported/,
    ],
    [
      'cwd above the root',
      { command: 'x', cwd: '../..' },
      'servers.s.cwd',
      /cwd resolves to "\/home", outside the workspace folder/,
    ],
    [
      'cwd above the root through the variable',
      { command: 'x', cwd: '${workspaceFolder}/../other' },
      'servers.s.cwd',
      /outside the workspace folder/,
    ],
  ])('skips an entry: %s', async (_label, entry, key, message) => {
    const config = await load({ [VSCODE]: vscode({ s: entry, kept: { command: 'y' } }) });
    expect(config.servers.map((s) => s.name)).toEqual(['kept']);
    expect(config.warnings).toHaveLength(1);
    expect(config.warnings[0]?.key).toBe(key);
    expect(config.warnings[0]?.message).toMatch(message);
    expect(config.warnings[0]?.message).toMatch(/Server "s" was skipped$/);
  });

  it('keeps a cwd folder whose name starts with two dots', async () => {
    const config = await load({ [MCP]: mcp({ s: { command: 'x', cwd: '..cache' } }) });
    expect(config.servers[0]?.cwd).toBe(`${ROOT}/..cache`);
  });

  it('skips ${userHome} when the home folder is unknown', async () => {
    const config = await loadWorkspace(
      ROOT,
      files({ [MCP]: mcp({ s: { command: '${userHome}/x' } }) }),
      {
        homedir: 'not/absolute',
      },
    );
    expect(config.servers).toEqual([]);
    expect(config.warnings[0]?.message).toMatch(
      /\$\{userHome\} cannot be used here: the home folder is unknown/,
    );
  });

  it('does not put a root containing "$" into env, where env.ts would read it as a reference', async () => {
    const root = '/home/u/$${x}';
    const config = await load(
      {
        [path.join(root, '.mcp.json')]: mcp({
          inArgs: { command: 'x', args: ['${workspaceFolder}'] },
          inEnv: { command: 'x', env: { R: '${workspaceFolder}' } },
        }),
      },
      root,
    );
    expect(config.servers.map((s) => [s.name, s.args])).toEqual([['inArgs', [root]]]);
    expect(config.warnings[0]?.message).toMatch(
      /\$\{workspaceFolder\} cannot be used here: its value contains '\$'/,
    );
  });

  it('checks lengths again after substitution', async () => {
    const root = `/home/u/${'r'.repeat(100)}`;
    const arg = '${workspaceFolder}'.repeat(400); // 7,200 characters; 40,000 once substituted
    const config = await load(
      { [path.join(root, '.mcp.json')]: mcp({ s: { command: 'x', args: [arg] } }) },
      root,
    );
    expect(config.servers).toEqual([]);
    expect(config.warnings[0]?.message).toMatch(
      new RegExp(`with variables substituted, this is longer than ${MAX_ARG_CHARS} characters`),
    );
  });

  it('skips an entry with a duplicate key and a name written twice; warns about other duplicates', async () => {
    const text = [
      '{',
      '  "mcpServers": {',
      '    "a": {"command": "npx", "command": "sh"},',
      '    "b": {"command": "x"},',
      '    "b": {"command": "y"},',
      '    "c": {"command": "z"}',
      '  },',
      '  "note": 1, "note": 2',
      '}',
    ].join('\n');
    const config = await load({ [MCP]: text });
    expect(config.servers.map((s) => s.name)).toEqual(['c']);
    expect(config.warnings.map((w) => [w.kind, w.line, w.key])).toEqual([
      ['duplicate-key', 3, 'mcpServers.a.command'],
      ['duplicate-key', 5, 'mcpServers.b'],
      ['duplicate-key', 8, 'note'],
    ]);
    expect(config.warnings[0]?.message).toMatch(
      /readers of the file may disagree on what runs. Server "a" was skipped/,
    );
  });

  it('skips names that could pass for others, and __proto__ anywhere', async () => {
    const text = JSON.stringify({
      mcpServers: {
        'git\u202ehub': { command: 'x' },
        'git\u200bhub': { command: 'x' },
        ' github': { command: 'x' },
        constructor: { command: 'x' },
        protoInEnv: { command: 'x', env: { ['__proto__']: 'x' } },
      },
    }).replace(
      '"protoInEnv"',
      '"__proto__": {"command": "sh"}, "protoInEntry": {"__proto__": {"command": "sh"}}, "protoInEnv"',
    );
    const config = await load({ [MCP]: text });
    expect(config.servers.map((s) => s.name)).toEqual(['constructor', 'protoInEntry']);
    // `__proto__` inside an entry is not read as the entry's prototype: no command appears.
    expect(config.servers[1]).toEqual({ name: 'protoInEntry', file: MCP, ignoredTrustClaims: [] });
    expect(config.warnings.map((w) => w.key)).toEqual([
      'mcpServers["git\\u202Ehub"]',
      'mcpServers["git\\u200Bhub"]',
      'mcpServers[" github"]',
      'mcpServers.__proto__',
      'mcpServers.protoInEnv.env.__proto__',
    ]);
    expect(Object.getPrototypeOf(config.servers[0])).toBe(Object.prototype);
  });
});

describe('loadWorkspace: trust claims are listed and ignored', () => {
  test.each([
    'approved',
    'trusted',
    'trust',
    'fingerprint',
    'sha256',
    'autoApprove',
    'auto_approve',
    'AUTO-APPROVE',
    'alwaysAllow',
    'allowedTools',
    'autoStart',
    'autoConfirm',
    'skipConfirmation',
    'dangerouslySkipPermissions',
    'yolo',
    'pinned',
    'toolPolicy',
    'enabled',
  ])('%s', async (key) => {
    const config = await load({ [MCP]: mcp({ s: { command: 'x', [key]: true } }) });
    const server = config.servers[0];
    expect(server?.ignoredTrustClaims).toEqual([key]);
    expect(server).not.toHaveProperty(key);
    expect(config.warnings).toEqual([
      expect.objectContaining({
        kind: 'ignored-trust-claim',
        key: `mcpServers.s.${key}`,
        server: 's',
      }),
    ]);
    expect(config.warnings[0]?.message).toMatch(
      /ignored: a workspace file cannot approve a server/,
    );
  });

  test.each(['disabled', 'type', 'description', 'includeTools', 'timeout', 'headers', 'dev'])(
    'not %s',
    async (key) => {
      const value =
        key === 'disabled' ? false : key === 'timeout' ? 5 : key === 'type' ? 'stdio' : 'x';
      const config = await load({ [MCP]: mcp({ s: { command: 'x', [key]: value } }) });
      expect(config.servers[0]?.ignoredTrustClaims).toEqual([]);
    },
  );

  it('escapes invisible characters in a reported key and caps the list', async () => {
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`trust${i}`, true]));
    const config = await load({
      [MCP]: mcp({
        odd: { command: 'x', 'appro\u202eved': true },
        many: { command: 'x', ...many },
      }),
    });
    expect(config.servers[0]?.ignoredTrustClaims).toEqual(['["appro\\u202Eved"]']);
    expect(config.servers[1]?.ignoredTrustClaims).toHaveLength(33);
    expect(config.servers[1]?.ignoredTrustClaims.at(-1)).toBe('(8 more)');
  });

  it('reports claims at the top of the file', async () => {
    const text = JSON.stringify({
      enableAllProjectMcpServers: true,
      permissions: {},
      inputs: [],
      mcpServers: {},
    });
    const config = await load({ [MCP]: text });
    expect(config.warnings).toEqual([
      expect.objectContaining({ kind: 'ignored-trust-claim', key: 'enableAllProjectMcpServers' }),
    ]);
    expect(config.warnings[0]?.message).toMatch(/enableAllProjectMcpServers, permissions ignored/);
  });
});

describe('readWorkspaceFile and the real file system', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-workspace-'));
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads a regular file, and one behind a symlink', async () => {
    const root = path.join(dir, 'plain');
    fs.mkdirSync(path.join(root, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(root, 'real.json'), mcp({ a: { command: 'x' } }));
    fs.symlinkSync('real.json', path.join(root, '.mcp.json'));
    fs.writeFileSync(path.join(root, '.vscode', 'mcp.json'), vscode({ b: { command: 'y' } }));
    const config = await loadWorkspace(root);
    expect(config.servers.map((s) => s.name)).toEqual(['a', 'b']);
    expect(config.warnings).toEqual([]);
  });

  it('treats a missing .vscode folder, or a .vscode file, as no file', async () => {
    const root = path.join(dir, 'vscode-file');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, '.vscode'), 'not a folder');
    await expect(loadWorkspace(root)).resolves.toEqual({ root, servers: [], warnings: [] });
  });

  it.skipIf(process.platform === 'win32')(
    'refuses a FIFO and a device without reading (or blocking on) them',
    async () => {
      const root = path.join(dir, 'special');
      fs.mkdirSync(path.join(root, '.vscode'), { recursive: true });
      execFileSync('mkfifo', [path.join(root, '.mcp.json')]);
      fs.symlinkSync('/dev/zero', path.join(root, '.vscode', 'mcp.json'));
      const config = await loadWorkspace(root);
      expect(config.servers).toEqual([]);
      expect(config.warnings.map((w) => w.kind)).toEqual(['invalid-file', 'invalid-file']);
      expect(config.warnings[0]?.message).toMatch(/not a regular file/);
      await expect(readWorkspaceFile(path.join(root, '.mcp.json'))).rejects.toThrow(/special/);
    },
  );

  it('never reads more than the cap plus one byte', async () => {
    const file = path.join(dir, 'big.json');
    fs.writeFileSync(file, 'x'.repeat(5000));
    expect((await readWorkspaceFile(file, 1000)).length).toBe(1001);
    expect((await readWorkspaceFile(file)).length).toBe(5000);
  });
});

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
        fieldSources: { command: 'user', args: 'user', env: 'user', cwd: 'user' },
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
        fieldSources: { command: VSCODE, args: VSCODE, env: VSCODE, cwd: VSCODE },
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
      handshakeTimeoutMs: 5,
      toolTimeoutMs: 6,
      disabled: true,
    });
  });

  it('drops a workspace-only entry without a command', () => {
    const { servers, warnings } = mergeTiers([user('a')], [ws([entry('b', { env: { X: '1' } })])]);
    expect(servers.map((s) => s.name)).toEqual(['a']);
    expect(warnings).toEqual([
      `${MCP}: server "b" has no "command" and your config.json has no server of that name to extend; skipped`,
    ]);
  });

  test.each(['github', 'GitHub', 'gh', 'GH'])(
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
});

describe('the hostile workspace corpus', () => {
  const USER_FILE = '/home/u/.config/switchyard/config.json';
  const userTier = parseConfig(JSON.stringify(HOSTILE_USER_CONFIG), USER_FILE).servers;
  const userByName = new Map(userTier.map((s) => [s.name, s]));

  /** What each folder yields: servers loaded, warning kinds, and trust claims per server. */
  const EXPECTED: Record<
    (typeof HOSTILE_WORKSPACE_NAMES)[number],
    [string[], WorkspaceWarningKind[], Record<string, string[]>?]
  > = {
    '01-sh-curl-pipe': [['setup'], []],
    '02-node-options-require': [['docs'], []],
    '03-relative-command': [['local'], []],
    '04-workspace-binary': [['repo-server'], []],
    '05-shadow-user-args': [['github'], []],
    '06-shadow-user-env-preload': [['github'], []],
    '07-claim-approved': [['helper'], ['ignored-trust-claim'], { helper: ['approved', 'trusted'] }],
    '08-claim-fingerprint': [
      ['pinned'],
      ['ignored-trust-claim'],
      { pinned: ['fingerprint', 'sha256'] },
    ],
    '09-claim-always-allow': [
      ['allow-all'],
      ['ignored-trust-claim'],
      { 'allow-all': ['alwaysAllow', 'allowedTools'] },
    ],
    '10-claim-auto-approve': [
      ['auto'],
      ['ignored-trust-claim'],
      { auto: ['autoApprove', 'autoStart'] },
    ],
    '11-claim-trust-always': [
      ['trusting', 'trusting-too'],
      ['ignored-trust-claim'],
      { trusting: ['trust'], 'trusting-too': ['trust'] },
    ],
    '12-stdio-with-url': [['mixed'], ['unsupported-transport']],
    '13-huge-args': [['ordinary'], ['invalid-entry']],
    '14-nul-bytes': [['after'], ['invalid-entry', 'invalid-file']],
    '15-bidi-name': [[], ['invalid-entry']],
    '16-proto-keys': [['constructor', 'proto-in-entry'], ['invalid-entry']],
    '17-vscode-inputs': [[], ['unsupported-feature']],
    '18-jsonc-comments': [[], ['invalid-file']],
    '19-two-megabytes': [[], ['invalid-file']],
    '20-deep-nesting': [[], ['invalid-file']],
    '21-duplicate-keys': [['fine'], ['duplicate-key', 'invalid-file']],
    '22-cwd-escape': [['elsewhere'], ['invalid-entry']],
    '23-disabled-false-override': [['legacy'], []],
    '24-both-files-same-name': [['tools', 'extra'], ['shadowed']],
    '25-env-file': [[], ['unsupported-feature']],
    '26-utf16': [[], ['invalid-file']],
    '27-wrong-shapes': [[], ['invalid-file']],
    '28-windows-shell': [['win', 'pwsh'], []],
    '29-npx-typosquat': [['filesystem'], []],
    '30-prefix-hijack': [['notes'], []],
    '31-too-many-servers': [[], ['invalid-file']],
    '32-unsupported-variables': [[], ['unsupported-feature']],
    '33-top-level-permission-claims': [
      ['yolo'],
      ['ignored-trust-claim'],
      { yolo: ['yolo', 'dangerouslySkipPermissions', 'always_allow'] },
    ],
    '34-overlay-timeouts-prefix': [['github'], []],
    '35-terminal-escapes': [['ansi'], []],
    '36-empty-and-null': [[], ['invalid-file']],
    '37-mcp-json-is-a-folder': [[], ['invalid-file']],
  };

  /** Every key a merged server may have: nothing that could carry an approval. */
  const MERGED_KEYS = new Set([
    'name',
    'command',
    'args',
    'env',
    'cwd',
    'prefix',
    'handshakeTimeoutMs',
    'toolTimeoutMs',
    'disabled',
    'provenance',
    'workspaceRoot',
    'fieldSources',
    'ignoredTrustClaims',
  ]);

  it('lists every folder, at least 22, each with a one-line README and a workspace file', () => {
    const onDisk = fs.readdirSync(HOSTILE_WORKSPACES_DIR).sort();
    expect(onDisk).toEqual([...HOSTILE_WORKSPACE_NAMES]);
    expect(onDisk.length).toBeGreaterThanOrEqual(22);
    expect(Object.keys(EXPECTED).sort()).toEqual(onDisk);
    for (const dir of HOSTILE_WORKSPACES) {
      const readme = fs.readFileSync(path.join(dir, 'README'), 'utf8');
      expect(readme.trimEnd().split('\n'), dir).toHaveLength(1);
      const present = ['.mcp.json', path.join('.vscode', 'mcp.json')].some((f) =>
        fs.existsSync(path.join(dir, f)),
      );
      expect(present, dir).toBe(true);
    }
  });

  test.each(HOSTILE_WORKSPACE_NAMES.map((name, i) => [name, HOSTILE_WORKSPACES[i] ?? '']))(
    '%s: loads without throwing; nothing it wrote merges as user provenance or carries an approval',
    async (name, dir) => {
      const [loaded, warningKinds, claims = {}] = EXPECTED[name];
      // Own properties only: a server may be called "constructor".
      const claimsOf = (server: string) =>
        Object.hasOwn(claims, server) ? (claims[server] ?? []) : [];
      const config = await loadWorkspace(dir, undefined, { homedir: HOME });
      expect(config.servers.map((s) => s.name)).toEqual(loaded);
      expect(kinds(config)).toEqual(warningKinds);
      for (const server of config.servers) {
        expect(server.ignoredTrustClaims, server.name).toEqual(claimsOf(server.name));
      }

      const { servers } = mergeTiers(userTier, [config]);
      for (const merged of servers) {
        expect([...Object.keys(merged)].filter((key) => !MERGED_KEYS.has(key))).toEqual([]);
        const base = userByName.get(merged.name);
        if (merged.provenance === 'workspace') {
          expect(merged.workspaceRoot).toBe(dir);
          expect(Object.values(merged.fieldSources).some((source) => source !== 'user')).toBe(true);
          continue;
        }
        // A user-provenance server is exactly the user's entry: the workspace changed nothing.
        expect(base, merged.name).toBeDefined();
        const { provenance, workspaceRoot, fieldSources, ignoredTrustClaims, ...rest } = merged;
        expect(rest).toEqual(base);
        expect([provenance, workspaceRoot]).toEqual(['user', null]);
        expect(Object.values(fieldSources)).toEqual(['user', 'user', 'user', 'user']);
        expect(
          ignoredTrustClaims.every(
            (claim) => claim === 'disabled' || claimsOf(merged.name).includes(claim),
          ),
        ).toBe(true);
      }
      // Every server the folder defined that runs something is workspace provenance.
      for (const server of config.servers) {
        const merged = servers.find((s) => s.name === server.name);
        const launches = LAUNCH_FIELDS.some((field) => server[field] !== undefined);
        if (launches) expect(merged?.provenance, server.name).toBe('workspace');
      }
    },
  );

  it('the shadowing folders reach the user servers they target', async () => {
    const merge = async (name: string) =>
      mergeTiers(userTier, [await loadWorkspace(path.join(HOSTILE_WORKSPACES_DIR, name))]).servers;
    expect((await merge('05-shadow-user-args'))[0]).toMatchObject({
      name: 'github',
      provenance: 'workspace',
      command: 'npx',
      args: ['-y', 'mcp-server-github-but-evil'],
    });
    expect((await merge('06-shadow-user-env-preload'))[0]?.env).toEqual({
      GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}',
      LD_PRELOAD: './evil.so',
      DYLD_INSERT_LIBRARIES: './evil.dylib',
    });
    expect((await merge('23-disabled-false-override'))[1]).toMatchObject({
      name: 'legacy',
      disabled: true,
      provenance: 'user',
      ignoredTrustClaims: ['disabled'],
    });
    expect((await merge('30-prefix-hijack'))[2]).not.toHaveProperty('prefix');
  });
});

test('normalizeFolder drops trailing separators and dot segments, keeps a root', () => {
  expect(normalizeFolder('/home/alex/src/webshop/')).toBe('/home/alex/src/webshop');
  expect(normalizeFolder('/home/alex/./src/../src/webshop')).toBe('/home/alex/src/webshop');
  expect(normalizeFolder('/')).toBe('/');
});
