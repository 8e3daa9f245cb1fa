import { describe, expect, it, test } from 'vitest';
import { buildChildEnv, expandEnvValue, getEnvVar, isInheritedVar } from './env';
import type { EnvSource } from './env';

// Dangerous direction: leaking a browser env var to a child. An API key, a cloud credential or
// NODE_OPTIONS/LD_PRELOAD reaching a server the user did not give it to is a secret handed to
// arbitrary code. Withholding a variable only makes a server fail loudly, and the entry can name it.

const HOST: EnvSource = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/u',
  USER: 'u',
  LOGNAME: 'u',
  SHELL: '/bin/bash',
  LANG: 'en_US.UTF-8',
  LC_ALL: 'C.UTF-8',
  LC_CTYPE: 'C.UTF-8',
  TERM: 'xterm',
  TMPDIR: '/tmp',
  TZ: 'UTC',
  OPENAI_API_KEY: 'sk-secret',
  ANTHROPIC_API_KEY: 'sk-ant-secret',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  GITHUB_TOKEN: 'ghp_secret',
  NODE_OPTIONS: '--require /tmp/evil.js',
  LD_PRELOAD: '/tmp/evil.so',
  DYLD_INSERT_LIBRARIES: '/tmp/evil.dylib',
  SSH_AUTH_SOCK: '/tmp/ssh.sock',
  DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/bus',
  CHROME_DESKTOP: 'chromium.desktop',
  UNSET: undefined,
};

const SECRETS = [
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'AWS_SECRET_ACCESS_KEY',
  'GITHUB_TOKEN',
  'NODE_OPTIONS',
  'LD_PRELOAD',
  'DYLD_INSERT_LIBRARIES',
  'SSH_AUTH_SOCK',
  'DBUS_SESSION_BUS_ADDRESS',
];

describe('buildChildEnv withholds everything not allow-listed', () => {
  test.each(
    (['linux', 'darwin', 'win32'] as const).flatMap((platform) =>
      SECRETS.map((name) => [platform, name] as const),
    ),
  )('%s: %s is not inherited', (platform, name) => {
    const { env } = buildChildEnv({}, HOST, platform);
    expect(Object.keys(env).map((k) => k.toUpperCase())).not.toContain(name);
  });

  it('linux: inherits exactly the allow-list', () => {
    expect(buildChildEnv({}, HOST, 'linux').env).toStrictEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/u',
      USER: 'u',
      LOGNAME: 'u',
      SHELL: '/bin/bash',
      LANG: 'en_US.UTF-8',
      LC_ALL: 'C.UTF-8',
      LC_CTYPE: 'C.UTF-8',
      TERM: 'xterm',
      TMPDIR: '/tmp',
      TZ: 'UTC',
    });
  });

  it('passes a secret only when the entry names it', () => {
    const { env, missing } = buildChildEnv(
      { GITHUB_TOKEN: '${GITHUB_TOKEN}', API_KEY: '${env:OPENAI_API_KEY}' },
      HOST,
      'linux',
    );
    expect(env.GITHUB_TOKEN).toBe('ghp_secret');
    expect(env.API_KEY).toBe('sk-secret');
    expect(env).not.toHaveProperty('OPENAI_API_KEY');
    expect(missing).toEqual([]);
  });

  it('lets the entry override an inherited variable and reports unset references', () => {
    const { env, missing } = buildChildEnv(
      { PATH: '/opt/bin:${PATH}', TOKEN: '${NOPE}', OTHER: '${NOPE}${ALSO_NOPE}' },
      HOST,
      'linux',
    );
    expect(env.PATH).toBe('/opt/bin:/usr/bin:/bin');
    expect(env.TOKEN).toBe('');
    expect(missing).toEqual(['NOPE', 'ALSO_NOPE']);
  });

  it('windows: inherits the Windows list case-insensitively, keeping the host spelling', () => {
    const host: EnvSource = {
      Path: 'C:\\Windows;C:\\node',
      SystemRoot: 'C:\\Windows',
      systemdrive: 'C:',
      COMSPEC: 'C:\\Windows\\system32\\cmd.exe',
      PATHEXT: '.COM;.EXE',
      USERPROFILE: 'C:\\Users\\u',
      APPDATA: 'C:\\Users\\u\\AppData\\Roaming',
      LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local',
      ProgramData: 'C:\\ProgramData',
      ProgramFiles: 'C:\\Program Files',
      'ProgramFiles(x86)': 'C:\\Program Files (x86)',
      windir: 'C:\\Windows',
      HOMEDRIVE: 'C:',
      HOMEPATH: '\\Users\\u',
      TEMP: 'C:\\Temp',
      TMP: 'C:\\Temp',
      OPENAI_API_KEY: 'sk-secret',
      Node_Options: '--require evil.js',
    };
    const { env } = buildChildEnv({}, host, 'win32');
    const allowed = Object.entries(host).filter(
      ([name]) => !/^(OPENAI_API_KEY|NODE_OPTIONS)$/i.test(name),
    );
    expect(env).toStrictEqual(Object.fromEntries(allowed));
  });

  it('windows: an entry PATH replaces the inherited Path instead of sitting beside it', () => {
    const { env } = buildChildEnv(
      { PATH: 'D:\\tools;${path}' },
      { Path: 'C:\\Windows', SystemRoot: 'C:\\Windows' },
      'win32',
    );
    expect(env).toStrictEqual({ SystemRoot: 'C:\\Windows', PATH: 'D:\\tools;C:\\Windows' });
  });

  it('linux: names are case-sensitive, so "path" is not PATH', () => {
    expect(buildChildEnv({}, { path: '/evil', Home: '/x' }, 'linux').env).toStrictEqual({});
  });
});

describe('isInheritedVar', () => {
  test.each([
    ['PATH', 'linux', true],
    ['Path', 'linux', false],
    ['LC_MESSAGES', 'linux', true],
    ['LCX', 'linux', false],
    ['TMP', 'darwin', true],
    ['SystemRoot', 'linux', false], // Windows-only names are not inherited elsewhere
    ['SYSTEMROOT', 'win32', true],
    ['programfiles(arm)', 'win32', true],
    ['ProgramW6432', 'win32', false],
    ['lc_all', 'win32', true],
    ['OPENAI_API_KEY', 'win32', false],
    ['NODE_OPTIONS', 'linux', false],
    ['XDG_CONFIG_HOME', 'linux', false],
  ] as const)('%s on %s -> %s', (name, platform, expected) => {
    expect(isInheritedVar(name, platform)).toBe(expected);
  });
});

describe('expandEnvValue', () => {
  // Dangerous direction here: expanding text the user meant literally (a password with `$`), or
  // expanding twice so a variable's content injects another variable. Both change the value.
  const env: EnvSource = { A: '1', B: '2', EMPTY: '', REF: '${A}', DOLLAR: '$B', Path: 'p' };
  test.each([
    ['plain text', 'plain text', []],
    ['${A}', '1', []],
    ['${env:A}', '1', []],
    ['${A}${B}', '12', []], // adjacent
    ['x${A}y${B}z', 'x1y2z', []],
    ['${REF}', '${A}', []], // nested: a value is not expanded again
    ['${DOLLAR}', '$B', []],
    ['${A${B}}', '${A2}', []], // references do not nest
    ['${MISSING}', '', ['MISSING']],
    ['${M}-${M}-${N}', '--', ['M', 'N']],
    ['${EMPTY}', '', []], // set but empty is not missing
    ['${MISSING:-fallback}', 'fallback', []],
    ['${EMPTY:-fallback}', 'fallback', []],
    ['${A:-fallback}', '1', []],
    ['${MISSING:-}', '', []],
    ['$A', '$A', []], // bare $NAME is literal
    ['pa$$word', 'pa$$word', []],
    ['cost: $5', 'cost: $5', []],
    ['$${A}', '${A}', []], // escaped
    ['$$${A}', '$${A}', []],
    ['${1A}', '${1A}', []],
    ['${}', '${}', []],
    ['${ A }', '${ A }', []],
    ['${A', '${A', []],
    ['${env:}', '${env:}', []],
    ['é${A}😀', 'é1😀', []],
    ['${path}', '', ['path']], // case-sensitive off Windows
  ] as const)('%j -> %j', (value, expected, missing) => {
    expect(expandEnvValue(value, env, 'linux')).toStrictEqual({ value: expected, missing });
  });

  it('ignores case on Windows', () => {
    expect(expandEnvValue('${PATH};${env:path}', env, 'win32')).toStrictEqual({
      value: 'p;p',
      missing: [],
    });
  });
});

test.each([
  [{ PATH: 'a' }, 'PATH', 'linux', 'a'],
  [{ Path: 'a' }, 'PATH', 'linux', undefined],
  [{ Path: 'a' }, 'PATH', 'win32', 'a'],
  [{ Path: 'a', PATH: 'b' }, 'PATH', 'win32', 'b'], // exact spelling wins
  [{ toString: 'x' }, 'constructor', 'linux', undefined], // own keys only
] as const)('getEnvVar(%j, %s, %s) = %j', (env, name, platform, expected) => {
  expect(getEnvVar(env, name, platform)).toBe(expected);
});
