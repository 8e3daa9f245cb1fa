import { describe, expect, it, test } from 'vitest';
import type { ImportClient, ImportSelection } from '../../protocol/import';
import { ConfigError } from '../config/load';
import {
  ImportRefusal,
  entryDigest,
  freeName,
  planImport,
  resolveSelections,
  type CurrentServers,
  type PlanItem,
  type SourceInput,
} from './plan';
import { sameLaunch } from './result-builder';
import type { ConvertResult, ImportedEntry } from './types';

/**
 * The dry run and the apply check. Dangerous direction: overwriting a configured server, or
 * writing something other than what the preview showed. Refusing (and asking to preview again)
 * is the safe failure.
 */

const npx = (pkg: string, env: Record<string, string> = {}): ImportedEntry => ({
  command: 'npx',
  args: ['-y', pkg],
  env,
});

function found(entries: Record<string, ImportedEntry>, problems: ConvertResult['problems'] = []) {
  return {
    state: 'found' as const,
    result: {
      entries: Object.entries(entries).map(([name, entry]) => ({ name, entry, notes: [] })),
      problems,
    },
  };
}

function source(client: ImportClient, outcome: SourceInput['outcome']): SourceInput {
  return { client, file: `/home/alex/${client}.json`, outcome };
}

function actions(items: readonly PlanItem[]): Record<string, string> {
  return Object.fromEntries(items.map((item) => [item.name, item.action]));
}

describe('planImport', () => {
  const current: CurrentServers = new Map<string, ImportedEntry | undefined>([
    ['github', npx('@modelcontextprotocol/server-github', { TOKEN: '${GITHUB_TOKEN}' })],
    ['memory', npx('@modelcontextprotocol/server-memory')],
    ['broken', undefined],
  ]);

  it('adds new servers, recognizes configured ones, and never overwrites a different one', () => {
    const [plan] = planImport(current, [
      source(
        'cursor',
        found(
          {
            // Same launch, env keys in another order: the same server.
            github: npx('@modelcontextprotocol/server-github', { TOKEN: '${GITHUB_TOKEN}' }),
            memory: npx('@modelcontextprotocol/server-memory@latest'),
            broken: npx('fixed'),
            fetch: { command: 'uvx', args: ['mcp-server-fetch'], env: {} },
          },
          [{ name: 'figma', reason: 'cannot convert: remote' }, { reason: 'projects is odd' }],
        ),
      ),
    ]);
    expect(actions(plan?.items ?? [])).toEqual({
      github: 'same',
      memory: 'conflict',
      broken: 'conflict',
      fetch: 'add',
      figma: 'cannot-convert',
    });
    expect(plan?.warnings).toEqual(['projects is odd']);
    const memory = plan?.items.find((i) => i.name === 'memory');
    expect(memory).toMatchObject({
      action: 'conflict',
      reason: 'a different server named "memory" is already in config.json',
      suggestedName: 'memory-cursor',
      existing: npx('@modelcontextprotocol/server-memory'),
    });
    expect(plan?.items.find((i) => i.name === 'broken')).toMatchObject({
      reason:
        'config.json already has an entry named "broken" (one Switchyard cannot load; fix or remove it)',
      existing: undefined,
    });
  });

  it('treats a server imported from an earlier source as taken', () => {
    const plans = planImport(new Map(), [
      source('cursor', found({ git: npx('git-a'), time: npx('time') })),
      source('claude-desktop', found({ git: npx('git-b'), time: npx('time') })),
    ]);
    expect(actions(plans[0]?.items ?? [])).toEqual({ git: 'add', time: 'add' });
    expect(plans[1]?.items).toMatchObject([
      {
        name: 'git',
        action: 'conflict',
        reason: 'a different server named "git" is imported from Cursor',
        suggestedName: 'git-claude-desktop',
      },
      { name: 'time', action: 'same', reason: 'the same server is imported from Cursor' },
    ]);
  });

  it('reports missing and unreadable sources without items', () => {
    const error = new ConfigError({ file: '/z.json', line: 3, column: 1, detail: 'broken' });
    const plans = planImport(current, [
      source('zed', { state: 'error', error }),
      source('codex', { state: 'missing' }),
    ]);
    expect(plans).toMatchObject([
      { client: 'zed', label: 'Zed', state: 'error', error, items: [] },
      { client: 'codex', label: 'Codex', state: 'missing', items: [] },
    ]);
  });

  it('gives every conflict a distinct free name', () => {
    const taken: CurrentServers = new Map([
      ['a', npx('x')],
      ['a-cursor', npx('y')],
    ]);
    const [plan] = planImport(taken, [source('cursor', found({ a: npx('z') }))]);
    expect(plan?.items[0]).toMatchObject({ action: 'conflict', suggestedName: 'a-cursor-2' });
  });
});

describe('freeName', () => {
  test.each<[string, string[], string]>([
    ['github', [], 'github-vscode'],
    ['github', ['github-vscode'], 'github-vscode-2'],
    ['github', ['github-vscode', 'github-vscode-2'], 'github-vscode-3'],
    ['n'.repeat(64), [], `${'n'.repeat(57)}-vscode`],
    ['ends with space before cut' + ' '.repeat(40) + 'x', [], 'ends with space before cut-vscode'],
  ])('%s', (name, taken, expected) => {
    const result = freeName(name, 'vscode', (c) => taken.includes(c));
    expect(result).toBe(expected);
    expect(Array.from(result).length).toBeLessThanOrEqual(64);
  });
});

describe('entryDigest', () => {
  const base: ImportedEntry = { command: 'npx', args: ['-y', 'a'], env: { A: '1', B: '2' } };

  it('ignores env key order', () => {
    expect(entryDigest({ ...base, env: { B: '2', A: '1' } })).toBe(entryDigest(base));
  });

  test.each<[string, ImportedEntry]>([
    ['command', { ...base, command: 'npm' }],
    ['an argument', { ...base, args: ['-y', 'b'] }],
    ['argument order', { ...base, args: ['a', '-y'] }],
    ['an env value', { ...base, env: { A: '1', B: '3' } }],
    ['an env key', { ...base, env: { A: '1', C: '2' } }],
    ['cwd', { ...base, cwd: '/x' }],
    ['switched off', { ...base, disabled: true }],
  ])('changes with %s', (_, changed) => {
    expect(entryDigest(changed)).not.toBe(entryDigest(base));
    expect(entryDigest(changed)).toMatch(/^[0-9a-f]{64}$/);
  });

  // A remote entry: what apply re-checks must cover where it connects and what it sends.
  const remote: ImportedEntry = {
    remote: {
      transport: 'streamable-http',
      url: 'https://x.example/mcp',
      headers: { Authorization: 'Bearer ${T}', 'X-A': '1' },
    },
  };

  it('ignores header order', () => {
    const reordered: ImportedEntry = {
      remote: { ...remote.remote, headers: { 'X-A': '1', Authorization: 'Bearer ${T}' } },
    };
    expect(entryDigest(reordered)).toBe(entryDigest(remote));
  });

  test.each<[string, ImportedEntry]>([
    ['the url', { remote: { ...remote.remote, url: 'https://evil.example/mcp' } }],
    ['the transport', { remote: { ...remote.remote, transport: 'sse' } }],
    [
      'a header value',
      { remote: { ...remote.remote, headers: { Authorization: 'Bearer ${U}', 'X-A': '1' } } },
    ],
    ['a header name', { remote: { ...remote.remote, headers: { Authorization: 'Bearer ${T}' } } }],
    ['switched off', { ...remote, disabled: true }],
  ])('changes with %s of a remote entry', (_, changed) => {
    expect(entryDigest(changed)).not.toBe(entryDigest(remote));
  });
});

describe('sameLaunch', () => {
  const remote: ImportedEntry = {
    remote: { transport: 'auto', url: 'https://x.example/mcp', headers: { A: '1' } },
  };
  // Dangerous direction: "same" when it is not, which skips the import and hides the difference.
  test.each<[string, ImportedEntry, ImportedEntry, boolean]>([
    ['the same endpoint', remote, { ...remote, disabled: true }, true],
    ['another url', remote, { remote: { ...remote.remote, url: 'https://y.example/mcp' } }, false],
    ['another transport', remote, { remote: { ...remote.remote, transport: 'sse' } }, false],
    ['another header value', remote, { remote: { ...remote.remote, headers: { A: '2' } } }, false],
    ['no headers', remote, { remote: { ...remote.remote, headers: {} } }, false],
    ['a local server', remote, { command: '', args: [], env: {} }, false],
    ['a local server, the other way', { command: '', args: [], env: {} }, remote, false],
  ])('%s', (_, a, b, same) => {
    expect(sameLaunch(a, b)).toBe(same);
  });
});

describe('resolveSelections', () => {
  const fetch: ImportedEntry = { command: 'uvx', args: ['mcp-server-fetch'], env: {} };
  const memory = npx('@modelcontextprotocol/server-memory');
  const converted = new Map([
    [
      'cursor' as const,
      {
        file: '/home/alex/.cursor/mcp.json',
        result: {
          entries: [
            { name: 'fetch', entry: fetch, notes: [] },
            { name: 'memory', entry: memory, notes: [] },
          ],
          problems: [],
        },
      },
    ],
  ]);
  const current: CurrentServers = new Map([['memory', npx('other')]]);
  const pick = (name: string, extra: Partial<ImportSelection> = {}): ImportSelection => ({
    source: 'cursor',
    name,
    digest: entryDigest(name === 'fetch' ? fetch : memory),
    ...extra,
  });

  it('writes new names and renamed conflicts, exactly as previewed', () => {
    const { writes, unchanged } = resolveSelections(current, converted, [
      pick('fetch'),
      pick('memory', { as: 'memory-cursor' }),
    ]);
    expect(writes).toEqual([
      { client: 'cursor', name: 'fetch', server: 'fetch', entry: fetch },
      { client: 'cursor', name: 'memory', server: 'memory-cursor', entry: memory },
    ]);
    expect(unchanged).toEqual([]);
  });

  it('skips a server that is already configured the same', () => {
    const same: CurrentServers = new Map([['fetch', fetch]]);
    const { writes, unchanged } = resolveSelections(same, converted, [pick('fetch')]);
    expect(writes).toEqual([]);
    expect(unchanged.map((w) => w.server)).toEqual(['fetch']);
  });

  test.each<[string, ImportSelection[], 'stale' | 'invalid', string]>([
    [
      'an entry that changed',
      [pick('fetch', { digest: 'f'.repeat(64) })],
      'stale',
      'changed in /home/alex/.cursor/mcp.json since the preview',
    ],
    [
      'an entry that is gone',
      [pick('gone')],
      'stale',
      "'gone' is no longer in Cursor's configuration",
    ],
    [
      'a source that is gone',
      [{ ...pick('fetch'), source: 'zed' }],
      'stale',
      "no longer in Zed's configuration",
    ],
    [
      'a conflict without a new name',
      [pick('memory')],
      'invalid',
      "config.json already has a different server named 'memory'; it is never overwritten",
    ],
    ['a new name that is taken', [pick('fetch', { as: 'memory' })], 'invalid', "named 'memory'"],
    ['an invalid new name', [pick('fetch', { as: '__proto__' })], 'invalid', 'is reserved'],
    [
      'two entries under one name',
      [pick('fetch', { as: 'x' }), pick('memory', { as: 'x' })],
      'invalid',
      "both be written as 'x'",
    ],
  ])('refuses %s, before anything is written', (_, selections, kind, message) => {
    let caught: unknown;
    try {
      resolveSelections(current, converted, selections);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ImportRefusal);
    expect(caught).toMatchObject({ kind });
    expect(caught instanceof Error ? caught.message : '').toContain(message);
  });
});
