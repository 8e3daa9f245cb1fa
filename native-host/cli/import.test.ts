import { describe, expect, it, test } from 'vitest';
import type { ImportSourcePreview } from '../../protocol/import';
import { planImport, type ImportWrite } from '../import/plan';
import {
  formatImportPreview,
  importSelections,
  importedLine,
  parseImportArguments,
} from './import';

/** `switchyard import`'s pure parts: its arguments, the printed preview, what --yes writes. */

describe('parseImportArguments', () => {
  test.each<[string[], unknown]>([
    [[], { from: undefined, file: undefined, rename: false, dryRun: false, yes: false }],
    [
      ['--from', 'cursor', '--from=zed', '--from', 'cursor', '--dry-run'],
      { from: ['cursor', 'zed'], dryRun: true },
    ],
    [
      ['--file', 'proj/.mcp.json', '--format', 'claude-code', '--yes', '--rename'],
      {
        from: undefined,
        file: { client: 'claude-code', file: '/work/proj/.mcp.json' },
        yes: true,
        rename: true,
      },
    ],
    [
      ['--file=/abs/mcp.json', '--format=vscode'],
      { file: { client: 'vscode', file: '/abs/mcp.json' } },
    ],
  ])('%j', (argv, expected) => {
    const parsed = parseImportArguments(argv, '/work');
    expect(parsed.ok && parsed.args).toMatchObject(expected as object);
  });

  test.each<[string[], string]>([
    [
      ['--from', 'atom'],
      "--from takes one of claude-desktop, claude-code, cursor, vscode, windsurf, codex, zed, not 'atom'",
    ],
    [['--from'], '--from takes one of'],
    [['--file', 'x.json'], '--file and --format go together'],
    [['--format', 'zed'], '--file and --format go together'],
    [['--file', '', '--format', 'zed'], '--file takes a path'],
    // Both files would be one source, `cursor`: the entries of one would be looked up in the other.
    [
      ['--file', 'x.json', '--format', 'cursor', '--from', 'zed', '--from', 'cursor'],
      "--file is already read as cursor: import cursor's own file in a second run",
    ],
    [['--force'], "unknown argument '--force'"],
    [['cursor'], "unknown argument 'cursor'"],
  ])('refuses %j', (argv, message) => {
    const parsed = parseImportArguments(argv, '/work');
    expect(parsed.ok ? '' : parsed.error).toContain(message);
  });
});

const preview: ImportSourcePreview[] = [
  {
    source: 'cursor',
    label: 'Cursor',
    path: '/home/alex/.cursor/mcp.json',
    state: 'found',
    error: null,
    warnings: ['something odd'],
    entries: [
      {
        name: 'fetch',
        action: 'add',
        launch: { commandLine: 'uvx mcp-server-fetch', envKeys: ['A', 'B'], cwd: '/w' },
        disabled: true,
        reason: null,
        existing: null,
        suggestedName: null,
        notes: ['a note'],
        digest: 'a'.repeat(64),
      },
      {
        name: 'memory',
        action: 'conflict',
        launch: { commandLine: 'npx -y m@2', envKeys: [], cwd: null },
        disabled: false,
        reason: 'a different server named "memory" is already in config.json',
        existing: { commandLine: 'npx -y m@1', envKeys: [], cwd: null },
        suggestedName: 'memory-cursor',
        notes: [],
        digest: 'b'.repeat(64),
      },
      {
        name: 'figma',
        action: 'cannot-convert',
        launch: null,
        disabled: false,
        reason: 'cannot convert: remote',
        existing: null,
        suggestedName: null,
        notes: [],
        digest: null,
      },
    ],
  },
  {
    source: 'zed',
    label: 'Zed',
    path: '/home/alex/.config/zed/settings.json',
    state: 'missing',
    error: null,
    entries: [],
    warnings: [],
  },
  {
    source: 'codex',
    label: 'Codex',
    path: '/home/alex/.codex/config.toml',
    state: 'error',
    error: '/home/alex/.codex/config.toml:3:1: broken',
    entries: [],
    warnings: [],
  },
];

describe('formatImportPreview', () => {
  it('prints every source and entry, env names but never values', () => {
    expect(formatImportPreview(preview, { rename: false })).toBe(
      [
        'Cursor: /home/alex/.cursor/mcp.json',
        '  + fetch: uvx mcp-server-fetch  (env: A, B; cwd: /w; switched off)',
        '      note: a note',
        '  ! memory: a different server named "memory" is already in config.json',
        '      this:     npx -y m@2',
        '      existing: npx -y m@1',
        "      not imported; --rename imports it as 'memory-cursor'",
        '  x figma: cannot convert: remote',
        '  ! something odd',
        'Zed: /home/alex/.config/zed/settings.json: not found',
        'Codex: cannot be read: /home/alex/.codex/config.toml:3:1: broken',
        '',
      ].join('\n'),
    );
    expect(formatImportPreview(preview, { rename: true })).toContain(
      "      imported as 'memory-cursor'",
    );
  });
});

describe('formatImportPreview: remote servers', () => {
  const remoteLaunch = (
    url: string,
    transport: 'streamable-http' | 'sse' | 'auto',
    headerNames: string[],
  ) => ({
    commandLine: url,
    envKeys: [],
    cwd: null,
    remote: { url, transport, headerNames },
  });
  const source: ImportSourcePreview = {
    source: 'vscode',
    label: 'VS Code',
    path: '/home/alex/.config/Code/User/mcp.json',
    state: 'found',
    error: null,
    warnings: [],
    entries: [
      {
        name: 'github',
        action: 'add',
        launch: remoteLaunch('https://api.githubcopilot.com/mcp/', 'streamable-http', [
          'Authorization',
        ]),
        disabled: false,
        reason: null,
        existing: null,
        suggestedName: null,
        notes: [],
        digest: 'c'.repeat(64),
      },
      {
        name: 'linear',
        action: 'conflict',
        launch: remoteLaunch('https://mcp.linear.app/mcp', 'auto', []),
        disabled: true,
        reason: 'a different server named "linear" is already in config.json',
        existing: remoteLaunch('https://mcp.linear.app/sse', 'sse', ['X-Key']),
        suggestedName: 'linear-vscode',
        notes: [],
        digest: 'd'.repeat(64),
      },
    ],
  };

  it('prints the url, the transport and header names', () => {
    expect(formatImportPreview([source], { rename: false })).toBe(
      [
        'VS Code: /home/alex/.config/Code/User/mcp.json',
        '  + github: https://api.githubcopilot.com/mcp/ (Streamable HTTP)  (headers: Authorization)',
        '  ! linear: a different server named "linear" is already in config.json',
        '      this:     https://mcp.linear.app/mcp (Streamable HTTP, else SSE)  (switched off)',
        '      existing: https://mcp.linear.app/sse (SSE)  (headers: X-Key)',
        "      not imported; --rename imports it as 'linear-vscode'",
        '',
      ].join('\n'),
    );
  });
});

describe('importedLine', () => {
  test.each<[ImportWrite, string]>([
    [
      {
        client: 'cursor',
        name: 'fetch',
        server: 'fetch',
        entry: { command: 'uvx', args: [], env: {} },
      },
      "Imported 'fetch' from Cursor.",
    ],
    [
      {
        client: 'codex',
        name: 'figma',
        server: 'figma-codex',
        entry: {
          remote: {
            transport: 'streamable-http',
            url: 'https://mcp.figma.com/mcp',
            headers: { Authorization: 'Bearer ${FIGMA_OAUTH_TOKEN}' },
          },
        },
      },
      "Imported 'figma' as 'figma-codex' from Codex: https://mcp.figma.com/mcp (Streamable HTTP), sending Authorization.",
    ],
    [
      {
        client: 'zed',
        name: 'wiki',
        server: 'wiki',
        entry: { remote: { transport: 'auto', url: 'https://mcp.deepwiki.com/mcp', headers: {} } },
      },
      "Imported 'wiki' from Zed: https://mcp.deepwiki.com/mcp (Streamable HTTP, else SSE).",
    ],
  ])('%j', (write, line) => {
    expect(importedLine(write)).toBe(line);
    // Header values (tokens, or references to them) are never printed.
    expect(importedLine(write)).not.toContain('Bearer');
  });
});

describe('importSelections', () => {
  const [plan] = planImport(new Map([['memory', { command: 'npx', args: ['m@1'], env: {} }]]), [
    {
      client: 'cursor',
      file: '/c.json',
      outcome: {
        state: 'found',
        result: {
          entries: [
            { name: 'fetch', entry: { command: 'uvx', args: [], env: {} }, notes: [] },
            { name: 'memory', entry: { command: 'npx', args: ['m@2'], env: {} }, notes: [] },
          ],
          problems: [{ name: 'figma', reason: 'remote' }],
        },
      },
    },
  ]);

  it('selects the additions, and the conflicts under their new names only with --rename', () => {
    const sources = plan === undefined ? [] : [plan];
    expect(importSelections(sources, false).map((s) => [s.name, s.as])).toEqual([
      ['fetch', undefined],
    ]);
    expect(importSelections(sources, true).map((s) => [s.name, s.as])).toEqual([
      ['fetch', undefined],
      ['memory', 'memory-cursor'],
    ]);
  });
});
