import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOST_ENV, HOST_NODE_FLAGS } from '../native-host/shared/node-flags';
import { cmdQuote, parseLauncher, posixLauncher, shQuote, windowsLauncher } from './launcher';

// Dangerous direction: a path the shell or cmd.exe re-reads as code. A path with `$(...)`,
// backticks or `'` must reach node as the same bytes, never run; on Windows `%VAR%` must not
// expand and `&` must not split the command. What cannot be carried safely is refused.

const TRICKY = [
  'plain',
  'with space',
  "it's",
  'say "hi"',
  '$HOME and ${HOME}',
  '`id` and $(id)',
  'back\\slash',
  'semi;colon & amp | pipe > gt',
  'glob * ? [a]',
  'üñíçødé 日本',
  'new\nline',
  "''",
  '-leading-dash',
  '%PATH% 100%',
  '!bang!',
];

describe('shQuote: sh reads back exactly the bytes', () => {
  it.each(TRICKY)('%j', (value) => {
    const out = execFileSync('/bin/sh', ['-c', `printf %s ${shQuote(value)}`], {
      encoding: 'utf8',
    });
    expect(out).toBe(value);
  });
});

describe('posixLauncher runs node with the exact paths, flags and browser arguments', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'switchyard-launcher-'));
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it.each(TRICKY.filter((t) => !t.startsWith('-')))('folder %j', (name) => {
    const dir = path.join(root, name.replace(/\//g, '_'));
    mkdirSync(dir, { recursive: true });
    // A stand-in for node that prints what it was given, NUL-separated, after SWITCHYARD_HOME and
    // the variables the launcher sets for the host (HOST_ENV).
    const fakeNode = path.join(dir, 'node');
    // The folder's tricky name is also the value of one more variable, which must arrive as is.
    const env = { ...HOST_ENV, SWITCHYARD_TEST_VALUE: name };
    const printed = ['SWITCHYARD_HOME', ...Object.keys(env)].map((v) => `"$${v}"`).join(' ');
    writeFileSync(fakeNode, `#!/bin/sh\nprintf "%s\\0" ${printed} "$@"\n`, { mode: 0o755 });
    const launcher = posixLauncher({
      node: fakeNode,
      bundle: path.join(dir, 'switchyard.cjs'),
      home: path.join(dir, 'home'),
      version: '1.2.3',
      env,
    });
    expect(launcher.ok).toBe(true);
    if (!launcher.ok) return;
    const file = path.join(dir, 'switchyard-host');
    writeFileSync(file, launcher.text);
    chmodSync(file, 0o755);
    const origin = 'chrome-extension://ddbjoamfefamboaogaeefgfijojophel/';
    const out = execFileSync(file, [origin, '--parent-window=0'], {
      encoding: 'utf8',
      env: {}, // what a browser started from the desktop may give
    });
    expect(out.split('\0').slice(0, -1)).toEqual([
      path.join(dir, 'home'),
      ...Object.values(env),
      ...HOST_NODE_FLAGS,
      path.join(dir, 'switchyard.cjs'),
      'host',
      origin,
      '--parent-window=0',
    ]);
    expect(parseLauncher(launcher.text, 'linux')).toEqual({
      node: fakeNode,
      bundle: path.join(dir, 'switchyard.cjs'),
      home: path.join(dir, 'home'),
      flags: HOST_NODE_FLAGS,
    });
  });

  it('sets HOST_ENV for the host unless told otherwise', () => {
    const launcher = posixLauncher({ node: '/n', bundle: '/b', home: '/h', version: '1' });
    expect(launcher.ok).toBe(true);
    if (!launcher.ok) return;
    for (const [name, value] of Object.entries(HOST_ENV)) {
      expect(launcher.text.split('\n')).toEqual(
        expect.arrayContaining([`${name}=${shQuote(value)}`, `export ${name}`]),
      );
    }
  });

  it('refuses a NUL byte', () => {
    expect(posixLauncher({ node: '/a\0b', bundle: '/b', home: '/h', version: '1' }).ok).toBe(false);
  });

  it.each<Record<string, string>>([
    { 'NOT-A-NAME': '1' },
    { '1X': '1' },
    { X: 'a\0b' },
    { SWITCHYARD_HOME: '/elsewhere' },
  ])('refuses an environment it cannot write as sh: %j', (env) => {
    expect(posixLauncher({ node: '/n', bundle: '/b', home: '/h', version: '1', env }).ok).toBe(
      false,
    );
  });
});

describe('cmdQuote: what a .cmd file can carry inside double quotes', () => {
  it.each<[string, string | RegExp]>([
    ['C:\\Program Files\\nodejs\\node.exe', '"C:\\Program Files\\nodejs\\node.exe"'],
    ['C:\\A & B\\node.exe', '"C:\\A & B\\node.exe"'],
    ['C:\\caret^dir\\node.exe', '"C:\\caret^dir\\node.exe"'],
    ['C:\\100%\\x', '"C:\\100%%\\x"'],
    ['C:\\%PATH%\\x', '"C:\\%%PATH%%\\x"'],
    ['C:\\bang!\\x', '"C:\\bang!\\x"'],
    ['C:\\(x86) <a> |b|', '"C:\\(x86) <a> |b|"'],
    ['C:\\Users\\Jörg\\node.exe', '"C:\\Users\\Jörg\\node.exe"'],
    ['C:\\say "hi"', /double quote/],
    ['C:\\new\nline', /line break/],
    ['C:\\cr\rx', /line break/],
  ])('%j', (value, expected) => {
    const result = cmdQuote(value, 'The path');
    if (typeof expected === 'string') expect(result).toEqual({ ok: true, quoted: expected });
    else {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).toMatch(expected);
    }
  });
});

describe('windowsLauncher', () => {
  it('writes a batch file that runs node with everything quoted', () => {
    const result = windowsLauncher({
      node: 'C:\\Program Files\\nodejs\\node.exe',
      bundle: 'C:\\Users\\A & B\\AppData\\Roaming\\Switchyard 100%\\host\\switchyard.cjs',
      home: 'C:\\Users\\A & B\\AppData\\Roaming\\Switchyard 100%',
      version: '0.1.0',
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const lines = result.text.split('\r\n');
    expect(lines[0]).toBe('@echo off');
    expect(lines).toContain('setlocal DisableDelayedExpansion');
    expect(lines).not.toContain('chcp 65001 >nul');
    expect(lines).toContain(
      'set "SWITCHYARD_HOME=C:\\Users\\A & B\\AppData\\Roaming\\Switchyard 100%%"',
    );
    expect(lines).toContain(
      `"C:\\Program Files\\nodejs\\node.exe" ${HOST_NODE_FLAGS.map((f) => `"${f}"`).join(' ')} "C:\\Users\\A & B\\AppData\\Roaming\\Switchyard 100%%\\host\\switchyard.cjs" host %*`,
    );
    expect(result.text.endsWith('\r\n')).toBe(true);
  });

  it('switches to UTF-8 before a line with a non-ASCII path', () => {
    const result = windowsLauncher({
      node: 'C:\\Users\\Jörg\\AppData\\Roaming\\nvm\\v20\\node.exe',
      bundle: 'C:\\Users\\Jörg\\AppData\\Roaming\\Switchyard\\host\\switchyard.cjs',
      home: 'C:\\Users\\Jörg\\AppData\\Roaming\\Switchyard',
      version: '0.1.0',
    });
    expect(result.ok && result.text.split('\r\n').indexOf('chcp 65001 >nul')).toBeGreaterThan(0);
  });

  it.each([
    ['node', 'C:\\a"b\\node.exe', /double quote/],
    ['home', 'C:\\x\ny', /line break/],
  ])('refuses a %s path it cannot carry', (which, value, message) => {
    const input = {
      node: 'C:\\node.exe',
      bundle: 'C:\\sy\\host\\switchyard.cjs',
      home: 'C:\\sy',
      version: '1',
      [which]: value,
    };
    const result = windowsLauncher(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it.each(TRICKY.filter((t) => !/["\n]/.test(t)))('reads back a launcher for folder %j', (name) => {
    const dir = `C:\\Users\\${name}`;
    const input = {
      node: `${dir}\\node.exe`,
      bundle: `${dir}\\switchyard.cjs`,
      home: dir,
      version: '1',
    };
    const result = windowsLauncher(input);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(parseLauncher(result.text, 'win32')).toEqual({
      node: input.node,
      bundle: input.bundle,
      home: dir,
      flags: HOST_NODE_FLAGS,
    });
  });
});

describe('parseLauncher refuses what it did not write', () => {
  it.each<[string, 'linux' | 'win32']>([
    ['#!/bin/sh\nexec /usr/bin/node x host "$@"\n', 'linux'],
    ['', 'linux'],
    ['@echo off\r\nnode.exe x host %*\r\n', 'win32'],
  ])('%j', (text, platform) => {
    expect(parseLauncher(text, platform)).toBeNull();
  });
});
