import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchConfigFile, type ConfigWatch } from './config-watch';

// The dangerous direction is a change the host never notices (a server the user removed keeps
// running); a spurious reload finds nothing changed. These run against the real file system.

const DEBOUNCE_MS = 40;
const watches: ConfigWatch[] = [];

afterEach(() => {
  for (const watch of watches.splice(0)) watch.close();
});

function start(file: string, retryMs = 50) {
  let count = 0;
  const waiters: Array<() => void> = [];
  watches.push(
    watchConfigFile({
      file,
      debounceMs: DEBOUNCE_MS,
      retryMs,
      onChange: () => {
        count += 1;
        for (const wake of waiters.splice(0)) wake();
      },
    }),
  );
  return {
    count: () => count,
    /** Resolves at the next change (or rejects after `ms`). */
    next: (ms = 3_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(new Error('no change reported'));
        }, ms);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}

const settle = (ms = DEBOUNCE_MS * 4) => new Promise((resolve) => setTimeout(resolve, ms));

describe('watchConfigFile', () => {
  it('reports a burst of writes once', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sy-watch-'));
    const file = path.join(home, 'config.json');
    const watch = start(file);
    const changed = watch.next();
    for (let i = 0; i < 5; i += 1) writeFileSync(file, `{"mcpServers": {}, "n": ${i}}`);
    await changed;
    await settle();
    expect(watch.count()).toBe(1);
  });

  it("follows an editor's rename-on-save, again and again", async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sy-watch-'));
    const file = path.join(home, 'config.json');
    writeFileSync(file, '{}');
    const watch = start(file);
    for (let i = 0; i < 3; i += 1) {
      const changed = watch.next();
      writeFileSync(`${file}.swp`, `{"n": ${i}}`);
      renameSync(`${file}.swp`, file);
      await changed;
      await settle();
    }
    expect(watch.count()).toBe(3);
  });

  it('reports a deleted file (the reloader decides what that means)', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sy-watch-'));
    const file = path.join(home, 'config.json');
    writeFileSync(file, '{}');
    const watch = start(file);
    const changed = watch.next();
    expect(watch.count()).toBe(0);
    rmSync(file);
    await expect(changed).resolves.toBeUndefined();
    expect(watch.count()).toBe(1);
  });

  it('ignores other files in the folder (trust.json, the audit log)', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sy-watch-'));
    const watch = start(path.join(home, 'config.json'));
    writeFileSync(path.join(home, 'trust.json'), '{}');
    writeFileSync(path.join(home, 'audit.jsonl'), '{}\n');
    await settle();
    expect(watch.count()).toBe(0);
  });

  it('waits for a folder that does not exist yet, then reports the file', async () => {
    const home = path.join(mkdtempSync(path.join(tmpdir(), 'sy-watch-')), 'later');
    const file = path.join(home, 'config.json');
    const watch = start(file);
    const changed = watch.next();
    expect(watch.count()).toBe(0);
    mkdirSync(home);
    writeFileSync(file, '{"mcpServers": {}}');
    await expect(changed).resolves.toBeUndefined();
    expect(watch.count()).toBe(1);
  });

  it('follows a folder that is deleted and made again (a branch checkout)', async () => {
    const home = path.join(mkdtempSync(path.join(tmpdir(), 'sy-watch-')), '.vscode');
    mkdirSync(home);
    const file = path.join(home, 'mcp.json');
    writeFileSync(file, '{}');
    const watch = start(file);
    const gone = watch.next();
    rmSync(home, { recursive: true });
    await expect(gone).resolves.toBeUndefined();
    const back = watch.next();
    mkdirSync(home);
    writeFileSync(file, '{"servers": {}}');
    await expect(back).resolves.toBeUndefined();
    const edited = watch.next();
    writeFileSync(file, '{"servers": {"a": {}}}');
    await expect(edited).resolves.toBeUndefined();
  });

  it('follows edits of the file a symlinked config.json points to, and a link repointed', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sy-watch-'));
    const dotfiles = mkdtempSync(path.join(tmpdir(), 'sy-dotfiles-'));
    const other = mkdtempSync(path.join(tmpdir(), 'sy-dotfiles-'));
    const file = path.join(home, 'config.json');
    writeFileSync(path.join(dotfiles, 'switchyard.json'), '{}');
    writeFileSync(path.join(other, 'switchyard.json'), '{}');
    symlinkSync(path.join(dotfiles, 'switchyard.json'), file);
    const watch = start(file);
    // An edit where the user keeps the file, saved the way editors save.
    let changed = watch.next();
    writeFileSync(path.join(dotfiles, '.switchyard.json.swp'), '{"n": 1}');
    renameSync(path.join(dotfiles, '.switchyard.json.swp'), path.join(dotfiles, 'switchyard.json'));
    await changed;
    // The link pointed at another file: that one's edits count from then on.
    changed = watch.next();
    symlinkSync(path.join(other, 'switchyard.json'), `${file}.new`);
    renameSync(`${file}.new`, file);
    await changed;
    await settle();
    changed = watch.next();
    writeFileSync(path.join(other, 'switchyard.json'), '{"n": 2}');
    await changed;
  });

  it('reports nothing once closed', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sy-watch-'));
    const file = path.join(home, 'config.json');
    const watch = start(file);
    watches.pop()?.close();
    writeFileSync(file, '{}');
    await settle();
    expect(watch.count()).toBe(0);
  });
});
