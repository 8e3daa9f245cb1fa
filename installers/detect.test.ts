import { describe, expect, it } from 'vitest';
import type { Browser, InstallPlatform } from './browsers';
import { detectBrowsers, type DetectInput } from './detect';

// Dangerous direction: none, really; a missed browser is named with --browser, and a false
// positive writes one manifest into a folder nobody reads. Still pinned for every OS.

const INPUTS: Record<InstallPlatform, DetectInput> = {
  linux: { platform: 'linux', homedir: '/home/ann', env: { PATH: '/usr/bin:/snap/bin:rel' } },
  darwin: { platform: 'darwin', homedir: '/Users/ann', env: {} },
  win32: {
    platform: 'win32',
    homedir: 'C:\\Users\\ann',
    env: {
      LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local',
      APPDATA: 'C:\\Users\\ann\\AppData\\Roaming',
    },
  },
};

describe('detectBrowsers', () => {
  it.each<[InstallPlatform, string[], Browser[]]>([
    ['linux', [], []],
    ['linux', ['/home/ann/.config/google-chrome'], ['chrome']],
    ['linux', ['/usr/bin/chromium', '/snap/bin/firefox'], ['chromium', 'firefox']],
    [
      'linux',
      ['/home/ann/.config/BraveSoftware/Brave-Browser', '/usr/bin/vivaldi-stable'],
      ['brave', 'vivaldi'],
    ],
    ['linux', ['/home/ann/.mozilla/firefox', '/usr/bin/microsoft-edge'], ['edge', 'firefox']],
    ['linux', ['rel/chromium'], []],
    [
      'darwin',
      ['/Applications/Google Chrome.app', '/Users/ann/Applications/Firefox.app'],
      ['chrome', 'firefox'],
    ],
    ['darwin', ['/Users/ann/Library/Application Support/Microsoft Edge'], ['edge']],
    [
      'darwin',
      [
        '/Users/ann/Library/Application Support/BraveSoftware/Brave-Browser',
        '/Applications/Vivaldi.app',
        '/Applications/Chromium.app',
      ],
      ['chromium', 'brave', 'vivaldi'],
    ],
    [
      'win32',
      [
        'C:\\Users\\ann\\AppData\\Local\\Google\\Chrome\\User Data',
        'C:\\Users\\ann\\AppData\\Roaming\\Mozilla\\Firefox',
      ],
      ['chrome', 'firefox'],
    ],
    [
      'win32',
      [
        'C:\\Users\\ann\\AppData\\Local\\Microsoft\\Edge\\User Data',
        'C:\\Users\\ann\\AppData\\Local\\BraveSoftware\\Brave-Browser\\User Data',
      ],
      ['edge', 'brave'],
    ],
    [
      'win32',
      [
        'C:\\Users\\ann\\AppData\\Local\\Chromium\\User Data',
        'C:\\Users\\ann\\AppData\\Local\\Vivaldi\\User Data',
      ],
      ['chromium', 'vivaldi'],
    ],
  ])('%s with %j -> %j', async (platform, existing, expected) => {
    const present = new Set(existing);
    expect(await detectBrowsers(INPUTS[platform], (p) => present.has(p))).toEqual(expected);
  });

  it('follows XDG_CONFIG_HOME on Linux', async () => {
    const input = { ...INPUTS.linux, env: { XDG_CONFIG_HOME: '/home/ann/xdg' } };
    expect(await detectBrowsers(input, (p) => p === '/home/ann/xdg/chromium')).toEqual([
      'chromium',
    ]);
  });
});
