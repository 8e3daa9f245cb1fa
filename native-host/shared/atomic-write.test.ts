import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from './atomic-write';

// What a crash or a power loss may leave, and what a symlinked file (a dotfiles manager's
// config.json) becomes: the old file or the new one, on disk, where the link points.

const posix = process.platform !== 'win32';
const folder = () => fs.mkdtempSync(path.join(tmpdir(), 'sy-atomic-'));
/** Files of `dir` whose names look like our temporary files. */
const leftovers = (dir: string) => fs.readdirSync(dir).filter((name) => name.endsWith('.tmp'));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('writeFileAtomic', () => {
  it('replaces the file with the text and the mode, leaving no temporary file', async () => {
    const dir = folder();
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, 'old', { mode: 0o644 });
    await writeFileAtomic(file, 'new', 0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe('new');
    if (posix) expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(leftovers(dir)).toEqual([]);
  });

  it('flushes the new file to disk before the rename, and the folder after it', async () => {
    const dir = folder();
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, 'old');
    const events: string[] = [];
    const opened = new Map<number, string>();
    const open = fs.promises.open.bind(fs.promises);
    vi.spyOn(fs.promises, 'open').mockImplementation(async (target, ...rest) => {
      const handle = await open(target, ...rest);
      opened.set(handle.fd, path.basename(String(target)));
      return handle;
    });
    const probe = await open(file, 'r');
    const prototype = Object.getPrototypeOf(probe) as fs.promises.FileHandle;
    await probe.close();
    vi.spyOn(prototype, 'sync').mockImplementation(function (this: fs.promises.FileHandle) {
      const name = opened.get(this.fd) ?? '?';
      events.push(
        `sync ${name === path.basename(dir) ? 'folder' : name.endsWith('.tmp') ? 'temporary' : name}`,
      );
      fs.fsyncSync(this.fd);
      return Promise.resolve();
    });
    const rename = fs.promises.rename.bind(fs.promises);
    vi.spyOn(fs.promises, 'rename').mockImplementation(async (from, to) => {
      events.push('rename');
      await rename(from, to);
    });

    await writeFileAtomic(file, 'new', 0o600);
    // A power loss after the rename must not find a renamed file whose data never reached the
    // disk (an empty config.json), nor the old directory entry.
    expect(events).toEqual(
      posix ? ['sync temporary', 'rename', 'sync folder'] : ['sync temporary', 'rename'],
    );
    expect(fs.readFileSync(file, 'utf8')).toBe('new');

    // A file that means nothing after a power loss (the servers' pid record) skips both.
    events.length = 0;
    await writeFileAtomic(file, 'newer', 0o600, { durable: false });
    expect(events).toEqual(['rename']);
    expect(fs.readFileSync(file, 'utf8')).toBe('newer');
  });

  it.skipIf(!posix)('writes through a symlink to its target and keeps the link', async () => {
    const dir = folder();
    const dotfiles = path.join(dir, 'dotfiles');
    fs.mkdirSync(dotfiles);
    const target = path.join(dotfiles, 'switchyard.json');
    fs.writeFileSync(target, 'old');
    const home = path.join(dir, 'home');
    fs.mkdirSync(home);
    const link = path.join(home, 'config.json');
    fs.symlinkSync('../dotfiles/switchyard.json', link);

    await writeFileAtomic(link, 'new', 0o600);

    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readlinkSync(link)).toBe('../dotfiles/switchyard.json');
    expect(fs.readFileSync(target, 'utf8')).toBe('new');
    expect(fs.statSync(target).mode & 0o777).toBe(0o600);
    expect(leftovers(home)).toEqual([]);
    expect(leftovers(dotfiles)).toEqual([]);
  });

  it.skipIf(!posix)(
    'follows a chain of links, and creates the target of a dangling one',
    async () => {
      const dir = folder();
      const target = path.join(dir, 'real.json');
      fs.symlinkSync(target, path.join(dir, 'middle.json'));
      const link = path.join(dir, 'config.json');
      fs.symlinkSync('middle.json', link);

      await writeFileAtomic(link, 'first', 0o600);
      expect(fs.readFileSync(target, 'utf8')).toBe('first');
      expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
      expect(fs.lstatSync(path.join(dir, 'middle.json')).isSymbolicLink()).toBe(true);
    },
  );

  it.skipIf(!posix)('refuses a symlink loop, writing nothing', async () => {
    const dir = folder();
    const link = path.join(dir, 'config.json');
    fs.symlinkSync('other.json', link);
    fs.symlinkSync('config.json', path.join(dir, 'other.json'));
    await expect(writeFileAtomic(link, 'new', 0o600)).rejects.toMatchObject({ code: 'ELOOP' });
    expect(leftovers(dir)).toEqual([]);
  });

  it.skipIf(!posix)('never follows a symlink planted at the temporary name', async () => {
    const dir = folder();
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, 'old');
    const victim = path.join(dir, 'victim');
    fs.writeFileSync(victim, 'untouched');
    // Plant a link at every name the temporary file could take in this folder: the write must
    // fail rather than open one of them.
    const open = fs.promises.open.bind(fs.promises);
    vi.spyOn(fs.promises, 'open').mockImplementation(async (target, ...rest) => {
      const name = String(target);
      if (name.endsWith('.tmp') && !fs.existsSync(name)) fs.symlinkSync(victim, name);
      return await open(target, ...rest);
    });
    await expect(writeFileAtomic(file, 'new', 0o600)).rejects.toMatchObject({ code: 'EEXIST' });
    expect(fs.readFileSync(victim, 'utf8')).toBe('untouched');
    expect(fs.readFileSync(file, 'utf8')).toBe('old');
  });
});
