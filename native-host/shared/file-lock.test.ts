import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { FileLockTimeoutError, lockFileOf, withFileLock } from './file-lock';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'sy-lock-'));
  file = path.join(dir, 'config.json');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const noWait = { sleep: () => new Promise<void>((resolve) => setImmediate(resolve)) };

/** A read-modify-write with a pause in the middle: unguarded, concurrent runs lose updates. */
async function increment(counter: string): Promise<void> {
  const value = Number(await readFile(counter, 'utf8').catch(() => '0'));
  await new Promise((resolve) => setImmediate(resolve));
  await writeFile(counter, String(value + 1));
}

/** The pid of a process that has exited (and been waited for). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

function plantLock(owner: unknown, ageMs = 0): void {
  const lock = lockFileOf(file);
  writeFileSync(lock, typeof owner === 'string' ? owner : JSON.stringify(owner));
  if (ageMs > 0) {
    const when = (Date.now() - ageMs) / 1000;
    utimesSync(lock, when, when);
  }
}

const LIVE_TOKEN = 'ab'.repeat(12);

describe('withFileLock', () => {
  test('serializes read-modify-writes in one process: 100 concurrent increments all land', async () => {
    const counter = path.join(dir, 'counter');
    await Promise.all(
      Array.from({ length: 100 }, () => withFileLock(counter, () => increment(counter), noWait)),
    );
    expect(readFileSync(counter, 'utf8')).toBe('100');
    expect(existsSync(lockFileOf(counter))).toBe(false);
    // 100 waiters polling one lock: seconds on a loaded 2-core machine, not a timing assertion.
  }, 60_000);

  test('serializes across processes: 4 processes x 25 increments give 100', async () => {
    const counter = path.join(dir, 'counter');
    const script = [
      `import { withFileLock } from ${JSON.stringify(path.join(import.meta.dirname, 'file-lock.ts'))};`,
      "import { readFile, writeFile } from 'node:fs/promises';",
      'const counter = process.argv[1];',
      'for (let i = 0; i < 25; i++) {',
      '  await withFileLock(counter, async () => {',
      "    const value = Number(await readFile(counter, 'utf8').catch(() => '0'));",
      '    await new Promise((r) => setTimeout(r, 1));',
      '    await writeFile(counter, String(value + 1));',
      '  });',
      '}',
    ].join('\n');
    const runs = Array.from(
      { length: 4 },
      () =>
        new Promise<number | null>((resolve) => {
          const child = spawn(
            process.execPath,
            ['--import', 'tsx', '--input-type=module', '-e', script, counter],
            { stdio: ['ignore', 'ignore', 'inherit'] },
          );
          child.on('exit', resolve);
        }),
    );
    expect(await Promise.all(runs)).toEqual([0, 0, 0, 0]);
    expect(readFileSync(counter, 'utf8')).toBe('100');
  }, 60_000);

  // The dangerous error is breaking a live holder's lock: two writers at once lose a change.
  test.each([
    {
      name: 'a live holder, fresh',
      owner: () => ({ pid: process.ppid, token: LIVE_TOKEN }),
      ageMs: 0,
      breaks: false,
    },
    {
      name: 'a dead holder',
      owner: () => ({ pid: deadPid(), token: LIVE_TOKEN }),
      ageMs: 0,
      breaks: true,
    },
    {
      name: 'a live holder older than staleMs (hung, or its pid reused)',
      owner: () => ({ pid: process.ppid, token: LIVE_TOKEN }),
      ageMs: 60_000,
      breaks: true,
    },
    {
      name: 'an unreadable owner, fresh (still being written)',
      owner: () => '{"pid":',
      ageMs: 0,
      breaks: false,
    },
    {
      name: 'an unreadable owner, old (crashed while writing)',
      owner: () => '',
      ageMs: 60_000,
      breaks: true,
    },
    {
      name: 'a foreign token shape, fresh',
      owner: () => ({ pid: process.ppid, token: '../x' }),
      ageMs: 0,
      breaks: false,
    },
  ])('a lock held by $name: broken=$breaks', async ({ owner, ageMs, breaks }) => {
    plantLock(owner(), ageMs);
    const before = readFileSync(lockFileOf(file), 'utf8');
    const run = withFileLock(file, () => Promise.resolve('ran'), {
      ...noWait,
      staleMs: 10_000,
      timeoutMs: 200,
    });
    if (breaks) {
      await expect(run).resolves.toBe('ran');
      expect(existsSync(lockFileOf(file))).toBe(false);
    } else {
      await expect(run).rejects.toBeInstanceOf(FileLockTimeoutError);
      expect(readFileSync(lockFileOf(file), 'utf8')).toBe(before);
    }
  });

  test('the timeout names the holder and the lock file, and says what to do', async () => {
    plantLock({ pid: process.ppid, token: LIVE_TOKEN });
    const error = await withFileLock(file, () => Promise.resolve(), {
      ...noWait,
      timeoutMs: 50,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileLockTimeoutError);
    expect(String(error)).toContain(`process ${process.ppid}`);
    expect(String(error)).toContain(lockFileOf(file));
    expect(String(error)).toContain('delete that file');
  });

  test('a break guard left behind by a crashed waiter is removed once old', async () => {
    plantLock({ pid: deadPid(), token: LIVE_TOKEN });
    const guard = `${lockFileOf(file)}.break`;
    writeFileSync(guard, '123');
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(guard, old, old);
    await expect(withFileLock(file, () => Promise.resolve(1), noWait)).resolves.toBe(1);
    expect(existsSync(guard)).toBe(false);
  });

  test('a fresh break guard is respected: the stale lock waits for its breaker', async () => {
    plantLock({ pid: deadPid(), token: LIVE_TOKEN });
    writeFileSync(`${lockFileOf(file)}.break`, '123');
    await expect(
      withFileLock(file, () => Promise.resolve(), { ...noWait, timeoutMs: 100 }),
    ).rejects.toBeInstanceOf(FileLockTimeoutError);
    expect(existsSync(lockFileOf(file))).toBe(true);
  });

  test('release leaves a lock that another process took over meanwhile', async () => {
    await withFileLock(
      file,
      async () => {
        await writeFile(lockFileOf(file), JSON.stringify({ pid: process.ppid, token: LIVE_TOKEN }));
      },
      noWait,
    );
    expect(JSON.parse(readFileSync(lockFileOf(file), 'utf8'))).toEqual({
      pid: process.ppid,
      token: LIVE_TOKEN,
    });
  });

  test('an error of the guarded function passes through and frees the lock', async () => {
    await expect(
      withFileLock(file, () => Promise.reject(new Error('refused')), noWait),
    ).rejects.toThrow('refused');
    expect(existsSync(lockFileOf(file))).toBe(false);
  });

  test('a missing folder is an error, not a wait', async () => {
    const missing = path.join(dir, 'no', 'such', 'config.json');
    await expect(withFileLock(missing, () => Promise.resolve(), noWait)).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });
});
