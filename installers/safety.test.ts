import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkTargetDirectory, directoryProblem, fileProblem, type StatLike } from './safety';

// Dangerous direction: accepting a folder or file someone else can write lets them replace the
// program the browser starts with the user's rights. Refusing a safe folder costs one message.

const ME = 1000;
const dir = (mode: number, uid = ME): StatLike => ({
  mode: 0o040000 | mode,
  uid,
  isDirectory: () => true,
  isFile: () => false,
});
const file = (mode: number, uid = ME): StatLike => ({
  mode: 0o100000 | mode,
  uid,
  isDirectory: () => false,
  isFile: () => true,
});

describe('directoryProblem', () => {
  it.each<[string, StatLike, 'target' | 'ancestor', RegExp | null]>([
    ['mine, 0700', dir(0o700), 'target', null],
    ['mine, 0755', dir(0o755), 'target', null],
    ['mine, group-writable (user private group)', dir(0o775), 'target', null],
    ["root's, 0755", dir(0o755, 0), 'ancestor', null],
    ['/tmp-like as an ancestor', dir(0o1777, 0), 'ancestor', null],
    ['/tmp-like as the target', dir(0o1777, 0), 'target', /shared by every user.*mkdir -m 700/],
    ['world-writable, mine', dir(0o777), 'target', /chmod o-w/],
    ['world-writable ancestor without sticky', dir(0o777, 0), 'ancestor', /writable by every user/],
    ['sticky but owned by another user', dir(0o1777, 1001), 'ancestor', /another user/],
    ["another user's", dir(0o755, 1001), 'target', /another user \(uid 1001\)/],
    ['not a folder', file(0o644), 'target', /not a folder/],
  ])('%s', (_name, stat, role, expected) => {
    const problem = directoryProblem('/x', stat, ME, role);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });
});

describe('fileProblem', () => {
  it.each<[string, StatLike, RegExp | null]>([
    ['manifest 0644', file(0o644), null],
    ['launcher 0755', file(0o755), null],
    ['launcher 0700', file(0o700), null],
    ['receipt 0600', file(0o600), null],
    ['group-writable', file(0o664), /chmod go-w/],
    ['world-writable', file(0o646), /chmod go-w/],
    ["another user's", file(0o644, 0), /another user/],
    ['a folder', dir(0o755), /not a regular file/],
  ])('%s', (_name, stat, expected) => {
    const problem = fileProblem('/x', stat, ME);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });
});

describe('checkTargetDirectory (real folders)', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'switchyard-safety-'));
  const uid = process.getuid?.() ?? 0;
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('accepts a private folder, existing or not', async () => {
    expect(await checkTargetDirectory(path.join(root, 'a', 'b', 'c'), uid)).toEqual([]);
    expect(await checkTargetDirectory(root, uid)).toEqual([]);
  });

  it('refuses a world-writable folder on the way, whether or not the target exists', async () => {
    const open = path.join(root, 'open');
    mkdirSync(path.join(open, 'inner'), { recursive: true });
    chmodSync(open, 0o777);
    const nested = await checkTargetDirectory(
      path.join(open, 'inner', 'NativeMessagingHosts'),
      uid,
    );
    expect(nested.join('\n')).toMatch(/open is writable by every user/);
    expect((await checkTargetDirectory(open, uid)).join('\n')).toMatch(/writable by every user/);
    chmodSync(open, 0o700);
  });

  it('checks the folders above where a linked folder really is', async () => {
    // ~/.mozilla is a link into a folder anyone may rename things in (not sticky).
    const shared = path.join(root, 'shared');
    mkdirSync(path.join(shared, 'mozilla'), { recursive: true, mode: 0o700 });
    chmodSync(shared, 0o777);
    const home = path.join(root, 'home');
    mkdirSync(home, { mode: 0o700 });
    symlinkSync(path.join(shared, 'mozilla'), path.join(home, '.mozilla'));
    const problems = await checkTargetDirectory(
      path.join(home, '.mozilla', 'native-messaging-hosts'),
      uid,
    );
    expect(problems.join('\n')).toMatch(/shared is writable by every user/);
    chmodSync(shared, 0o700);
  });
});
