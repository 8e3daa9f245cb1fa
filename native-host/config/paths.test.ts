import { describe, expect, test } from 'vitest';
import { ConfigError } from './load';
import { configPath, switchyardHome } from './paths';

// Dangerous direction: accepting a relative or drive-relative home. The browser starts the host
// in the launcher's folder, so the host would read (and trust) a config.json from wherever that
// is. Refusing with a clear message costs the user one edit.

describe('switchyardHome', () => {
  test.each<[string, NodeJS.ProcessEnv, NodeJS.Platform, string, string]>([
    ['linux default', {}, 'linux', '/home/u', '/home/u/.config/switchyard'],
    ['linux XDG', { XDG_CONFIG_HOME: '/xdg/' }, 'linux', '/home/u', '/xdg/switchyard'],
    [
      'linux relative XDG ignored',
      { XDG_CONFIG_HOME: 'xdg' },
      'linux',
      '/home/u',
      '/home/u/.config/switchyard',
    ],
    [
      'linux empty XDG ignored',
      { XDG_CONFIG_HOME: '' },
      'linux',
      '/home/u',
      '/home/u/.config/switchyard',
    ],
    [
      'linux override',
      { SWITCHYARD_HOME: '/opt/sy/', XDG_CONFIG_HOME: '/xdg' },
      'linux',
      '/home/u',
      '/opt/sy',
    ],
    [
      'linux override normalized',
      { SWITCHYARD_HOME: '/opt//a/../sy' },
      'linux',
      '/home/u',
      '/opt/sy',
    ],
    [
      'linux empty override ignored',
      { SWITCHYARD_HOME: '' },
      'linux',
      '/home/u',
      '/home/u/.config/switchyard',
    ],
    [
      'linux override is case-sensitive',
      { switchyard_home: '/x' },
      'linux',
      '/home/u',
      '/home/u/.config/switchyard',
    ],
    ['freebsd follows XDG', { XDG_CONFIG_HOME: '/xdg' }, 'freebsd', '/home/u', '/xdg/switchyard'],
    ['macOS default', {}, 'darwin', '/Users/u', '/Users/u/Library/Application Support/Switchyard'],
    [
      'macOS ignores XDG',
      { XDG_CONFIG_HOME: '/xdg' },
      'darwin',
      '/Users/u',
      '/Users/u/Library/Application Support/Switchyard',
    ],
    ['macOS override', { SWITCHYARD_HOME: '/Volumes/x/sy' }, 'darwin', '/Users/u', '/Volumes/x/sy'],
    [
      'windows APPDATA',
      { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' },
      'win32',
      'C:\\Users\\u',
      'C:\\Users\\u\\AppData\\Roaming\\Switchyard',
    ],
    [
      'windows appdata any case',
      { appdata: 'D:\\Roaming\\' },
      'win32',
      'C:\\Users\\u',
      'D:\\Roaming\\Switchyard',
    ],
    [
      'windows no APPDATA',
      {},
      'win32',
      'C:\\Users\\u',
      'C:\\Users\\u\\AppData\\Roaming\\Switchyard',
    ],
    [
      'windows relative APPDATA ignored',
      { APPDATA: 'Roaming' },
      'win32',
      'C:\\Users\\u',
      'C:\\Users\\u\\AppData\\Roaming\\Switchyard',
    ],
    [
      'windows ignores XDG',
      { XDG_CONFIG_HOME: 'C:\\xdg' },
      'win32',
      'C:\\Users\\u',
      'C:\\Users\\u\\AppData\\Roaming\\Switchyard',
    ],
    ['windows override', { SWITCHYARD_HOME: 'D:/sy/' }, 'win32', 'C:\\Users\\u', 'D:\\sy'],
    ['windows override any case', { Switchyard_Home: 'D:\\sy' }, 'win32', 'C:\\Users\\u', 'D:\\sy'],
    [
      'windows UNC override',
      { SWITCHYARD_HOME: '\\\\server\\share\\sy' },
      'win32',
      'C:\\Users\\u',
      '\\\\server\\share\\sy',
    ],
    ['windows drive root', { SWITCHYARD_HOME: 'D:\\' }, 'win32', 'C:\\Users\\u', 'D:\\'],
  ])('%s', (_label, env, platform, homedir, expected) => {
    expect(switchyardHome(env, platform, homedir)).toBe(expected);
  });

  test.each<[string, NodeJS.ProcessEnv, NodeJS.Platform, string, RegExp]>([
    [
      'relative',
      { SWITCHYARD_HOME: 'sy' },
      'linux',
      '/home/u',
      /SWITCHYARD_HOME: must be an absolute path, got "sy".*\/home\/you/,
    ],
    ['dot-relative', { SWITCHYARD_HOME: './sy' }, 'darwin', '/Users/u', /must be an absolute path/],
    [
      'tilde is not expanded',
      { SWITCHYARD_HOME: '~/sy' },
      'linux',
      '/home/u',
      /must be an absolute path/,
    ],
    [
      'windows drive-relative',
      { SWITCHYARD_HOME: 'C:sy' },
      'win32',
      'C:\\Users\\u',
      /must be an absolute path.*C:\\Users\\you/,
    ],
    [
      'windows root-relative',
      { SWITCHYARD_HOME: '\\sy' },
      'win32',
      'C:\\Users\\u',
      /must be an absolute path/,
    ],
    [
      'windows POSIX path',
      { SWITCHYARD_HOME: '/home/u/sy' },
      'win32',
      'C:\\Users\\u',
      /must be an absolute path/,
    ],
    ['no home folder', {}, 'linux', '', /cannot find your home folder.*set SWITCHYARD_HOME/],
    ['relative home folder', {}, 'win32', 'Users\\u', /cannot find your home folder/],
  ])('rejects: %s', (_label, env, platform, homedir, message) => {
    const call = () => switchyardHome(env, platform, homedir);
    expect(call).toThrow(ConfigError);
    expect(call).toThrow(message);
  });
});

test.each<[string, NodeJS.Platform, string]>([
  ['/home/u/.config/switchyard', 'linux', '/home/u/.config/switchyard/config.json'],
  [
    '/Users/u/Library/Application Support/Switchyard',
    'darwin',
    '/Users/u/Library/Application Support/Switchyard/config.json',
  ],
  [
    'C:\\Users\\u\\AppData\\Roaming\\Switchyard',
    'win32',
    'C:\\Users\\u\\AppData\\Roaming\\Switchyard\\config.json',
  ],
])('configPath(%s, %s)', (home, platform, expected) => {
  expect(configPath(home, platform)).toBe(expected);
});
