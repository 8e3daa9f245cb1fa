import { describe, expect, it, test } from 'vitest';
import type { ImportEntryPreview, ImportSourcePreview } from '../../../protocol/import';
import {
  defaultSelection,
  describeImportAction,
  entryKey,
  isSelectable,
  remoteDetail,
  selectionsOf,
  sourceSummary,
} from './import-view';

// The dangerous direction is writing what the user did not tick or did not see: an entry that
// cannot be converted sent anyway, a conflict silently overwriting the configured server, or a
// selection that does not quote the digest of what the preview showed.

const digest = (c: string) => c.repeat(64);
const launch = { commandLine: 'npx -y x', envKeys: [], cwd: null };

function entry(overrides: Partial<ImportEntryPreview>): ImportEntryPreview {
  return {
    name: 'x',
    action: 'add',
    launch,
    disabled: false,
    reason: null,
    existing: null,
    suggestedName: null,
    notes: [],
    digest: digest('a'),
    ...overrides,
  };
}

const claude: ImportSourcePreview = {
  source: 'claude-desktop',
  label: 'Claude Desktop',
  path: '/home/alex/.config/Claude/claude_desktop_config.json',
  state: 'found',
  error: null,
  warnings: [],
  entries: [
    entry({ name: 'memory', digest: digest('1') }),
    entry({ name: 'github', action: 'same', existing: launch, digest: null }),
    entry({
      name: 'fs',
      action: 'conflict',
      existing: launch,
      suggestedName: 'fs-2',
      digest: digest('2'),
    }),
    entry({ name: 'remote', action: 'cannot-convert', launch: null, reason: 'url', digest: null }),
  ],
};
const cursor: ImportSourcePreview = {
  ...claude,
  source: 'cursor',
  label: 'Cursor',
  entries: [entry({ name: 'memory', digest: digest('3') })],
};

describe('actions', () => {
  test.each<[string, ImportEntryPreview, string, boolean]>([
    ['a new server', entry({}), 'add', true],
    ['the same server', entry({ action: 'same', digest: null }), 'already configured', false],
    [
      'a conflict with a free name',
      entry({ action: 'conflict', suggestedName: 'x-2' }),
      'conflict: would be added as x-2',
      true,
    ],
    [
      'a conflict without one',
      entry({ action: 'conflict' }),
      'conflict: another server has this name',
      false,
    ],
    [
      'an entry that cannot be converted',
      entry({ action: 'cannot-convert', launch: null, digest: null }),
      'cannot convert',
      false,
    ],
  ])('%s', (_, preview, words, selectable) => {
    expect(describeImportAction(preview)).toBe(words);
    expect(isSelectable(preview)).toBe(selectable);
  });
});

describe('selection', () => {
  it('ticks every new server, and no conflict, by default', () => {
    expect([...defaultSelection([claude, cursor])].sort()).toEqual(
      [entryKey('claude-desktop', 'memory'), entryKey('cursor', 'memory')].sort(),
    );
  });

  it('quotes the digest and imports a ticked conflict under its suggested name', () => {
    const ticked = new Set([
      entryKey('claude-desktop', 'fs'),
      entryKey('claude-desktop', 'memory'),
      // Ticks on entries that cannot be imported are ignored.
      entryKey('claude-desktop', 'remote'),
      entryKey('claude-desktop', 'github'),
    ]);
    expect(selectionsOf([claude, cursor], ticked)).toEqual([
      { source: 'claude-desktop', name: 'memory', digest: digest('1') },
      { source: 'claude-desktop', name: 'fs', digest: digest('2'), as: 'fs-2' },
    ]);
  });
});

describe('source summary', () => {
  it('counts what the file holds', () => {
    expect(sourceSummary(claude)).toBe(
      '1 to add, 1 already configured, 1 conflict, 1 cannot be converted.',
    );
  });

  it('says when there is no file or it is broken', () => {
    expect(sourceSummary({ ...claude, state: 'missing', entries: [] })).toMatch(/No config/);
    expect(sourceSummary({ ...claude, state: 'error', error: 'line 3: bad JSON' })).toBe(
      'line 3: bad JSON',
    );
    expect(sourceSummary({ ...claude, entries: [] })).toBe('No servers in this file.');
  });
});

describe('remoteDetail', () => {
  const remote = (transport: 'streamable-http' | 'sse' | 'auto', headerNames: string[]) => ({
    commandLine: 'https://x.example/mcp',
    envKeys: [],
    cwd: null,
    remote: { url: 'https://x.example/mcp', transport, headerNames },
  });
  test.each<[Parameters<typeof remoteDetail>[0], string | null]>([
    [launch, null],
    [remote('streamable-http', []), 'Streamable HTTP'],
    [remote('sse', ['Authorization', 'X-Team']), 'SSE; headers: Authorization, X-Team'],
    [remote('auto', []), 'Streamable HTTP, else SSE'],
  ])('%j', (given, expected) => {
    expect(remoteDetail(given)).toBe(expected);
  });
});
