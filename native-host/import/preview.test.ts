import { describe, expect, it, test } from 'vitest';
import { ImportSourcePreviewSchema } from '../../protocol/import';
import { ConfigError } from '../config/load';
import { entryDigest, planImport } from './plan';
import { MAX_COMMAND_LINE_CHARS, commandLine, sourcePreview } from './preview';
import type { ImportedEntry } from './types';

/**
 * What the options page and the terminal show of foreign files. Dangerous direction: a card that
 * hides part of what would run (an escape sequence, a bidi override), or one that shows a secret
 * written in a client's env block.
 */

describe('commandLine', () => {
  // Quoted as the popup's command-line field splits it (protocol/argv.ts), so it can be pasted.
  test.each<[string, string[], string]>([
    [
      'npx',
      ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/My Documents'],
      "npx -y @modelcontextprotocol/server-filesystem '/Users/me/My Documents'",
    ],
    ['uvx', ['mcp-server-git', '--repository=/src/a'], 'uvx mcp-server-git --repository=/src/a'],
    ['node', [''], "node ''"],
    ['node', ["it's"], 'node "it\'s"'],
  ])('%s %j', (command, args, expected) => {
    expect(commandLine(command, args)).toBe(expected);
  });
});

function previewOf(entry: ImportedEntry, name = 'srv') {
  const [plan] = planImport(new Map(), [
    {
      client: 'cursor',
      file: '/home/alex/.cursor/mcp.json',
      outcome: { state: 'found', result: { entries: [{ name, entry, notes: [] }], problems: [] } },
    },
  ]);
  if (plan === undefined) throw new Error('no plan');
  return sourcePreview(plan);
}

describe('sourcePreview', () => {
  it('shows every hidden character of what would run', () => {
    const preview = previewOf({
      command: 'npx',
      args: ['-y', '\u001b[8mhidden\u001b[0m', 'safe\u202eexe.txt', 'zero\u200bwidth'],
      env: {},
    });
    const line = preview.entries[0]?.launch?.commandLine ?? '';
    // eslint-disable-next-line no-control-regex -- checking that none is left is the point.
    expect(line).not.toMatch(/[\u001b\u202e\u200b]/);
    // The escape sequence is shown, not obeyed or dropped; the bidi override becomes a marker.
    expect(line).toContain('⟦U+001B⟧[8mhidden⟦U+001B⟧[0m');
    expect(line).toContain('safe⟦U+202E⟧exe.txt');
    expect(line).toContain('zero⟦U+200B⟧width');
  });

  it('shows env names, never their values', () => {
    const preview = previewOf({
      command: 'npx',
      args: [],
      env: { GITHUB_TOKEN: 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB', MODE: 'x' },
    });
    expect(preview.entries[0]?.launch?.envKeys).toEqual(['GITHUB_TOKEN', 'MODE']);
    expect(JSON.stringify(preview)).not.toContain('ghp_');
  });

  it('caps a very long command line with a visible marker', () => {
    const preview = previewOf({ command: 'node', args: ['x'.repeat(10_000)], env: {} });
    const line = preview.entries[0]?.launch?.commandLine ?? '';
    expect(line.length).toBeLessThanOrEqual(MAX_COMMAND_LINE_CHARS);
    expect(line).toContain('[truncated: showing');
  });

  it('matches the protocol schema and carries the digest to apply with', () => {
    const entry: ImportedEntry = {
      command: 'uvx',
      args: ['mcp-server-time'],
      env: {},
      disabled: true,
    };
    const preview = previewOf(entry);
    expect(ImportSourcePreviewSchema.parse(preview)).toEqual(preview);
    expect(preview.entries[0]).toMatchObject({
      name: 'srv',
      action: 'add',
      disabled: true,
      digest: entryDigest(entry),
      launch: { commandLine: 'uvx mcp-server-time', envKeys: [], cwd: null },
    });
  });

  it('shows a remote server by its url, transport and header names, never header values', () => {
    const entry: ImportedEntry = {
      remote: {
        transport: 'sse',
        url: 'https://mcp.example.com/sse?team=\u202eeng',
        headers: { Authorization: 'Bearer sk-live-0123456789', 'X-Team': 'eng' },
      },
    };
    const preview = previewOf(entry);
    expect(ImportSourcePreviewSchema.parse(preview)).toEqual(preview);
    const url = 'https://mcp.example.com/sse?team=⟦U+202E⟧eng';
    expect(preview.entries[0]).toMatchObject({
      action: 'add',
      digest: entryDigest(entry),
      launch: {
        commandLine: url,
        envKeys: [],
        cwd: null,
        remote: { url, transport: 'sse', headerNames: ['Authorization', 'X-Team'] },
      },
    });
    expect(JSON.stringify(preview)).not.toContain('sk-live');
  });

  it('sanitizes the error of a broken file', () => {
    const [plan] = planImport(new Map(), [
      {
        client: 'zed',
        file: '/home/alex/.config/zed/settings.json',
        outcome: {
          state: 'error',
          error: new ConfigError({
            file: '/x\u202e/settings.json',
            line: 2,
            column: 3,
            detail: 'bad\u001b[2J',
          }),
        },
      },
    ]);
    if (plan === undefined) throw new Error('no plan');
    const preview = sourcePreview(plan);
    expect(preview.state).toBe('error');
    expect(preview.error).toBe('/x⟦U+202E⟧/settings.json:2:3: bad⟦U+001B⟧[2J');
  });
});
