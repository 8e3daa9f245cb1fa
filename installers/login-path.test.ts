import { describe, expect, it } from 'vitest';
import {
  PATH_BEGIN,
  PATH_END,
  cleanSearchPath,
  extractMarkedPath,
  loginShellAttempts,
  mergeSearchPath,
  recordLoginPath,
  runShell,
  type RunShell,
} from './login-path';

// Dangerous direction: a relative or empty PATH entry recorded for the host would let a
// server command resolve against the host's working folder (design D6); a PATH taken from an
// rc file's chatter would be garbage. Only absolute entries between the markers are kept.

const mark = (value: string) => `${PATH_BEGIN}${value}${PATH_END}`;

describe('extractMarkedPath', () => {
  it.each<[string, string, string | null]>([
    ['bare answer', `\n${mark('/a:/b')}\n`, '/a:/b'],
    [
      'rc chatter around it',
      `Welcome!\nnvm: using 20\n${mark('/n/bin:/usr/bin')}\nbye\n`,
      '/n/bin:/usr/bin',
    ],
    ['the last marker wins', `${mark('/fake')} ${mark('/real')}`, '/real'],
    ['no end marker', `${PATH_BEGIN}/a:/b`, null],
    ['no markers', '/usr/bin:/bin', null],
    ['empty PATH', mark(''), ''],
  ])('%s', (_name, stdout, expected) => {
    expect(extractMarkedPath(stdout)).toBe(expected);
  });
});

describe('cleanSearchPath', () => {
  it.each<[string, string | null]>([
    ['/usr/local/bin:/usr/bin:/bin', '/usr/local/bin:/usr/bin:/bin'],
    ['/a::/b:.:bin:./x:/a', '/a:/b'],
    ['~/bin:/usr/bin', '/usr/bin'],
    ['', null],
    ['.:bin', null],
    ['/ok:/bad\nentry', '/ok'],
    ['/x'.repeat(20_000), null],
  ])('%j', (value, expected) => {
    expect(cleanSearchPath(value)).toBe(expected);
  });
});

describe('mergeSearchPath: recorded first, then what the browser gave', () => {
  it.each<[string, string | undefined, string]>([
    ['/home/u/.nvm/v20/bin:/usr/bin', '/usr/bin:/bin', '/home/u/.nvm/v20/bin:/usr/bin:/bin'],
    ['/opt/homebrew/bin:/usr/bin', undefined, '/opt/homebrew/bin:/usr/bin'],
    ['/a:/b', '/b:/a', '/a:/b'],
    ['/a', '::/c', '/a:/c'],
  ])('%j + %j', (recorded, current, expected) => {
    expect(mergeSearchPath(recorded, current)).toBe(expected);
  });
});

describe('recordLoginPath', () => {
  const answers = (...outputs: Array<string | null>): { run: RunShell; calls: string[][] } => {
    const calls: string[][] = [];
    const run: RunShell = (argv) => {
      calls.push([...argv]);
      return Promise.resolve(outputs[calls.length - 1] ?? null);
    };
    return { run, calls };
  };

  it('asks $SHELL as a login, interactive shell first', async () => {
    const { run, calls } = answers(`motd\n${mark('/n/bin:/usr/bin:rel')}\n`);
    const env = { SHELL: '/usr/bin/zsh', PATH: '/usr/bin' };
    expect(await recordLoginPath({ env, run })).toEqual({
      value: '/n/bin:/usr/bin',
      source: 'login-shell',
      shell: '/usr/bin/zsh',
    });
    expect(calls).toEqual([loginShellAttempts('/usr/bin/zsh')[0]]);
  });

  it('falls back to a login shell, then to the current PATH', async () => {
    const second = answers(null, mark('/b'));
    expect(await recordLoginPath({ env: { SHELL: '/bin/bash' }, run: second.run })).toMatchObject({
      value: '/b',
      source: 'login-shell',
    });
    expect(second.calls.map((c) => c.slice(1, -1))).toEqual([
      ['-l', '-i', '-c'],
      ['-l', '-c'],
    ]);

    const none = answers(null, 'no markers');
    expect(
      await recordLoginPath({ env: { SHELL: '/bin/bash', PATH: '/usr/bin:.' }, run: none.run }),
    ).toEqual({
      value: '/usr/bin',
      source: 'current',
      shell: null,
    });
    expect(await recordLoginPath({ env: {}, run: answers().run })).toBeNull();
  });

  it('uses /bin/sh when SHELL is unset or relative', async () => {
    const { run, calls } = answers(mark('/x'));
    await recordLoginPath({ env: { SHELL: 'zsh' }, run });
    expect(calls[0]?.[0]).toBe('/bin/sh');
  });
});

describe('runShell (real processes)', () => {
  it('reads PATH from a real login shell without a terminal', async () => {
    const argv = loginShellAttempts('/bin/sh')[1] ?? [];
    const out = await runShell(argv, {
      env: { PATH: '/usr/bin:/bin', HOME: '/nonexistent' },
      timeoutMs: 5_000,
    });
    expect(out === null ? null : cleanSearchPath(extractMarkedPath(out) ?? '')).toMatch(/\/bin/);
  });

  it('gives up on a shell that hangs, and kills it', async () => {
    // The test's own timeout is the guard: without the kill this would wait 30 s.
    const out = await runShell(['/bin/sh', '-c', 'sleep 30'], { env: {}, timeoutMs: 200 });
    expect(out).toBeNull();
  });

  it('returns null for a shell that does not exist', async () => {
    expect(
      await runShell(['/nonexistent/shell', '-c', 'true'], { env: {}, timeoutMs: 1_000 }),
    ).toBeNull();
  });
});
