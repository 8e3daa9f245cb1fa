import { constants } from 'node:fs';
import { access, chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  resolveCommand,
  type ResolveCommandOptions,
  type ResolvedCommand,
} from './resolve-command';

type Entry = 'exec' | 'file' | 'dir';

/** An in-memory filesystem; records every path probed. win32 lookups ignore case, as NTFS does. */
function fakeFs(files: Record<string, Entry>, platform: NodeJS.Platform) {
  const key = (p: string) => (platform === 'win32' ? p.toLowerCase() : p);
  const table = new Map(Object.entries(files).map(([p, e]) => [key(p), e]));
  const probed: string[] = [];
  return {
    probed,
    isFile: (p: string) => {
      probed.push(p);
      const entry = table.get(key(p));
      return entry === 'exec' || entry === 'file';
    },
    isExecutable: (p: string) => table.get(key(p)) === 'exec',
    // Every batch file here is empty: a batch file, not an npm shim (windows-shims.test.ts reads
    // real shims).
    readFile: () => Promise.resolve(''),
  };
}

interface Row {
  name: string;
  command: string;
  cwd?: string;
  pathEnv?: string | undefined;
  pathExt?: string;
  expected: { path: string } | { reason: Extract<ResolvedCommand, { ok: false }>['reason'] };
  message?: RegExp;
}

function expectResult(result: ResolvedCommand, row: Row): void {
  if ('path' in row.expected) {
    expect(result).toEqual({ ok: true, path: row.expected.path });
    return;
  }
  expect(result.ok).toBe(false);
  if (!result.ok) {
    expect(result.reason).toBe(row.expected.reason);
    if (row.message) expect(result.message).toMatch(row.message);
  }
}

// Banner: the dangerous direction is resolving to a file the user did not name — anything found
// through the cwd or a relative PATH entry. A refusal costs one config edit; the other, a
// repository planting `./node` and having it run with the user's rights (design D6).

const LINUX_PATH = '/usr/local/bin:/usr/bin:.::bin:/opt/tools';
const LINUX_FS: Record<string, Entry> = {
  '/usr/bin/node': 'exec',
  '/usr/local/bin/uvx': 'file',
  '/opt/tools/uvx': 'exec',
  '/usr/bin/onlyfile': 'file',
  '/usr/local/bin/python3': 'dir',
  '/usr/bin/python3': 'exec',
  '/opt/dir': 'dir',
  '/srv/app/server': 'exec',
  // Reachable only through the cwd or the relative entries: must never be found.
  evil: 'exec',
  './evil': 'exec',
  'bin/evil': 'exec',
  server: 'exec',
};

const LINUX_ROWS: Row[] = [
  { name: 'bare name on PATH', command: 'node', expected: { path: '/usr/bin/node' } },
  { name: 'skips a non-executable hit', command: 'uvx', expected: { path: '/opt/tools/uvx' } },
  { name: 'skips a directory hit', command: 'python3', expected: { path: '/usr/bin/python3' } },
  {
    name: 'only a non-executable hit',
    command: 'onlyfile',
    expected: { reason: 'not-executable' },
    message: /'\/usr\/bin\/onlyfile' is not executable.*chmod \+x/,
  },
  {
    name: 'missing bare name',
    command: 'missing',
    expected: { reason: 'not-found' },
    message:
      /^'missing' was not found on PATH \(searched: \/usr\/local\/bin, \/usr\/bin, \/opt\/tools\)\. Install it or set an absolute command in config\.json.*ignored \(\., bin\)/,
  },
  {
    name: 'a PATH that repeats folders lists and searches each once',
    command: 'missing',
    pathEnv: '/usr/bin:/opt/tools:/usr/bin:.:/opt/tools:.',
    expected: { reason: 'not-found' },
    message: /\(searched: \/usr\/bin, \/opt\/tools\)\..*ignored \(\.\):/,
  },
  { name: 'name only in the cwd', command: 'evil', expected: { reason: 'not-found' } },
  {
    name: 'name in the cwd, with a cwd',
    command: 'server',
    cwd: '/srv/app',
    expected: { reason: 'not-found' },
  },
  {
    name: 'no PATH at all',
    command: 'node',
    pathEnv: undefined,
    expected: { reason: 'not-found' },
    message: /PATH has no absolute directories.*command -v node/,
  },
  {
    name: 'only relative PATH entries',
    command: 'evil',
    pathEnv: '.:bin',
    expected: { reason: 'not-found' },
  },
  { name: 'absolute', command: '/usr/bin/node', expected: { path: '/usr/bin/node' } },
  {
    name: 'absolute, normalized',
    command: '/usr/bin/../bin//node',
    expected: { path: '/usr/bin/node' },
  },
  {
    name: 'absolute, missing',
    command: '/usr/bin/nope',
    expected: { reason: 'not-found' },
    message: /'\/usr\/bin\/nope' does not exist/,
  },
  {
    name: 'absolute, not executable',
    command: '/usr/local/bin/uvx',
    expected: { reason: 'not-executable' },
  },
  { name: 'absolute directory', command: '/opt/dir', expected: { reason: 'not-found' } },
  {
    name: './x without cwd',
    command: './evil',
    expected: { reason: 'relative-path' },
    message: /relative path.*absolute "cwd"/,
  },
  { name: 'dir/x without cwd', command: 'bin/evil', expected: { reason: 'relative-path' } },
  {
    name: './x with absolute cwd',
    command: './server',
    cwd: '/srv/app',
    expected: { path: '/srv/app/server' },
  },
  {
    name: '../x with absolute cwd',
    command: '../app/server',
    cwd: '/srv/other',
    expected: { path: '/srv/app/server' },
  },
  {
    name: './x with relative cwd',
    command: './server',
    cwd: 'srv/app',
    expected: { reason: 'relative-path' },
  },
  {
    name: 'tilde',
    command: '~/bin/node',
    expected: { reason: 'relative-path' },
    message: /only a shell expands/,
  },
  { name: 'dot', command: '.', expected: { reason: 'relative-path' } },
  {
    name: 'dot dot, a directory',
    command: '..',
    cwd: '/srv/app',
    expected: { reason: 'not-found' },
  },
  { name: 'empty', command: '  ', expected: { reason: 'not-found' }, message: /empty/ },
];

const WIN_PATH = [
  'C:\\Windows\\system32',
  '"C:\\Program Files\\nodejs"',
  '.',
  'relative\\bin',
  '\\rootrelative',
  'C:driverelative',
  '',
  '\\\\server\\share\\bin',
].join(';');
const WIN_FS: Record<string, Entry> = {
  'C:\\Program Files\\nodejs\\node.exe': 'exec',
  'C:\\Program Files\\nodejs\\npx.cmd': 'exec',
  'C:\\Windows\\system32\\where.exe': 'exec',
  '\\\\server\\share\\bin\\tool.com': 'exec',
  'C:\\tools\\thing.exe': 'exec',
  'C:\\work\\x.exe': 'exec',
  // Reachable only through the cwd, a relative entry or a drive-relative path.
  'evil.exe': 'exec',
  '.\\evil.exe': 'exec',
  'relative\\bin\\evil.exe': 'exec',
  '\\rootrelative\\evil.exe': 'exec',
};

const WIN_ROWS: Row[] = [
  {
    name: 'bare name + PATHEXT',
    command: 'node',
    expected: { path: 'C:\\Program Files\\nodejs\\node.exe' },
  },
  {
    name: 'extension in PATHEXT, other case',
    command: 'NODE.EXE',
    expected: { path: 'C:\\Program Files\\nodejs\\NODE.EXE' },
  },
  {
    name: 'a batch file is never the program',
    command: 'npx',
    expected: { reason: 'unsupported-shim' },
    message: /^'C:\\Program Files\\nodejs\\npx\.cmd' is a batch file\. .*never runs one/,
  },
  { name: 'UNC entry', command: 'tool', expected: { path: '\\\\server\\share\\bin\\tool.com' } },
  { name: 'extension outside PATHEXT', command: 'node.py', expected: { reason: 'not-found' } },
  {
    name: 'PATHEXT without .CMD',
    command: 'npx',
    pathExt: '.EXE;.PS1',
    expected: { reason: 'not-found' },
    message: /where npx/,
  },
  {
    name: 'PATHEXT in lower case',
    command: 'node',
    pathExt: '.exe',
    expected: { path: 'C:\\Program Files\\nodejs\\node.exe' },
  },
  {
    name: 'missing, lists only absolute entries',
    command: 'evil',
    expected: { reason: 'not-found' },
    message:
      /searched: C:\\Windows\\system32, C:\\Program Files\\nodejs, \\\\server\\share\\bin\)\..*ignored \(\., relative\\bin, \\rootrelative, C:driverelative\)/,
  },
  {
    name: 'folders repeated in another case are one folder on Windows',
    command: 'evil',
    pathEnv: 'C:\\Windows\\system32;c:\\windows\\System32;C:\\Tools',
    expected: { reason: 'not-found' },
    message: /\(searched: C:\\Windows\\system32, C:\\Tools\)\./,
  },
  {
    name: 'absolute without extension',
    command: 'C:\\tools\\thing',
    expected: { path: 'C:\\tools\\thing.exe' },
  },
  {
    name: 'absolute with forward slashes',
    command: 'C:/tools/thing.exe',
    expected: { path: 'C:\\tools\\thing.exe' },
  },
  {
    name: 'absolute, missing',
    command: 'C:\\tools\\nothing',
    expected: { reason: 'not-found' },
    message: /tried C:\\tools\\nothing\.com/,
  },
  { name: '.\\x without cwd', command: '.\\evil', expected: { reason: 'relative-path' } },
  {
    name: '.\\x with absolute cwd',
    command: '.\\x',
    cwd: 'C:\\work',
    expected: { path: 'C:\\work\\x.exe' },
  },
  {
    name: 'x/y with drive-relative cwd',
    command: '.\\x',
    cwd: 'C:work',
    expected: { reason: 'relative-path' },
  },
  {
    name: 'root-relative command',
    command: '\\rootrelative\\evil',
    cwd: 'C:\\work',
    expected: { reason: 'relative-path' },
  },
  {
    name: 'drive-relative command',
    command: 'C:evil',
    cwd: 'C:\\work',
    expected: { reason: 'relative-path' },
  },
];

describe.each([
  { platform: 'linux' as const, pathEnv: LINUX_PATH, files: LINUX_FS, rows: LINUX_ROWS },
  { platform: 'win32' as const, pathEnv: WIN_PATH, files: WIN_FS, rows: WIN_ROWS },
])('resolveCommand on $platform', ({ platform, pathEnv, files, rows }) => {
  it.each(rows)('$name: $command', async (row) => {
    const fs = fakeFs(files, platform);
    const options: ResolveCommandOptions = {
      pathEnv: 'pathEnv' in row ? row.pathEnv : pathEnv,
      platform,
      isFile: fs.isFile,
      isExecutable: fs.isExecutable,
      readFile: fs.readFile,
      ...(row.cwd === undefined ? {} : { cwd: row.cwd }),
      ...(row.pathExt === undefined ? {} : { pathExt: row.pathExt }),
    };
    expectResult(await resolveCommand(row.command, options), row);
    // Whatever the outcome, nothing relative to the cwd was even looked at.
    const absolute = platform === 'win32' ? /^([A-Za-z]:\\|\\\\[^\\])/ : /^\//;
    for (const p of fs.probed) expect(p).toMatch(absolute);
  });
});

describe('resolveCommand on this machine', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'switchyard-resolve-'));
    await writeFile(path.join(dir, 'plain.sh'), '#!/bin/sh\n');
    await writeFile(path.join(dir, 'runnable.sh'), '#!/bin/sh\n');
    await chmod(path.join(dir, 'runnable.sh'), 0o755);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('finds node on PATH as an absolute, executable file', async () => {
    const result = await resolveCommand('node', {
      pathEnv: process.env.PATH,
      platform: process.platform,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(path.isAbsolute(result.path)).toBe(true);
    await expect(access(result.path, constants.X_OK)).resolves.toBeUndefined();
  });

  it.runIf(process.platform !== 'win32')('tells a plain file from an executable one', async () => {
    const options = { pathEnv: dir, platform: process.platform };
    expect(await resolveCommand('runnable.sh', options)).toEqual({
      ok: true,
      path: path.join(dir, 'runnable.sh'),
    });
    expect(await resolveCommand('plain.sh', options)).toMatchObject({
      ok: false,
      reason: 'not-executable',
    });
    expect(await resolveCommand('./runnable.sh', { ...options, cwd: dir })).toEqual({
      ok: true,
      path: path.join(dir, 'runnable.sh'),
    });
    expect(await resolveCommand(dir, options)).toMatchObject({ ok: false, reason: 'not-found' });
  });
});
