import { describe, expect, it } from 'vitest';
import { MAX_WARNINGS_PER_FILE } from './json-format';
import { MCP, load, mcp } from '../../test/support/workspace-files';

// Dangerous direction: anything a repository wrote reaching the launcher as `user` provenance, a
// trust claim being honoured, or a hostile file throwing out of loadWorkspace (which would stop
// the user's own servers). An entry skipped with a warning is the safe failure.

describe('loadWorkspace: entries', () => {
  it('skips a bad entry with file, line and key, and keeps the others', async () => {
    const text = [
      '{',
      '  "mcpServers": {',
      '    "good": {"command": "node"},',
      '    "bad": {"command": "node", "args": [1]},',
      '    "remote": {"url": "http://example.com/mcp"},',
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
        kind: 'invalid-entry',
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
    const config = await load({
      [MCP]: mcp({ github: { args: 'x' }, remote: { type: 'sse' }, ws: { type: 'ws' } }),
    });
    expect(config.servers).toEqual([]);
    expect(config.warnings.map((w) => [w.kind, w.key])).toEqual([
      ['invalid-entry', 'mcpServers.github.args'],
      ['invalid-entry', 'mcpServers.remote.url'],
      ['unsupported-transport', 'mcpServers.ws.type'],
    ]);
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

  it('reports at most 50 warnings for a file that repeats a key 40,000 times, and says how many more', async () => {
    // 240 KB on one line; every warning used to count its line and column from the start.
    const text = `{"mcpServers": {"c": {"command": "z"}}, ${'"a": 0, '.repeat(40_000)}"end": 0}`;
    const config = await load({ [MCP]: text });
    expect(config.servers.map((s) => s.name)).toEqual(['c']);
    expect(config.warnings).toHaveLength(MAX_WARNINGS_PER_FILE);
    expect(config.warnings[0]).toMatchObject({ kind: 'duplicate-key', key: 'a', line: 1 });
    expect(config.warnings.at(-1)?.message).toMatch(
      /\(and 39949 more warnings in this file, not listed: fix these first\)$/,
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
