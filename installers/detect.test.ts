import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, InstallPlatform } from './browsers';
import { detectBrowsers, detectFirefoxPackages, type DetectInput } from './detect';
import type { FirefoxPackage } from './firefox-packages';

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

// Dangerous direction: a Firefox that is there but not found makes `switchyard install` say "No
// supported browser was found" (issue 16: a fresh Firefox on an empty home, no firefox on PATH);
// a sandboxed Firefox taken for a native one gets no advice on how it can reach the host.
describe('Firefox on Linux, by profile folder, under a temporary HOME', () => {
  let root: string;
  let home: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'switchyard-detect-'));
    home = path.join(root, 'home');
    mkdirSync(home);
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  // Folders are relative to HOME; `xdg` is XDG_CONFIG_HOME relative to HOME (absolute in the env).
  it.each<[string, string[], string | null, FirefoxPackage[]]>([
    ['nothing', [], null, []],
    ['classic ~/.mozilla/firefox', ['.mozilla/firefox'], null, ['native']],
    ['new layout, default ~/.config', ['.config/mozilla/firefox'], null, ['native']],
    ['new layout under XDG_CONFIG_HOME', ['xdg/mozilla/firefox'], 'xdg', ['native']],
    ['snap', ['snap/firefox/common/.mozilla/firefox'], null, ['snap']],
    ['Flatpak', ['.var/app/org.mozilla.firefox/.mozilla/firefox'], null, ['flatpak']],
    [
      'Flatpak, new layout in its own XDG_CONFIG_HOME',
      ['.var/app/org.mozilla.firefox/config/mozilla/firefox'],
      null,
      ['flatpak'],
    ],
    [
      'Flatpak installed per user, never run',
      ['.local/share/flatpak/app/org.mozilla.firefox'],
      null,
      ['flatpak'],
    ],
    [
      'snap and Flatpak side by side with a native one',
      [
        '.mozilla/firefox',
        'snap/firefox/common/.mozilla/firefox',
        '.var/app/org.mozilla.firefox/.mozilla/firefox',
      ],
      null,
      ['native', 'snap', 'flatpak'],
    ],
    ['only the host folder, no profile', ['.mozilla/native-messaging-hosts'], null, []],
  ])('%s', async (_name, folders, xdg, packages) => {
    for (const folder of folders) mkdirSync(path.join(home, folder), { recursive: true });
    const env = xdg === null ? {} : { XDG_CONFIG_HOME: path.join(home, xdg) };
    const input: DetectInput = { platform: 'linux', homedir: home, env };
    const exists = (p: string) => p.startsWith(root) && existsSync(p);
    expect(await detectBrowsers(input, exists)).toEqual(packages.length > 0 ? ['firefox'] : []);
    expect(await detectFirefoxPackages(input, exists)).toEqual(packages);
  });

  it('ignores a relative XDG_CONFIG_HOME (XDG spec), as for Chromium', async () => {
    mkdirSync(path.join(home, 'xdg', 'mozilla', 'firefox'), { recursive: true });
    const input: DetectInput = {
      platform: 'linux',
      homedir: home,
      env: { XDG_CONFIG_HOME: 'xdg' },
    };
    const exists = (p: string) => p.startsWith(root) && existsSync(p);
    expect(await detectBrowsers(input, exists)).toEqual([]);
  });

  it.each<[string, string, FirefoxPackage[]]>([
    ['firefox in /snap/bin is the snap', '/snap/bin/firefox', ['snap']],
    ['firefox-esr elsewhere on PATH is native', '/usr/bin/firefox-esr', ['native']],
  ])('%s', async (_name, file, packages) => {
    const input: DetectInput = {
      platform: 'linux',
      homedir: home,
      env: { PATH: '/usr/bin:/snap/bin' },
    };
    const exists = (p: string) => p === file;
    expect(await detectBrowsers(input, exists)).toEqual(['firefox']);
    expect(await detectFirefoxPackages(input, exists)).toEqual(packages);
  });

  it('reports no packages off Linux', async () => {
    expect(await detectFirefoxPackages(INPUTS.darwin, () => true)).toEqual([]);
  });
});
