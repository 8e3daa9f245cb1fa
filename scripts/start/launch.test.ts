import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { browserArgs, browserEnvironment, launchDetached, snapshotExtension } from './launch';

// Dangerous direction: an argv that leaves out --user-data-dir would open the user's everyday
// profile with a development extension; one that passes --load-extension to branded Chrome
// would be ignored while npm start claimed it worked.

const BASE = {
  userDataDir: '/src/sy/.tmp/browser-profile',
  extensionDir: '/src/sy/.tmp/extension',
  startUrls: ['chrome-extension://id/options.html', 'file:///src/sy/.tmp/demo-files/welcome.md'],
  noSandbox: false,
};

describe('browserArgs', () => {
  it.each(['chromium', 'edge', 'brave', 'vivaldi', 'chrome-for-testing', 'other'] as const)(
    '%s loads the extension and nothing else',
    (kind) => {
      expect(browserArgs({ ...BASE, kind })).toEqual([
        '--user-data-dir=/src/sy/.tmp/browser-profile',
        '--no-first-run',
        '--no-default-browser-check',
        '--load-extension=/src/sy/.tmp/extension',
        '--disable-extensions-except=/src/sy/.tmp/extension',
        'chrome-extension://id/options.html',
        'file:///src/sy/.tmp/demo-files/welcome.md',
      ]);
    },
  );

  it('branded Chrome gets the profile and its pages, no extension flags', () => {
    const args = browserArgs({ ...BASE, kind: 'chrome', startUrls: ['file:///w.md'] });
    expect(args).toEqual([
      '--user-data-dir=/src/sy/.tmp/browser-profile',
      '--no-first-run',
      '--no-default-browser-check',
      'file:///w.md',
    ]);
  });

  it('adds --no-sandbox only when asked, before the pages', () => {
    const args = browserArgs({ ...BASE, kind: 'chromium', noSandbox: true });
    expect(args.indexOf('--no-sandbox')).toBe(args.length - 3);
  });

  it('keeps a path with spaces as one argument (no shell runs it)', () => {
    const args = browserArgs({ ...BASE, kind: 'edge', extensionDir: 'C:\\My Stuff\\extension' });
    expect(args).toContain('--load-extension=C:\\My Stuff\\extension');
  });
});

describe('browserEnvironment', () => {
  it("drops npm's variables and keeps the rest", () => {
    expect(
      browserEnvironment({
        PATH: '/usr/bin',
        HOME: '/home/ann',
        DISPLAY: ':0',
        npm_lifecycle_event: 'start',
        npm_config_cache: '/home/ann/.npm',
        INIT_CWD: '/src/sy',
      }),
    ).toEqual({ PATH: '/usr/bin', HOME: '/home/ann', DISPLAY: ':0' });
  });
});

describe('launchDetached (real processes)', () => {
  const dirs: string[] = [];
  const tmp = (): string => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-start-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('reports a program that dies at once, with its output in the log', async () => {
    const dir = tmp();
    const log = path.join(dir, 'browser.log');
    const outcome = await launchDetached(
      process.execPath,
      ['-e', 'console.error("Missing X server or $DISPLAY"); process.exit(1)'],
      { env: process.env, cwd: dir, logFile: log, earlyExitMs: 5_000 },
    );
    expect(outcome).toEqual({ kind: 'failed', message: 'it exited at once (code 1)' });
    expect(readFileSync(log, 'utf8')).toContain('Missing X server');
  });

  it('reports a program that exits 0 at once as handed over', async () => {
    const dir = tmp();
    const outcome = await launchDetached(process.execPath, ['-e', ''], {
      env: process.env,
      cwd: dir,
      logFile: path.join(dir, 'browser.log'),
      earlyExitMs: 5_000,
    });
    expect(outcome).toEqual({ kind: 'handed-over' });
  });

  it('reports a program that is missing', async () => {
    const dir = tmp();
    const outcome = await launchDetached(path.join(dir, 'no-such-browser'), [], {
      env: process.env,
      cwd: dir,
      logFile: path.join(dir, 'browser.log'),
    });
    expect(outcome.kind).toBe('failed');
  });

  it('leaves a program that keeps running alone', async () => {
    const dir = tmp();
    const outcome = await launchDetached(process.execPath, ['-e', 'setTimeout(() => {}, 5000)'], {
      env: process.env,
      cwd: dir,
      logFile: path.join(dir, 'browser.log'),
      earlyExitMs: 200,
    });
    expect(outcome.kind).toBe('running');
    if (outcome.kind === 'running') process.kill(outcome.pid, 'SIGKILL');
  });
});

describe('snapshotExtension', () => {
  it('replaces the copy with the build, and refuses an incomplete build', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-start-'));
    try {
      const source = path.join(dir, 'chrome-mv3');
      const target = path.join(dir, 'extension');
      mkdirSync(source);
      writeFileSync(path.join(source, 'manifest.json'), '{}');
      expect(() => {
        snapshotExtension(source, target);
      }).toThrow(/no background\.js: run `npm run build`/);
      writeFileSync(path.join(source, 'background.js'), '// new');
      mkdirSync(target);
      writeFileSync(path.join(target, 'stale.js'), '// old');
      snapshotExtension(source, target);
      expect(readFileSync(path.join(target, 'background.js'), 'utf8')).toBe('// new');
      expect(existsSync(path.join(target, 'stale.js'))).toBe(false);
      expect(existsSync(`${target}.next`)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
