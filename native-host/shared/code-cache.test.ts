import { describe, expect, it } from 'vitest';
import {
  BUILD_LINE_PREFIX,
  buildIdOf,
  cacheFileName,
  fnv1a,
  isCacheFileName,
  folderProblem,
  staleCacheFiles,
  type CacheRun,
  type FolderFacts,
} from './code-cache';

const ID = 'ab'.repeat(32);
const OTHER = 'cd'.repeat(32);

describe('buildIdOf', () => {
  it.each([
    ['the build line', `${BUILD_LINE_PREFIX}${ID}\n"use strict";`, ID],
    ['a bundle that is only the line', `${BUILD_LINE_PREFIX}${ID}`, ID],
    ['no build line', `"use strict";\n${BUILD_LINE_PREFIX}${ID}\n`, null],
    ['a shebang first', `#!/usr/bin/env node\n${BUILD_LINE_PREFIX}${ID}\n`, null],
    ['a short id', `${BUILD_LINE_PREFIX}${ID.slice(1)}\n`, null],
    ['upper-case hex', `${BUILD_LINE_PREFIX}${ID.toUpperCase()}\n`, null],
    [
      'the unstamped placeholder is a valid id',
      `${BUILD_LINE_PREFIX}${'0'.repeat(64)}\n`,
      '0'.repeat(64),
    ],
    ['trailing text on the line', `${BUILD_LINE_PREFIX}${ID} x\n`, null],
  ])('%s', (_label, source, expected) => {
    expect(buildIdOf(source)).toBe(expected);
  });
});

describe('cacheFileName', () => {
  const run: CacheRun = {
    buildId: ID,
    size: 1_438_730,
    mtimeMs: 1_796_314_150_795.6,
    args: ['host', 'chrome-extension://x/'],
    v8Version: '11.3.244.8-node.38',
    arch: 'x64',
    execArgv: ['--max-semi-space-size=4'],
  };
  const base = cacheFileName(run);

  it('names the build, the program, the file, V8, the architecture and the flags', () => {
    expect(base).toBe(
      `${ID.slice(0, 32)}-host-1438730.1796314150795-11.3.244.8_node.38-x64-${fnv1a('--max-semi-space-size=4')}.v8cache`,
    );
  });

  it.each<[string, Partial<CacheRun>]>([
    ['another build', { buildId: OTHER }],
    ['a CLI command', { args: ['tools'] }],
    ['no command (help)', { args: [] }],
    ['another size', { size: 1_438_731 }],
    ['another modification time', { mtimeMs: 1_796_314_150_796 }],
    ['another V8', { v8Version: '12.4.254.21-node.33' }],
    ['another architecture', { arch: 'arm64' }],
    ['other flags', { execArgv: ['--max-semi-space-size=4', '--cpu-prof'] }],
    ['no flags', { execArgv: [] }],
  ])('differs for %s', (_label, change) => {
    expect(cacheFileName({ ...run, ...change })).not.toBe(base);
  });

  it('is the same for every CLI command and for every caller of the host', () => {
    expect(cacheFileName({ ...run, args: ['tools'] })).toBe(
      cacheFileName({ ...run, args: ['doctor', '--json'] }),
    );
    expect(cacheFileName({ ...run, args: ['host', 'moz-extension://y/'] })).toBe(base);
  });

  it('keeps a name free of path separators whatever V8 and the architecture say', () => {
    const odd = cacheFileName({ ...run, v8Version: '../../x', arch: 'a/b\\c' });
    expect(odd).not.toMatch(/[\\/]/);
  });
});

describe('staleCacheFiles', () => {
  const mine = cacheFileName({
    buildId: ID,
    size: 1,
    mtimeMs: 2,
    args: ['host'],
    v8Version: '11',
    arch: 'x64',
    execArgv: [],
  });
  const mineCli = mine.replace('-host-', '-cli-');
  const older = mine.replace(ID.slice(0, 32), OTHER.slice(0, 32));
  const rewritten = mine.replace('-1.2-', '-1.3-');
  it.each([
    ['this build, the host', mine, false],
    ['this build, another program', mineCli, false],
    ['this build, another V8', mine.replace('-11-', '-12-'), false],
    ['another build', older, true],
    ['this build, but the file was rewritten since', rewritten, true],
    ['a temporary file of this build', `${mine}.123.tmp`, true],
    ['a temporary file of another build', `${older}.9.tmp`, true],
    ['a file that is not ours', 'notes.txt', false],
    ['a look-alike name', `${'g'.repeat(32)}-host.v8cache`, false],
  ])('%s: stale %s', (_label, name, stale) => {
    expect(staleCacheFiles([name], { buildId: ID, size: 1, mtimeMs: 2 })).toEqual(
      stale ? [name] : [],
    );
  });
});

describe('folderProblem', () => {
  const good: FolderFacts = { isDirectory: true, isSymbolicLink: false, uid: 1000, mode: 0o40700 };
  it.each<[string, Partial<FolderFacts>, number | null, string | null]>([
    ['a private folder of the user', {}, 1000, null],
    ['group-readable is fine', { mode: 0o40750 }, 1000, null],
    ['a symbolic link', { isSymbolicLink: true, isDirectory: false }, 1000, 'is a symbolic link'],
    ['a file', { isDirectory: false }, 1000, 'is not a folder'],
    ['another owner', { uid: 0 }, 1000, 'is owned by uid 0, not 1000'],
    ['group-writable', { mode: 0o40770 }, 1000, 'is writable by other users'],
    ['world-writable', { mode: 0o40707 }, 1000, 'is writable by other users'],
    ['Windows: modes say nothing', { mode: 0o40777, uid: 0 }, null, null],
    ['Windows: still not a link', { isSymbolicLink: true }, null, 'is a symbolic link'],
  ])('%s', (_label, change, uid, expected) => {
    expect(folderProblem({ ...good, ...change }, uid)).toBe(expected);
  });
});

describe('fnv1a', () => {
  it.each([
    ['', '811c9dc5'],
    ['a', 'e40c292c'],
    ['foobar', 'bf9cf968'],
  ])('%j -> %s', (text, hash) => {
    expect(fnv1a(text)).toBe(hash);
  });
});

describe('isCacheFileName', () => {
  it.each([
    [`${'a'.repeat(32)}-host-1.2-11.3_node.38-x64-811c9dc5.v8cache`, true],
    [`${'a'.repeat(32)}-host-1.2-11.3_node.38-x64-811c9dc5.v8cache.42.tmp`, true],
    [`${'a'.repeat(32)}-host.v8cache.tmp`, false],
    [`${'a'.repeat(31)}-host.v8cache`, false],
    ['config.json', false],
    [`${'a'.repeat(32)}-../x.v8cache`, false],
  ])('%s: %s', (name, ours) => {
    expect(isCacheFileName(name)).toBe(ours);
  });
});
