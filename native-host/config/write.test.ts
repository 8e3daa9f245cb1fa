import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from './load';
import { updateConfigFile } from './write';

const home = () => mkdtempSync(join(tmpdir(), 'sy-write-'));

describe('updateConfigFile', () => {
  it('changes one key and keeps the rest, user-readable only', async () => {
    const file = join(home(), 'config.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { a: { command: 'x' } }, custom: [1, 2] }));
    await updateConfigFile(file, (raw) => {
      raw['toolPolicy'] = { 'a__*': 'allow' };
    });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      mcpServers: { a: { command: 'x' } },
      custom: [1, 2],
      toolPolicy: { 'a__*': 'allow' },
    });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('creates a missing file', async () => {
    const file = join(home(), 'sub', 'config.json');
    await updateConfigFile(file, (raw) => {
      raw['toolPolicy'] = {};
    });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ mcpServers: {}, toolPolicy: {} });
  });

  it('never overwrites a file the user broke by hand', async () => {
    const file = join(home(), 'config.json');
    writeFileSync(file, '{"mcpServers": {},}');
    await expect(updateConfigFile(file, () => undefined)).rejects.toBeInstanceOf(ConfigError);
    expect(readFileSync(file, 'utf8')).toBe('{"mcpServers": {},}');
  });

  it('never rewrites a file that is not UTF-8 (its bytes would come back as U+FFFD)', async () => {
    const file = join(home(), 'config.json');
    // "café" in Latin-1: the loader refuses it, so an update must too, leaving it as it was.
    const bytes = Buffer.concat([
      Buffer.from('{"mcpServers": {}, "note": "caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}'),
    ]);
    writeFileSync(file, bytes);
    await expect(
      updateConfigFile(file, (raw) => {
        raw['toolPolicy'] = { 'a__*': 'allow' };
      }),
    ).rejects.toThrow(/not valid UTF-8/);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('applies concurrent updates one after the other, losing none', async () => {
    const file = join(home(), 'config.json');
    writeFileSync(file, '{"mcpServers": {}}');
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        updateConfigFile(file, (raw) => {
          raw[`key${i}`] = i;
        }),
      ),
    );
    const written = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(written)).toHaveLength(21);
  });

  it('refuses a change that would make the file invalid', async () => {
    const file = join(home(), 'config.json');
    writeFileSync(file, '{"mcpServers": {}}');
    await expect(
      updateConfigFile(file, (raw) => {
        raw['mcpServers'] = 'nope';
      }),
    ).rejects.toBeInstanceOf(ConfigError);
    expect(readFileSync(file, 'utf8')).toBe('{"mcpServers": {}}');
  });

  it.skipIf(process.platform === 'win32')(
    'keeps a config.json that is a symlink (a dotfiles manager’s), changing what it points to',
    async () => {
      const dir = home();
      mkdirSync(join(dir, 'dotfiles'));
      const target = join(dir, 'dotfiles', 'switchyard.json');
      writeFileSync(target, '{"mcpServers": {}}');
      const file = join(dir, 'config.json');
      symlinkSync(target, file);
      await updateConfigFile(file, (raw) => {
        raw['toolPolicy'] = { 'a__*': 'allow' };
      });
      expect(lstatSync(file).isSymbolicLink()).toBe(true);
      expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual({
        mcpServers: {},
        toolPolicy: { 'a__*': 'allow' },
      });
    },
  );
});
