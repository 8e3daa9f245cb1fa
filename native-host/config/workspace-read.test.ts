import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, test } from 'vitest';
import type { ReadConfigFile } from './load';
import { loadWorkspace, readWorkspaceFile } from './workspace';
import {
  MCP,
  ROOT,
  VSCODE,
  errno,
  kinds,
  load,
  mcp,
  vscode,
} from '../../test/support/workspace-files';

// Dangerous direction: anything a repository wrote reaching the launcher as `user` provenance, a
// trust claim being honoured, or a hostile file throwing out of loadWorkspace (which would stop
// the user's own servers). An entry skipped with a warning is the safe failure.

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
