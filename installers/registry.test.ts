import { describe, expect, it } from 'vitest';
import { BROWSERS } from './browsers';
import { registryKeyFor } from './locations';
import {
  REG_NOT_RUN,
  RegistryUnavailableError,
  makeRegRunner,
  regCommand,
  type ExecFileLike,
  parseRegQueryDefault,
  queryDefault,
  regAddArgv,
  regDeleteArgv,
  regExePath,
  regQueryArgv,
  unknownWindowsRootMessage,
  type RegistryRunner,
} from './registry';

// Dangerous direction: a key written anywhere but HKCU\Software\<vendor>\NativeMessagingHosts
// either does nothing or needs admin rights; a value built by string concatenation for a shell
// would break (or run) on `&`, `^` or `%` in a path. The argv goes to execFile as is.

const MANIFEST =
  'C:\\Users\\Ann & Bob\\AppData\\Roaming\\Switch^yard %x%\\host\\edge\\com.switchyard.host.json';

describe('reg.exe argv for every browser', () => {
  const vendor: Record<string, string> = {
    chrome: 'Google\\Chrome',
    chromium: 'Chromium',
    edge: 'Microsoft\\Edge',
    brave: 'BraveSoftware\\Brave-Browser',
    vivaldi: 'Vivaldi',
    firefox: 'Mozilla',
  };
  it.each(BROWSERS)('%s', (browser) => {
    const key = `HKCU\\Software\\${vendor[browser] ?? ''}\\NativeMessagingHosts\\com.switchyard.host`;
    expect(registryKeyFor(browser)).toBe(key);
    expect(regAddArgv(key, MANIFEST)).toEqual([
      'add',
      key,
      '/ve',
      '/t',
      'REG_SZ',
      '/d',
      MANIFEST,
      '/f',
    ]);
    expect(regDeleteArgv(key)).toEqual(['delete', key, '/f']);
    expect(regQueryArgv(key)).toEqual(['query', key, '/ve']);
  });
});

describe('parseRegQueryDefault', () => {
  const key = 'HKEY_CURRENT_USER\\Software\\Chromium\\NativeMessagingHosts\\com.switchyard.host';
  it.each<[string, string, string | null]>([
    [
      'English',
      `\r\n${key}\r\n    (Default)    REG_SZ    C:\\a b\\m.json\r\n\r\n`,
      'C:\\a b\\m.json',
    ],
    ['German', `\r\n${key}\r\n    (Standard)    REG_SZ    C:\\x\\m.json\r\n`, 'C:\\x\\m.json'],
    [
      'French',
      `\n${key}\n    (par défaut)    REG_SZ    D:\\m  two  spaces.json\n`,
      'D:\\m  two  spaces.json',
    ],
    [
      'expandable',
      `${key}\n    (Default)    REG_EXPAND_SZ    %APPDATA%\\m.json\n`,
      '%APPDATA%\\m.json',
    ],
    ['value not set', `${key}\n    (Default)    REG_SZ\n`, ''],
    [
      'no key',
      'ERROR: The system was unable to find the specified registry key or value.\r\n',
      null,
    ],
    ['a DWORD is not a path', `${key}\n    (Default)    REG_DWORD    0x1\n`, null],
  ])('%s', (_name, output, expected) => {
    expect(parseRegQueryDefault(output)).toBe(expected);
  });
});

describe('regExePath: never a bare name Windows would look up in the current folder', () => {
  it.each<[Record<string, string>, string]>([
    [{ SystemRoot: 'C:\\Windows' }, 'C:\\Windows\\System32\\reg.exe'],
    [{ SYSTEMROOT: 'D:\\WINNT\\' }, 'D:\\WINNT\\System32\\reg.exe'],
    [{ SystemRoot: 'Windows', windir: 'E:\\Win' }, 'E:\\Win\\System32\\reg.exe'],
  ])('%j', (env, expected) => {
    expect(regExePath(env)).toBe(expected);
  });

  // Dangerous direction: '' gave '\System32\reg.exe' (the current drive's root), 'Windows'
  // gave 'Windows\System32\reg.exe' (the current folder): a planted reg.exe would have run.
  it.each<Record<string, string>>([
    {},
    { SystemRoot: '' },
    { SystemRoot: 'Windows' },
    { SystemRoot: '.\\Windows' },
    { SystemRoot: '\\\\server\\share' },
    { SystemRoot: 'C:\\Users\\me\\..\\..\\tmp' },
    { SystemRoot: 'C:Windows' },
    { SystemRoot: 'C:\\Win"dows' },
    { SystemRoot: 'C:\\%TEMP%' },
  ])('refuses %j', (env) => {
    expect(regExePath(env)).toBeNull();
    expect(unknownWindowsRootMessage(env)).toMatch(/Open a new terminal/);
  });
});

describe('queryDefault: a reg.exe that did not run is not an absent key', () => {
  const key = registryKeyFor('chrome');
  it('absent when reg.exe answers that the key is not there', async () => {
    const run: RegistryRunner = () =>
      Promise.resolve({ code: 1, stdout: '', stderr: 'ERROR: unable to find' });
    await expect(queryDefault(run, key)).resolves.toBeNull();
  });
  it('throws when reg.exe could not be run', async () => {
    const run: RegistryRunner = () =>
      Promise.resolve({ code: REG_NOT_RUN, stdout: '', stderr: 'spawn reg.exe ENOENT' });
    await expect(queryDefault(run, key)).rejects.toThrow(RegistryUnavailableError);
    await expect(queryDefault(run, key)).rejects.toThrow(/could not read .*ENOENT/);
  });
});

describe('reg query reads values in UTF-8, whatever the console code page', () => {
  const key = registryKeyFor('edge');
  const manifest =
    'C:\\Users\\Jérôme Ünal\\AppData\\Roaming\\Switchyard\\host\\edge\\com.switchyard.host.json';

  it('runs a query in cmd.exe after chcp 65001, every program by absolute path', () => {
    expect(regCommand('C:\\Windows', regQueryArgv(key))).toEqual({
      file: 'C:\\Windows\\System32\\cmd.exe',
      args: [
        '/d',
        '/s',
        '/c',
        `""C:\\Windows\\System32\\chcp.com" 65001 >nul & "C:\\Windows\\System32\\reg.exe" "query" "${key}" "/ve""`,
      ],
      verbatim: true,
    });
  });

  // Dangerous direction: a user's path reaching cmd.exe, which would parse `&` and `%`.
  it.each([
    ['add', regAddArgv(key, MANIFEST)],
    ['delete', regDeleteArgv(key)],
    ['a query with a word cmd would parse', ['query', 'HKCU\\x&calc', '/ve']],
  ])('runs reg.exe directly for %s', (_name, argv) => {
    expect(regCommand('C:\\Windows', argv)).toEqual({
      file: 'C:\\Windows\\System32\\reg.exe',
      args: argv,
      verbatim: false,
    });
  });

  it("runs reg.exe directly when Windows' folder has a space", () => {
    expect(regCommand('C:\\My Windows', regQueryArgv(key)).file).toBe(
      'C:\\My Windows\\System32\\reg.exe',
    );
  });

  it('hands execFile that command, and the UTF-8 answer gives back the exact path', async () => {
    const seen: [string, readonly string[], boolean][] = [];
    const execFile: ExecFileLike = (file, args, options, callback) => {
      seen.push([file, args, options.windowsVerbatimArguments]);
      callback(
        null,
        `\r\nHKEY_CURRENT_USER\\${key.slice(5)}\r\n    (Default)    REG_SZ    ${manifest}\r\n`,
        '',
      );
    };
    const run = makeRegRunner({ SystemRoot: 'C:\\Windows' }, () => execFile);
    await expect(queryDefault(run, key)).resolves.toBe(manifest);
    expect(seen[0]?.[0]).toBe('C:\\Windows\\System32\\cmd.exe');
    expect(seen[0]?.[2]).toBe(true);
  });

  it('reports a reg.exe that did not run, or a bad SystemRoot, as not run', async () => {
    const missing: ExecFileLike = (_file, _args, _options, callback) => {
      callback({ code: 'ENOENT', message: 'spawn ENOENT' }, '', '');
    };
    const timedOut: ExecFileLike = (_file, _args, _options, callback) => {
      callback({ code: null, signal: 'SIGTERM', killed: true, message: 'timeout' }, '', '');
    };
    const absent: ExecFileLike = (_file, _args, _options, callback) => {
      callback({ code: 1, message: 'exit 1' }, '', 'ERROR: unable to find');
    };
    const env = { SystemRoot: 'C:\\Windows' };
    expect((await makeRegRunner(env, () => missing)(['query', key, '/ve'])).code).toBe(REG_NOT_RUN);
    expect((await makeRegRunner(env, () => timedOut)(['query', key, '/ve'])).code).toBe(
      REG_NOT_RUN,
    );
    expect((await makeRegRunner(env, () => absent)(['query', key, '/ve'])).code).toBe(1);
    const unset = await makeRegRunner(
      { SystemRoot: 'Windows' },
      () => absent,
    )(['query', key, '/ve']);
    expect(unset.code).toBe(REG_NOT_RUN);
    expect(unset.stderr).toMatch(/SystemRoot is "Windows"/);
  });
});
