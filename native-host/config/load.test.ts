import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, test } from 'vitest';
import { MAX_WARNINGS_PER_FILE } from './json-format';
import { ConfigError, MAX_CONFIG_FILE_BYTES, loadConfigFile, parseConfig } from './load';
import { readFileBounded } from '../shared/bounded-read';
import type { ReadConfigFile } from './load';

// Dangerous direction: loading something the file did not say. A broken file read "as best we
// can", or a bad entry half-accepted, could start a server with the wrong command or arguments.
// A rejected file or a skipped entry is safe as long as the message says where and what to fix.

const FILE = '/home/u/.config/switchyard/config.json';

function configError(text: string): ConfigError {
  try {
    parseConfig(text, FILE);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}

/** A file with a good server on line 3, `bad` on line 4 and another good one after it. */
function withBadEntry(entry: string): string {
  return [
    '{',
    '  "mcpServers": {',
    '    "good": { "command": "node", "args": ["server.js"] },',
    `    "bad": ${entry},`,
    '    "after": { "command": "uvx", "args": ["mcp-server-git"] }',
    '  }',
    '}',
  ].join('\n');
}

describe('a file that is not JSON is rejected whole, with line and column', () => {
  test.each<[string, string, number, number, RegExp]>([
    [
      'missing comma',
      '{\n  "mcpServers": {\n    "a": {"command": "x"}\n    "b": {}\n  }\n}',
      4,
      5,
      /',' is missing between two properties/,
    ],
    ['trailing comma', '{"mcpServers": {},\n}', 1, 18, /trailing comma/],
    [
      'JSONC comment',
      '{\n  // my servers\n  "mcpServers": {}\n}',
      2,
      3,
      /comments are not allowed: this file is strict JSON, not JSONC/,
    ],
    [
      'after multi-byte characters',
      '{"mcpServers": {"é😀": {"command": "x"} x}}',
      1,
      40,
      /unexpected 'x'/,
    ],
    [
      'CRLF line endings',
      '{\r\n  "mcpServers": {\r\n    "a": tru\r\n  }\r\n}',
      3,
      10,
      /unexpected word 'tru'/,
    ],
    ['after a BOM', '\uFEFF{\n  "mcpServers": {,}\n}', 2, 18, /unexpected ','/],
    ['single quotes', "{'mcpServers': {}}", 1, 2, /double quotes/],
    [
      'Windows path with single backslashes',
      '{"mcpServers": {"a": {"command": "C:\\Tools\\x.exe"}}}',
      1,
      37,
      /invalid escape '\\T'.*write a backslash as \\\\/,
    ],
    ['unterminated', '{"mcpServers": {"a": {"command": "x', 1, 34, /never closed/],
  ])('%s', (_label, text, line, column, reason) => {
    const error = configError(text);
    expect(error).toMatchObject({ file: FILE, line, column, key: undefined });
    expect(error.message).toMatch(reason);
    expect(error.message.startsWith(`${FILE}:${line}:${column}: `)).toBe(true);
    expect(error.message).toMatch(/no servers were loaded/);
  });

  test.each(['', '  \n', '\uFEFF'])('empty file %j', (text) => {
    expect(configError(text).message).toMatch(/the file is empty: write \{"mcpServers": \{\}\}/);
  });

  it('rejects a file over the size cap', () => {
    const text = `{"x": "${'a'.repeat(MAX_CONFIG_FILE_BYTES)}"}`;
    expect(configError(text).message).toMatch(/larger than 1048576 bytes/);
  });
});

describe('a wrong top level or mcpServers is rejected whole, with key and line', () => {
  test.each<[string, string, string | undefined, number, RegExp]>([
    [
      'top level is an array',
      '[\n  {"mcpServers": {}}\n]',
      undefined,
      1,
      /top level must be an object/,
    ],
    ['top level is a string', '"mcpServers"', undefined, 1, /top level must be an object/],
    [
      'mcpServers is an array',
      '{\n  "mcpServers": [\n    {"command": "x"}\n  ]\n}',
      'mcpServers',
      2,
      /mcpServers must be an object mapping server names/,
    ],
    [
      'mcpServers is null',
      '{\n\n  "mcpServers": null\n}',
      'mcpServers',
      3,
      /mcpServers must be an object/,
    ],
  ])('%s', (_label, text, key, line, message) => {
    const error = configError(text);
    expect(error).toMatchObject({ file: FILE, key, line });
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/No servers were loaded from this file/);
  });

  it('rejects more than 256 servers', () => {
    const servers = Array.from({ length: 257 }, (_, i) => `"s${i}": {"command": "x"}`);
    expect(configError(`{"mcpServers": {${servers.join(',')}}}`).message).toMatch(
      /at most 256 servers/,
    );
  });
});

describe('a bad entry is skipped with a warning; the others load', () => {
  // Columns count from the start of line 4, `    "bad": ` being columns 1-11.
  test.each<[string, string, string, number, number, RegExp]>([
    [
      'wrong arg type',
      '{ "command": "npx", "args": ["-y", "x", 3] }',
      'mcpServers.bad.args[2]',
      4,
      52,
      /an argument must be a string/,
    ],
    [
      'wrong arg type, entry over several lines',
      '{\n      "command": "npx",\n      "args": ["-y", "x", 3]\n    }',
      'mcpServers.bad.args[2]',
      6,
      27,
      /an argument must be a string/,
    ],
    [
      'missing command (reported at the name)',
      '{ "args": [] }',
      'mcpServers.bad.command',
      4,
      5,
      /command is missing/,
    ],
    [
      'not an object',
      '"npx some-server"',
      'mcpServers.bad',
      4,
      12,
      /a server entry must be an object/,
    ],
    [
      'env value',
      '{ "command": "x", "env": { "A": 1 } }',
      'mcpServers.bad.env.A',
      4,
      44,
      /must be a string/,
    ],
    [
      'env name (reported at the key)',
      '{ "command": "x", "env": { "A=B": "c" } }',
      'mcpServers.bad.env["A=B"]',
      4,
      39,
      /cannot contain '='/,
    ],
    [
      'timeout in ms',
      '{ "command": "x", "timeout": 30000 }',
      'mcpServers.bad.timeout',
      4,
      41,
      /divide by 1000/,
    ],
  ])('%s', (_label, entry, key, line, column, message) => {
    const result = parseConfig(withBadEntry(entry), FILE);
    expect(result.servers.map((s) => s.name)).toEqual(['good', 'after']);
    expect(result.warnings).toHaveLength(1);
    const [warning] = result.warnings;
    expect(warning).toMatchObject({
      kind: 'invalid-entry',
      file: FILE,
      key,
      line,
      column,
      server: 'bad',
    });
    expect(warning?.message).toMatch(message);
    expect(warning?.message.startsWith(`${FILE}:${line}:${column}: ${key}: `)).toBe(true);
    expect(warning?.message).toMatch(/Server "bad" was skipped; fix the entry and reload/);
  });

  it('counts further problems in the same entry', () => {
    const [warning] = parseConfig(
      withBadEntry('{ "command": 1, "args": 2, "env": 3 }'),
      FILE,
    ).warnings;
    expect(warning?.message).toMatch(/command must be a string \(and 2 more problems\)/);
  });

  test.each<[string, string, string, RegExp]>([
    [
      'type ws',
      '{ "type": "ws", "url": "wss://example.com/mcp" }',
      'mcpServers.bad.type',
      /"ws" servers are not supported: use "stdio"/,
    ],
    [
      'transportType websocket',
      '{ "transportType": "websocket", "url": "wss://example.com/mcp" }',
      'mcpServers.bad.transportType',
      /"websocket" servers are not supported/,
    ],
  ])('unsupported transport: %s', (_label, entry, key, message) => {
    const result = parseConfig(withBadEntry(entry), FILE);
    expect(result.servers.map((s) => s.name)).toEqual(['good', 'after']);
    expect(result.warnings).toEqual([
      expect.objectContaining({ kind: 'unsupported-transport', key, line: 4, server: 'bad' }),
    ]);
    expect(result.warnings[0]?.message).toMatch(message);
  });

  test.each<[string, string]>([
    ['type http', '{ "type": "http", "url": "https://example.com/mcp" }'],
    ['type sse', '{ "type": "sse", "url": "https://example.com/sse" }'],
    ['url only', '{ "url": "https://example.com/mcp" }'],
  ])('loads a remote entry beside local ones: %s', (_label, entry) => {
    const result = parseConfig(withBadEntry(entry), FILE);
    expect(result.servers.map((s) => s.name)).toEqual(['good', 'bad', 'after']);
    expect(result.servers[1]?.remote?.url).toMatch(/^https:\/\/example\.com\//);
    expect(result.warnings).toEqual([]);
  });

  test.each<[string, string, RegExp]>([
    ['', 'mcpServers[""]', /cannot be empty/],
    ['bad\u202ename', 'mcpServers["bad\\u202Ename"]', /control or invisible/],
    ['__proto__', 'mcpServers.__proto__', /reserved/],
    ['x'.repeat(65), `mcpServers.${'x'.repeat(65)}`, /at most 64 characters/],
  ])('bad server name %j', (name, key, message) => {
    const text = `{\n  "mcpServers": {\n    ${JSON.stringify(name)}: {"command": "x"},\n    "ok": {"command": "y"}\n  }\n}`;
    const result = parseConfig(text, FILE);
    expect(result.servers.map((s) => s.name)).toEqual(['ok']);
    expect(result.warnings).toEqual([
      expect.objectContaining({ kind: 'invalid-entry', key, line: 3, column: 5 }),
    ]);
    expect(result.warnings[0]?.message).toMatch(message);
  });
});

describe('parseConfig', () => {
  it('resolves entries in file order, keeps disabled ones and unknown keys', () => {
    const text = JSON.stringify({
      toolPolicy: { 'github__*': 'ask' },
      mcpServers: {
        github: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-github'],
          env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' },
          alwaysAllow: ['search'],
          timeout: 45,
        },
        memory: { type: 'stdio', command: 'npx', disabled: true, toolTimeout: 5 },
      },
      profiles: [],
    });
    const result = parseConfig(text, FILE);
    expect(result.warnings).toEqual([]);
    expect(result.servers).toStrictEqual([
      {
        name: 'github',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-github'],
        env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' },
        handshakeTimeoutMs: 45_000,
        toolTimeoutMs: 60_000,
        disabled: false,
      },
      {
        name: 'memory',
        command: 'npx',
        args: [],
        env: {},
        handshakeTimeoutMs: 30_000,
        toolTimeoutMs: 5_000,
        disabled: true,
      },
    ]);
    expect(result.raw).toMatchObject({ toolPolicy: { 'github__*': 'ask' }, profiles: [] });
  });

  test.each(['{}', '{"mcpServers": {}}', '{"globalShortcut": "Ctrl+Space"}'])(
    'no servers: %s',
    (text) => {
      expect(parseConfig(text, FILE)).toMatchObject({ servers: [], warnings: [] });
    },
  );

  it('tolerates a UTF-8 BOM', () => {
    const result = parseConfig('\uFEFF{"mcpServers": {"a": {"command": "x"}}}', FILE);
    expect(result.servers.map((s) => s.name)).toEqual(['a']);
  });

  it('warns about a duplicate server, and the later one is used', () => {
    const text =
      '{\n  "mcpServers": {\n    "a": {"command": "first"},\n    "a": {"command": "second"}\n  }\n}';
    const result = parseConfig(text, FILE);
    expect(result.servers).toEqual([expect.objectContaining({ name: 'a', command: 'second' })]);
    expect(result.warnings).toEqual([
      expect.objectContaining({
        kind: 'duplicate-key',
        key: 'mcpServers.a',
        line: 4,
        column: 5,
        server: 'a',
      }),
    ]);
    expect(result.warnings[0]?.message).toMatch(/this key appears twice.*the last one is used/);
  });

  it('reports at most 50 warnings for a file that repeats a key 40,000 times, and says how many more', () => {
    const text = `{"mcpServers": {}, ${'"a": 0, '.repeat(40_000)}"end": 0}`;
    const { warnings } = parseConfig(text, FILE);
    expect(warnings).toHaveLength(MAX_WARNINGS_PER_FILE);
    expect(warnings[0]).toMatchObject({ kind: 'duplicate-key', key: 'a', line: 1 });
    expect(warnings.at(-1)?.message).toMatch(/and 39949 more warnings in this file/);
  });

  it('skips an entry whose cwd is relative: it would be resolved where the host happened to start', () => {
    const text =
      '{"mcpServers": {"a": {"command": "npx", "cwd": "tools"}, "b": {"command": "x", "cwd": "/srv/b"}}}';
    const result = parseConfig(text, FILE);
    expect(result.servers.map((s) => s.name)).toEqual(['b']);
    expect(result.warnings).toEqual([
      expect.objectContaining({ kind: 'invalid-entry', key: 'mcpServers.a.cwd', server: 'a' }),
    ]);
    expect(result.warnings[0]?.message).toMatch(/cwd must be an absolute folder, not "tools"/);
  });

  it('points a VS Code style "servers" file at the right key', () => {
    const result = parseConfig('{\n  "servers": {"a": {"command": "x"}}\n}', FILE);
    expect(result.servers).toEqual([]);
    expect(result.warnings).toEqual([
      expect.objectContaining({ kind: 'servers-key', key: 'servers', line: 2, column: 3 }),
    ]);
  });

  it('orders warnings by position in the file', () => {
    const text = '{"mcpServers": {\n"b": {"url": "u"},\n"a": {},\n"b": {"command": 1}\n}}';
    expect(parseConfig(text, FILE).warnings.map((w) => [w.kind, w.line])).toEqual([
      ['invalid-entry', 3],
      ['duplicate-key', 4],
      ['invalid-entry', 4],
    ]);
  });
});

describe('loadConfigFile', () => {
  const errno = (code: string) => Object.assign(new Error(`${code}: failed`), { code });
  const failing =
    (code: string): ReadConfigFile =>
    () =>
      Promise.reject(errno(code));
  const returning =
    (data: Uint8Array | string): ReadConfigFile =>
    () =>
      Promise.resolve(data);

  it('treats a missing file as an empty config', async () => {
    await expect(loadConfigFile(FILE, failing('ENOENT'))).resolves.toStrictEqual({
      servers: [],
      warnings: [],
      raw: {},
    });
  });

  test.each([
    ['EACCES', /permission denied/],
    ['EISDIR', /folder, not a file/],
    ['ENOTDIR', /part of this path is a file/],
    ['EIO', /cannot read the file \(EIO\)/],
  ])('an unreadable file (%s) is a ConfigError naming the file', async (code, message) => {
    const error: unknown = await loadConfigFile(FILE, failing(code)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ file: FILE, message: expect.stringMatching(message) as unknown });
  });

  test.each<[string, Uint8Array, RegExp]>([
    [
      'UTF-16 LE',
      new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
      /saved as UTF-16: save it as UTF-8/,
    ],
    ['invalid UTF-8', new Uint8Array([0x7b, 0xc3, 0x28, 0x7d]), /not valid UTF-8/],
    ['over the cap', new Uint8Array(MAX_CONFIG_FILE_BYTES + 1).fill(0x20), /larger than/],
  ])('rejects bytes: %s', async (_label, bytes, message) => {
    await expect(loadConfigFile(FILE, returning(bytes))).rejects.toThrow(message);
  });

  it('decodes UTF-8 with a BOM and multi-byte names', async () => {
    const bytes = new TextEncoder().encode('\uFEFF{"mcpServers": {"café": {"command": "x"}}}');
    expect(bytes[0]).toBe(0xef);
    const result = await loadConfigFile(FILE, returning(bytes));
    expect(result.servers.map((s) => s.name)).toEqual(['café']);
  });

  describe('on the real file system', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-config-'));
    afterAll(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('reads a file with the default reader, or fs.promises.readFile', async () => {
      const file = path.join(dir, 'config.json');
      fs.writeFileSync(file, '{"mcpServers": {"a": {"command": "x"}}}');
      expect((await loadConfigFile(file)).servers).toHaveLength(1);
      expect((await loadConfigFile(file, fs.promises.readFile)).servers).toHaveLength(1);
    });

    it('treats a missing file as empty and a folder as an error', async () => {
      await expect(loadConfigFile(path.join(dir, 'missing.json'))).resolves.toMatchObject({
        servers: [],
      });
      await expect(loadConfigFile(dir)).rejects.toThrow(/folder, not a file/);
    });

    it.skipIf(process.platform === 'win32')(
      'never reads more than the cap plus one byte',
      async () => {
        expect((await readFileBounded('/dev/zero', 1000)).length).toBe(1001);
        const file = path.join(dir, 'small.json');
        fs.writeFileSync(file, 'x'.repeat(1000));
        expect((await readFileBounded(file, 1000)).length).toBe(1000);
      },
    );
  });
});
