import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { FileSecretStore, SECRETS_FILE_NAME } from './file-store';

const posix = process.platform !== 'win32';
let home: string;
let store: FileSecretStore;

beforeEach(() => {
  home = path.join(mkdtempSync(path.join(tmpdir(), 'switchyard-secrets-')), 'home');
  store = new FileSecretStore({ home, platform: process.platform });
});

const file = () => path.join(home, SECRETS_FILE_NAME);

describe('FileSecretStore', () => {
  test('round-trips values; creates the home 0700 and the file 0600', async () => {
    expect(await store.get('var:A')).toBeUndefined();
    expect(await store.list('var:')).toEqual([]);
    await store.set('var:B', 'two\nlines');
    await store.set('var:A', '');
    await store.set('oauth:srv:tokens', '{"access_token":"x"}');
    expect(await store.get('var:B')).toBe('two\nlines');
    expect(await store.get('var:A')).toBe('');
    expect(await store.list('var:')).toEqual(['var:A', 'var:B']);
    expect(await store.delete('var:A')).toBe(true);
    expect(await store.delete('var:A')).toBe(false);
    expect(JSON.parse(readFileSync(file(), 'utf8'))).toEqual({
      version: 1,
      secrets: { 'oauth:srv:tokens': '{"access_token":"x"}', 'var:B': 'two\nlines' },
    });
    if (posix) {
      expect(statSync(file()).mode & 0o777).toBe(0o600);
      expect(statSync(home).mode & 0o777).toBe(0o700);
    }
    expect(store.info).toEqual({ kind: 'file', where: `${file()} (mode 0600)` });
  });

  test('deleting what is not there does not create the file', async () => {
    expect(await store.delete('var:A')).toBe(false);
    expect(() => statSync(file())).toThrow();
  });

  // Dangerous direction: a corrupt file read as empty, which the next write would clobber.
  test.each([
    ['not JSON', '{"version": 1, "secrets": {', /not valid JSON/],
    ['a wrong shape', '{"secrets": {"var:A": "x"}}', /is not \{"version": 1/],
    ['a non-string value', '{"version": 1, "secrets": {"var:A": 1}}', /is not \{"version": 1/],
    ['an extra field', '{"version": 1, "secrets": {}, "x": 1}', /is not \{"version": 1/],
    ['an invalid key', '{"version": 1, "secrets": {"A\\nB": "x"}}', /a key is not valid/],
    ['a __proto__ key', '{"version": 1, "secrets": {"__proto__": "x"}}', /a key is not valid/],
  ])('%s is an error naming the file, for reads and writes alike', async (_name, text, message) => {
    await store.set('var:SEED', 'x');
    writeFileSync(file(), text, { mode: 0o600 });
    await expect(store.get('var:A')).rejects.toThrow(message);
    await expect(store.set('var:A', 'v')).rejects.toThrow(file());
    expect(readFileSync(file(), 'utf8')).toBe(text);
  });

  test('an oversized file is refused, not buffered', async () => {
    await store.set('var:SEED', 'x');
    writeFileSync(file(), ' '.repeat(1024 * 1024 + 10), { mode: 0o600 });
    await expect(store.list('')).rejects.toThrow(/larger than 1048576 bytes/);
  });

  test.skipIf(!posix)('a file other users can read is refused with what to do', async () => {
    await store.set('var:A', 'x');
    chmodSync(file(), 0o644);
    await expect(store.get('var:A')).rejects.toThrow(
      /can be read or written by other users \(mode 0644\).*replace them.*chmod 600/,
    );
    chmodSync(file(), 0o620);
    await expect(store.set('var:B', 'y')).rejects.toThrow(/mode 0620/);
    chmodSync(file(), 0o600);
    expect(await store.get('var:A')).toBe('x');
  });

  test.skipIf(!posix)('a symlink or a FIFO in its place is refused, without hanging', async () => {
    await store.set('var:A', 'x');
    const elsewhere = path.join(home, 'elsewhere.json');
    writeFileSync(elsewhere, '{"version":1,"secrets":{}}', { mode: 0o600 });
    const { rmSync } = await import('node:fs');
    rmSync(file());
    symlinkSync(elsewhere, file());
    await expect(store.get('var:A')).rejects.toThrow(/symbolic link/);
    rmSync(file());
    execFileSync('mkfifo', ['-m', '600', file()]);
    await expect(store.get('var:A')).rejects.toThrow(/not a regular file/);
  });

  test('concurrent writers from several stores lose nothing (the lock serialises them)', async () => {
    const stores = Array.from(
      { length: 4 },
      () => new FileSecretStore({ home, platform: process.platform }),
    );
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => (stores[i % 4] ?? store).set(`var:K${i}`, `value ${i}`)),
    );
    const keys = await store.list('var:');
    expect(keys).toHaveLength(40);
    expect(await store.get('var:K39')).toBe('value 39');
  });
});
