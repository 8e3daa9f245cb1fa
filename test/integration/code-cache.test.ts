import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CACHE_DIR_NAME, MAIN_BUNDLE_FILE } from '../../native-host/shared/code-cache';
import { HOST_BUNDLE, HOST_NODE } from './host-harness';

// The entry (dist/host/switchyard.cjs) loading the main bundle through V8's code cache, on a copy
// of the built files (decision 0033). What a user sees must not depend on the cache: every run
// here checks the command's output as well as what happened to the cache.

let dir: string;
let entry: string;
let cache: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'switchyard-code-cache-'));
  entry = path.join(dir, 'switchyard.cjs');
  copyFileSync(HOST_BUNDLE, entry);
  copyFileSync(
    path.join(path.dirname(HOST_BUNDLE), MAIN_BUNDLE_FILE),
    path.join(dir, MAIN_BUNDLE_FILE),
  );
  cache = path.join(dir, CACHE_DIR_NAME);
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const VERSION = /^\d+\.\d+\.\d+\S*\n$/;

function version(env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(HOST_NODE, [entry, 'version'], {
    env: { ...process.env, SWITCHYARD_CODE_CACHE: undefined, ...env },
    encoding: 'utf8',
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  expect(result.stdout).toMatch(VERSION);
  return result;
}

const cacheFiles = () => (existsSync(cache) ? readdirSync(cache).sort() : []);
const onlyCache = () => {
  const files = cacheFiles();
  expect(files).toHaveLength(1);
  return path.join(cache, files[0]!);
};

describe('the code cache', () => {
  it('is written by the first run into a private folder beside the bundle', () => {
    version();
    const file = onlyCache();
    expect(path.basename(file)).toMatch(/^[0-9a-f]{32}-cli-\d+\.\d+-.+\.v8cache$/);
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(file).size).toBeGreaterThan(10_000);
  });

  it('is used as it is by the next run: V8 accepts it, so it is not written again', () => {
    version();
    const file = onlyCache();
    const bytes = readFileSync(file);
    const { mtimeMs } = statSync(file);
    version();
    expect(cacheFiles()).toEqual([path.basename(file)]);
    expect(statSync(file).mtimeMs).toBe(mtimeMs);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('a cache file V8 rejects (garbage) changes nothing the user sees, and is replaced', () => {
    version();
    const file = onlyCache();
    writeFileSync(file, Buffer.alloc(4096, 0x5a));
    version();
    const replaced = readFileSync(file);
    expect(replaced.equals(Buffer.alloc(4096, 0x5a))).toBe(false);
    expect(replaced.length).toBeGreaterThan(10_000);
  });

  it('a rebuilt or edited bundle gets its own cache, and the old one is removed', () => {
    version();
    const before = onlyCache();
    appendFileSync(path.join(dir, MAIN_BUNDLE_FILE), '\n// edited\n');
    version();
    const after = onlyCache();
    expect(after).not.toBe(before);
  });

  it('reads a bundle that is not all ASCII as UTF-8, cached or not', () => {
    // esbuild writes ASCII, which the entry reads as Latin-1 (no UTF-8 pass): any other byte
    // must send it back to UTF-8, or text in the bundle would be garbled.
    appendFileSync(
      path.join(dir, MAIN_BUNDLE_FILE),
      "\nprocess.stdout.write('caf\u00e9 \u2713\\n');\n",
    );
    for (const run of ['compiled', 'cached']) {
      const result = spawnSync(HOST_NODE, [entry, 'version'], {
        env: { ...process.env, SWITCHYARD_CODE_CACHE: undefined },
        encoding: 'utf8',
      });
      expect(result.stderr, run).toBe('');
      expect(result.status, run).toBe(0);
      expect(result.stdout, run).toMatch(/\ncaf\u00e9 \u2713\n$/);
    }
    onlyCache();
  });

  it.runIf(process.platform !== 'win32')(
    'is neither read nor written in a folder other users can write to',
    () => {
      version();
      const file = onlyCache();
      // Planted where the run would look: garbage that a read would have V8 reject and replace.
      writeFileSync(file, Buffer.alloc(4096, 0x5a));
      chmodSync(cache, 0o777);
      version();
      expect(cacheFiles()).toEqual([path.basename(file)]);
      expect(readFileSync(file).equals(Buffer.alloc(4096, 0x5a))).toBe(true);
    },
  );

  it.runIf(process.platform !== 'win32')('is not used through a symbolic link', () => {
    const elsewhere = path.join(dir, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, cache);
    version();
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('is skipped when stack traces are to be mapped (--enable-source-maps): the usual loader runs', () => {
    const result = spawnSync(HOST_NODE, ['--enable-source-maps', entry, 'version'], {
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(VERSION);
    expect(existsSync(cache)).toBe(false);
  });

  it('is skipped entirely with SWITCHYARD_CODE_CACHE=off', () => {
    version({ SWITCHYARD_CODE_CACHE: 'off' });
    expect(existsSync(cache)).toBe(false);
  });

  it('a read-only bundle folder only means no cache', () => {
    if (process.getuid?.() === 0) return; // root writes anywhere
    chmodSync(dir, 0o555);
    try {
      version();
      expect(existsSync(cache)).toBe(false);
    } finally {
      chmodSync(dir, 0o755);
    }
  });

  it('a missing main bundle is a clear error on stderr, with nothing on stdout', () => {
    rmSync(path.join(dir, MAIN_BUNDLE_FILE));
    const result = spawnSync(HOST_NODE, [entry, 'version'], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /cannot read the host's main bundle .*switchyard-main\.cjs \(ENOENT\)\. Build it with 'npm run build:host'/,
    );
  });
});
