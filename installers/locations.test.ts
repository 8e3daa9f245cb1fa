import { describe, expect, it } from 'vitest';
import { BROWSERS, type Browser, type InstallPlatform } from './browsers';
import {
  KNOWN_REGISTRY_KEYS,
  installPaths,
  manifestLocation,
  registryKeyFor,
  type LocationInput,
} from './locations';

// Dangerous direction: a manifest written where the browser does not look fails quietly (the
// extension just cannot connect), and a key or file outside the per-user locations would need
// admin rights or reach other users. Every OS x browser is pinned here, against Chrome's and
// MDN's native messaging docs.

const HOMES: Record<InstallPlatform, { homedir: string; home: string }> = {
  linux: { homedir: '/home/ann', home: '/home/ann/.config/switchyard' },
  darwin: { homedir: '/Users/ann', home: '/Users/ann/Library/Application Support/Switchyard' },
  win32: { homedir: 'C:\\Users\\ann', home: 'C:\\Users\\ann\\AppData\\Roaming\\Switchyard' },
};

const EXPECTED: Record<InstallPlatform, Record<Browser, [manifest: string, key: string | null]>> = {
  linux: {
    chrome: ['/home/ann/.config/google-chrome/NativeMessagingHosts/com.switchyard.host.json', null],
    chromium: ['/home/ann/.config/chromium/NativeMessagingHosts/com.switchyard.host.json', null],
    edge: ['/home/ann/.config/microsoft-edge/NativeMessagingHosts/com.switchyard.host.json', null],
    brave: [
      '/home/ann/.config/BraveSoftware/Brave-Browser/NativeMessagingHosts/com.switchyard.host.json',
      null,
    ],
    vivaldi: ['/home/ann/.config/vivaldi/NativeMessagingHosts/com.switchyard.host.json', null],
    firefox: ['/home/ann/.mozilla/native-messaging-hosts/com.switchyard.host.json', null],
  },
  darwin: {
    chrome: [
      '/Users/ann/Library/Application Support/Google/Chrome/NativeMessagingHosts/com.switchyard.host.json',
      null,
    ],
    chromium: [
      '/Users/ann/Library/Application Support/Chromium/NativeMessagingHosts/com.switchyard.host.json',
      null,
    ],
    edge: [
      '/Users/ann/Library/Application Support/Microsoft Edge/NativeMessagingHosts/com.switchyard.host.json',
      null,
    ],
    brave: [
      '/Users/ann/Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts/com.switchyard.host.json',
      null,
    ],
    vivaldi: [
      '/Users/ann/Library/Application Support/Vivaldi/NativeMessagingHosts/com.switchyard.host.json',
      null,
    ],
    firefox: [
      '/Users/ann/Library/Application Support/Mozilla/NativeMessagingHosts/com.switchyard.host.json',
      null,
    ],
  },
  win32: {
    chrome: [
      'C:\\Users\\ann\\AppData\\Roaming\\Switchyard\\host\\chrome\\com.switchyard.host.json',
      'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.switchyard.host',
    ],
    chromium: [
      'C:\\Users\\ann\\AppData\\Roaming\\Switchyard\\host\\chromium\\com.switchyard.host.json',
      'HKCU\\Software\\Chromium\\NativeMessagingHosts\\com.switchyard.host',
    ],
    edge: [
      'C:\\Users\\ann\\AppData\\Roaming\\Switchyard\\host\\edge\\com.switchyard.host.json',
      'HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\com.switchyard.host',
    ],
    brave: [
      'C:\\Users\\ann\\AppData\\Roaming\\Switchyard\\host\\brave\\com.switchyard.host.json',
      'HKCU\\Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts\\com.switchyard.host',
    ],
    vivaldi: [
      'C:\\Users\\ann\\AppData\\Roaming\\Switchyard\\host\\vivaldi\\com.switchyard.host.json',
      'HKCU\\Software\\Vivaldi\\NativeMessagingHosts\\com.switchyard.host',
    ],
    firefox: [
      'C:\\Users\\ann\\AppData\\Roaming\\Switchyard\\host\\firefox\\com.switchyard.host.json',
      'HKCU\\Software\\Mozilla\\NativeMessagingHosts\\com.switchyard.host',
    ],
  },
};

const ROWS = (['linux', 'darwin', 'win32'] as const).flatMap((platform) =>
  BROWSERS.map((browser) => [platform, browser, ...EXPECTED[platform][browser]] as const),
);

describe('manifestLocation: the per-user default for every OS x browser', () => {
  it.each(ROWS)('%s %s -> %s (%s)', (platform, browser, manifest, registryKey) => {
    const result = manifestLocation({ platform, browser, ...HOMES[platform] });
    expect(result).toEqual({ ok: true, location: { manifest, registryKey } });
  });
});

describe('manifestLocation: --user-data-dir and XDG_CONFIG_HOME', () => {
  const linux = { platform: 'linux', ...HOMES.linux } as const;
  it.each<[string, LocationInput, string]>([
    [
      'chromium profile',
      { ...linux, browser: 'chromium', userDataDir: '/tmp/profile' },
      '/tmp/profile/NativeMessagingHosts/com.switchyard.host.json',
    ],
    [
      'chrome profile with spaces',
      { ...linux, browser: 'chrome', userDataDir: '/home/ann/my profiles/work' },
      '/home/ann/my profiles/work/NativeMessagingHosts/com.switchyard.host.json',
    ],
    [
      'macOS brave profile',
      { platform: 'darwin', ...HOMES.darwin, browser: 'brave', userDataDir: '/Users/ann/p' },
      '/Users/ann/p/NativeMessagingHosts/com.switchyard.host.json',
    ],
    [
      'absolute XDG_CONFIG_HOME moves Chromium browsers',
      { ...linux, browser: 'edge', xdgConfigHome: '/home/ann/xdg' },
      '/home/ann/xdg/microsoft-edge/NativeMessagingHosts/com.switchyard.host.json',
    ],
    [
      'relative XDG_CONFIG_HOME is ignored (XDG spec)',
      { ...linux, browser: 'chromium', xdgConfigHome: 'xdg' },
      '/home/ann/.config/chromium/NativeMessagingHosts/com.switchyard.host.json',
    ],
    [
      'XDG_CONFIG_HOME does not move Firefox',
      { ...linux, browser: 'firefox', xdgConfigHome: '/home/ann/xdg' },
      '/home/ann/.mozilla/native-messaging-hosts/com.switchyard.host.json',
    ],
  ])('%s', (_name, input, manifest) => {
    expect(manifestLocation(input)).toEqual({
      ok: true,
      location: { manifest, registryKey: null },
    });
  });

  // Firefox keeps new profiles in ~/.config/mozilla/firefox, which makes
  // ~/.config/mozilla/native-messaging-hosts look like the "right" folder. It is not: Firefox
  // (ESR 153, tried by hand in issue 16) reads per-user hosts from ~/.mozilla/native-messaging-hosts
  // only, with either profile layout, and so do the snap's desktop portal and Flatpak's
  // xdg-native-messaging-proxy. Moving the manifest would make every Firefox fail to connect,
  // silently. If Firefox ever reads the new folder, write both; never move this one.
  it.each<[string, string | undefined]>([
    ['no XDG_CONFIG_HOME', undefined],
    ['the default XDG_CONFIG_HOME', '/home/ann/.config'],
    ['a custom XDG_CONFIG_HOME', '/home/ann/xdg'],
  ])('pins Firefox to ~/.mozilla/native-messaging-hosts with %s', (_name, xdgConfigHome) => {
    const result = manifestLocation({ ...linux, browser: 'firefox', xdgConfigHome });
    expect(result).toEqual({
      ok: true,
      location: {
        manifest: '/home/ann/.mozilla/native-messaging-hosts/com.switchyard.host.json',
        registryKey: null,
      },
    });
    expect(JSON.stringify(result)).not.toContain('.config');
  });

  it.each<[string, LocationInput, RegExp]>([
    [
      'Firefox has no user data dir',
      { ...linux, browser: 'firefox', userDataDir: '/tmp/p' },
      /Chromium option/,
    ],
    [
      'Windows reads the registry for every profile',
      { platform: 'win32', ...HOMES.win32, browser: 'chrome', userDataDir: 'C:\\p' },
      /not needed on Windows/,
    ],
    [
      'a relative profile folder',
      { ...linux, browser: 'chromium', userDataDir: 'profile' },
      /absolute/,
    ],
    ['a relative home folder', { ...linux, browser: 'chromium', homedir: 'ann' }, /home folder/],
  ])('refuses: %s', (_name, input, message) => {
    const result = manifestLocation(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });
});

describe('installPaths and registry keys', () => {
  it.each([
    [
      'linux',
      '/h/sy',
      {
        hostDir: '/h/sy/host',
        launcher: '/h/sy/host/switchyard-host',
        bundle: '/h/sy/host/switchyard.cjs',
        mainBundle: '/h/sy/host/switchyard-main.cjs',
        codeCache: '/h/sy/host/code-cache',
        receipt: '/h/sy/install.json',
      },
    ],
    [
      'win32',
      'C:\\sy',
      {
        hostDir: 'C:\\sy\\host',
        launcher: 'C:\\sy\\host\\switchyard-host.cmd',
        bundle: 'C:\\sy\\host\\switchyard.cjs',
        mainBundle: 'C:\\sy\\host\\switchyard-main.cjs',
        codeCache: 'C:\\sy\\host\\code-cache',
        receipt: 'C:\\sy\\install.json',
      },
    ],
  ] as const)('%s', (platform, home, expected) => {
    expect(installPaths(home, platform)).toEqual(expected);
  });

  it('knows exactly one key per browser, all under HKCU', () => {
    expect(KNOWN_REGISTRY_KEYS).toEqual(BROWSERS.map(registryKeyFor));
    expect(new Set(KNOWN_REGISTRY_KEYS).size).toBe(BROWSERS.length);
    for (const key of KNOWN_REGISTRY_KEYS)
      expect(key).toMatch(/^HKCU\\Software\\.+\\NativeMessagingHosts\\com\.switchyard\.host$/);
  });
});
