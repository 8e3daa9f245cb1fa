import { afterEach, describe, expect, test } from 'vitest';
import { startOAuthFixture, type OAuthFixture } from '../../test/fixtures/oauth/index';
import { followToRedirect } from '../../test/fixtures/oauth/test-browser';
import { MemorySecretStore } from '../testing/memory-secret-store';
import { authCommand, parseAuthArgs, type AuthDeps } from './auth';
import { authDeps } from './auth-deps';
import type { CliIo } from './io';

// Dangerous direction: a flag read as another (a sign-out run as a sign-in or the reverse).
describe('parseAuthArgs', () => {
  test.each([
    [['github'], { ok: true, mode: 'sign-in', server: 'github', open: true }],
    [['github', '--no-open'], { ok: true, mode: 'sign-in', server: 'github', open: false }],
    [['--sign-out', 'github'], { ok: true, mode: 'sign-out', server: 'github' }],
    [['--status'], { ok: true, mode: 'status', json: false }],
    [['--status', '--json'], { ok: true, mode: 'status', json: true }],
  ])('%j', (argv, expected) => {
    expect(parseAuthArgs(argv)).toEqual(expected);
  });

  test.each([
    [[]],
    [['a', 'b']],
    [['--status', 'github']],
    [['github', '--json']],
    [['github', '--sign-out', '--no-open']],
    [['--bogus']],
  ])('%j is refused', (argv) => {
    expect(parseAuthArgs(argv).ok).toBe(false);
  });
});

describe('switchyard auth against the OAuth fixture', () => {
  let f: OAuthFixture | undefined;
  afterEach(async () => {
    await f?.stop();
  });

  test('signs in, shows status without a token, signs out', async () => {
    f = await startOAuthFixture();
    const fixture = f;
    const store = new MemorySecretStore();
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
      env: {},
      platform: 'linux',
    };
    const deps: AuthDeps = {
      store: () => Promise.resolve(store),
      serverUrl: (name) =>
        Promise.resolve(name === 'remote' ? { url: fixture.mcpUrl } : { error: 'no such server' }),
      // The "browser": follows the URL through auto-consent and hits the loopback redirect.
      openUrl: (url) => {
        const redirect = new URL(url).searchParams.get('redirect_uri') ?? '';
        void followToRedirect(url, redirect).then(({ callbackUrl }) => fetch(callbackUrl));
        return true;
      },
    };
    expect(await authCommand(io, ['remote'], deps)).toBe(0);
    expect(err.join('')).toContain('Open this URL in your browser');
    expect(out.join('')).toContain("Signed in to 'remote'");

    out.length = 0;
    expect(await authCommand(io, ['--status'], deps)).toBe(0);
    expect(out.join('')).toMatch(/remote .*mcp:tools/);
    const stored = [...store.values.values()].join('');
    const token = /"access_token":"([^"]+)"/.exec(stored)?.[1] ?? 'missing';
    expect(out.join('')).not.toContain(token);

    out.length = 0;
    expect(await authCommand(io, ['remote', '--sign-out'], deps)).toBe(0);
    expect(out.join('')).toContain('revoked at its authorization server');
    expect(fixture.counters.as.revoked).toBeGreaterThanOrEqual(1);
    out.length = 0;
    expect(await authCommand(io, ['--status'], deps)).toBe(0);
    expect(out.join('')).toBe('No server is signed in.\n');
  });

  test('an unknown server and a plain-http remote are refused before anything is sent', async () => {
    const err: string[] = [];
    const io: CliIo = { out: () => undefined, err: (t) => err.push(t), env: {}, platform: 'linux' };
    const deps: AuthDeps = {
      store: () => Promise.resolve(new MemorySecretStore()),
      serverUrl: (name) =>
        Promise.resolve(
          name === 'plain' ? { url: 'http://example.com/mcp' } : { error: `no server '${name}'` },
        ),
    };
    expect(await authCommand(io, ['nope'], deps)).toBe(1);
    expect(await authCommand(io, ['plain'], deps)).toBe(1);
    expect(err.join('')).toContain("no server 'nope'");
    expect(err.join('')).toContain('not an https URL');
  });
});

// A SWITCHYARD_HOME the host refuses used to throw while the dependencies were built, before
// the command could catch it: main printed the ConfigError's stack trace.
describe('switchyard auth with a relative SWITCHYARD_HOME', () => {
  test.each([[['--status']], [['github']], [['github', '--sign-out']]])(
    '%j says what to set, exit 1',
    async (argv) => {
      const err: string[] = [];
      const io: CliIo = {
        out: () => undefined,
        err: (t) => err.push(t),
        env: { SWITCHYARD_HOME: 'relative/home' },
        platform: process.platform,
      };
      expect(await authCommand(io, argv, authDeps(io))).toBe(1);
      expect(err.join('')).toMatch(/^switchyard auth: .*SWITCHYARD_HOME: must be an absolute path/);
    },
  );
});
