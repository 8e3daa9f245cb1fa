import { describe, expect, it } from 'vitest';
import { DEV_EXTENSION_ID } from '../protocol/identity';
import {
  mergeRegistrations,
  parseReceipt,
  receiptExtensionIds,
  receiptText,
  type Receipt,
  type Registration,
} from './receipt';

// Dangerous direction: uninstall deletes what the receipt lists, and the host accepts the ids it
// lists. A receipt edited to name ~/.bashrc, another registry key or a wildcard id must be
// rejected whole, not half-used.

const STORE_ID = 'abcdefghijklmnopabcdefghijklmnop';

const reg = (
  browser: Registration['browser'],
  manifest: string,
  ids = [DEV_EXTENSION_ID],
): Registration => ({
  browser,
  manifest,
  registryKey: null,
  userDataDir: null,
  extensionIds: browser === 'firefox' ? [] : ids,
});

const RECEIPT: Receipt = {
  receipt: 1,
  version: '0.1.0',
  platform: 'linux',
  node: '/usr/bin/node',
  launcher: '/home/ann/.config/switchyard/host/switchyard-host',
  bundle: '/home/ann/.config/switchyard/host/switchyard.cjs',
  loginPath: { value: '/usr/bin:/bin', source: 'login-shell', shell: '/bin/bash' },
  registrations: [
    reg('chrome', '/home/ann/.config/google-chrome/NativeMessagingHosts/com.switchyard.host.json'),
    reg('firefox', '/home/ann/.mozilla/native-messaging-hosts/com.switchyard.host.json'),
  ],
};

describe('parseReceipt', () => {
  it('round-trips a receipt', () => {
    expect(parseReceipt(receiptText(RECEIPT), 'install.json')).toEqual({
      kind: 'ok',
      receipt: RECEIPT,
    });
  });

  const first = RECEIPT.registrations[0]!;
  it.each<[string, unknown]>([
    ['not JSON', 'nope'],
    [
      'a manifest named otherwise',
      { ...RECEIPT, registrations: [{ ...first, manifest: '/home/ann/.bashrc' }] },
    ],
    [
      'a relative manifest',
      { ...RECEIPT, registrations: [{ ...first, manifest: 'com.switchyard.host.json' }] },
    ],
    ['a launcher named otherwise', { ...RECEIPT, launcher: '/usr/bin/sudo' }],
    ['a bundle named otherwise', { ...RECEIPT, bundle: '/home/ann/.ssh/id_ed25519' }],
    [
      'an unknown registry key',
      {
        ...RECEIPT,
        registrations: [
          { ...first, registryKey: 'HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run' },
        ],
      },
    ],
    ['a wildcard id', { ...RECEIPT, registrations: [{ ...first, extensionIds: ['*'] }] }],
    ['an unknown browser', { ...RECEIPT, registrations: [{ ...first, browser: 'opera' }] }],
    ['an unknown key', { ...RECEIPT, allowAll: true }],
    ['another format', { ...RECEIPT, receipt: 2 }],
    ['a path with a line break', { ...RECEIPT, node: '/usr/bin/no\nde' }],
  ])('rejects %s', (_name, value) => {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const result = parseReceipt(text, '/x/install.json');
    expect(result.kind).toBe('invalid');
    if (result.kind === 'invalid') expect(result.message).toMatch(/switchyard install/);
  });

  it('accepts Windows paths and keys', () => {
    const windows = {
      ...RECEIPT,
      platform: 'win32',
      node: 'C:\\Program Files\\nodejs\\node.exe',
      launcher: 'C:\\Users\\ann\\AppData\\Roaming\\Switchyard\\host\\switchyard-host.cmd',
      bundle: 'C:\\Users\\ann\\AppData\\Roaming\\Switchyard\\host\\switchyard.cjs',
      loginPath: null,
      registrations: [
        {
          ...first,
          manifest:
            'C:\\Users\\ann\\AppData\\Roaming\\Switchyard\\host\\edge\\com.switchyard.host.json',
          registryKey: 'HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\com.switchyard.host',
          browser: 'edge',
        },
      ],
    };
    expect(parseReceipt(JSON.stringify(windows), 'r').kind).toBe('ok');
  });
});

describe('mergeRegistrations: a redone registration replaces the old one whole', () => {
  const chrome = '/h/.config/google-chrome/NativeMessagingHosts/com.switchyard.host.json';
  const profile = '/tmp/p/NativeMessagingHosts/com.switchyard.host.json';
  const firefox = '/h/.mozilla/native-messaging-hosts/com.switchyard.host.json';
  it.each<[string, Registration[], Registration[], Registration[]]>([
    ['fresh', [], [reg('chrome', chrome)], [reg('chrome', chrome)]],
    ['same again', [reg('chrome', chrome)], [reg('chrome', chrome)], [reg('chrome', chrome)]],
    [
      'narrowed ids replace wider ones',
      [reg('chrome', chrome, [DEV_EXTENSION_ID, STORE_ID])],
      [reg('chrome', chrome)],
      [reg('chrome', chrome)],
    ],
    [
      'other browsers and profiles are kept',
      [reg('firefox', firefox), reg('chromium', profile)],
      [reg('chrome', chrome)],
      [reg('chrome', chrome), reg('chromium', profile), reg('firefox', firefox)],
    ],
  ])('%s', (_name, previous, next, expected) => {
    expect(mergeRegistrations(previous, next)).toEqual(expected);
  });

  it('is order-independent, so a re-install writes the same bytes', () => {
    const a = [reg('firefox', firefox), reg('chrome', chrome)];
    expect(mergeRegistrations(a, [reg('chrome', chrome)])).toEqual(
      mergeRegistrations([...a].reverse(), [reg('chrome', chrome)]),
    );
  });
});

describe('receiptExtensionIds', () => {
  it('is every Chromium id any registration allows, once', () => {
    expect(
      receiptExtensionIds({
        ...RECEIPT,
        registrations: [
          reg('chrome', '/a/com.switchyard.host.json', [DEV_EXTENSION_ID, STORE_ID]),
          reg('edge', '/b/com.switchyard.host.json'),
          reg('firefox', '/c/com.switchyard.host.json'),
        ],
      }),
    ).toEqual([DEV_EXTENSION_ID, STORE_ID]);
  });
});
