import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, test } from 'vitest';
import { readSource, type SourceOutcome } from './read-source';

/**
 * Reading a client's file from disk: bounded, never blocking on a FIFO or device, never
 * following a path into something that is not a regular file. Dangerous direction: a read that
 * hangs the host or feeds it its own stdin; an error is the safe failure.
 */

const context = { homedir: '/home/alex', platform: 'linux' as const };
let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-import-'));
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function errorOf(outcome: SourceOutcome): string {
  if (outcome.state !== 'error') throw new Error(`expected an error, got ${outcome.state}`);
  return outcome.error.message;
}

const cursorFile = '{"mcpServers": {"time": {"command": "uvx", "args": ["mcp-server-time"]}}}';

describe('readSource', () => {
  it('converts a regular file, and one behind a symlink', async () => {
    fs.writeFileSync(path.join(dir, 'real.json'), cursorFile);
    fs.symlinkSync('real.json', path.join(dir, 'mcp.json'));
    for (const name of ['real.json', 'mcp.json']) {
      const outcome = await readSource('cursor', path.join(dir, name), context);
      expect(outcome.state === 'found' && outcome.result.entries.map((e) => e.name)).toEqual([
        'time',
      ]);
    }
  });

  it('reports a missing file (or a missing folder on the way) as missing', async () => {
    expect(await readSource('cursor', path.join(dir, 'nope.json'), context)).toEqual({
      state: 'missing',
    });
    fs.writeFileSync(path.join(dir, 'file'), '');
    expect(await readSource('cursor', path.join(dir, 'file', 'mcp.json'), context)).toEqual({
      state: 'missing',
    });
  });

  test.runIf(process.platform !== 'win32')(
    'refuses a FIFO and a device without reading (or blocking on) them',
    async () => {
      execFileSync('mkfifo', [path.join(dir, 'fifo.json')]);
      fs.symlinkSync('/dev/zero', path.join(dir, 'zero.json'));
      fs.symlinkSync('/dev/stdin', path.join(dir, 'stdin.json'));
      for (const name of ['fifo.json', 'zero.json', 'stdin.json']) {
        // stdin may be a pipe, a socket (ENXIO on open) or /dev/null: never read either way.
        const message = errorOf(await readSource('cursor', path.join(dir, name), context));
        expect(message).toMatch(/this is not a regular file|cannot read the file/);
      }
    },
  );

  it('refuses a folder', async () => {
    fs.mkdirSync(path.join(dir, 'mcp.json'));
    expect(errorOf(await readSource('cursor', path.join(dir, 'mcp.json'), context))).toMatch(
      /not a regular file|folder/,
    );
  });

  it('refuses a file over the cap without reading it all', async () => {
    const file = path.join(dir, 'mcp.json');
    fs.writeFileSync(file, `{"mcpServers": {}, "pad": "${'x'.repeat(1_100_000)}"}`);
    expect(errorOf(await readSource('cursor', file, context))).toContain(
      'the file is larger than 1048576 bytes; nothing was imported from it',
    );
  });

  it('reads a ~/.claude.json of several megabytes (Claude Code keeps history in it)', async () => {
    const file = path.join(dir, '.claude.json');
    const history = Array.from({ length: 20_000 }, (_, i) => ({
      display: `prompt ${i} `.repeat(8),
    }));
    fs.writeFileSync(
      file,
      JSON.stringify({ mcpServers: { time: { command: 'uvx' } }, projects: { '/p': { history } } }),
    );
    expect(fs.statSync(file).size).toBeGreaterThan(2_000_000);
    const outcome = await readSource('claude-code', file, context);
    expect(outcome.state === 'found' && outcome.result.entries.map((e) => e.name)).toEqual([
      'time',
    ]);
  });

  test.each<[string, Buffer, string]>([
    ['UTF-16', Buffer.from('\uFEFF{}', 'utf16le'), 'the file is saved as UTF-16: save it as UTF-8'],
    ['not UTF-8', Buffer.from([0x7b, 0xff, 0x7d]), 'the file is not valid UTF-8'],
    ['truncated', Buffer.from('{"mcpServers": {'), "a '}' is missing"],
  ])('refuses a file that is %s', async (_, bytes, message) => {
    const file = path.join(dir, 'mcp.json');
    fs.writeFileSync(file, bytes);
    expect(errorOf(await readSource('cursor', file, context))).toContain(message);
  });

  test.runIf(process.platform !== 'win32' && process.getuid?.() !== 0)(
    'says what to do about a file it may not read',
    async () => {
      const file = path.join(dir, 'mcp.json');
      fs.writeFileSync(file, cursorFile, { mode: 0o000 });
      expect(errorOf(await readSource('cursor', file, context))).toContain('permission denied');
    },
  );
});
