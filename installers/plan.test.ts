import { describe, expect, it } from 'vitest';
import { DEV_EXTENSION_ID, GECKO_ID, HOST_NAME } from '../protocol/identity';
import { BROWSERS, BROWSER_INFO, type InstallPlatform } from './browsers';
import { parseLauncher } from './launcher';
import { manifestLocation } from './locations';
import { planInstall, targetDirectories, type InstallRequest } from './plan';
import type { Receipt } from './receipt';

// Dangerous direction: a plan that writes some files and then fails leaves a half install; and
// a plan whose manifests allow more than this build's ids widens who may start the host. The
// plan is computed whole before anything is written, and its origins are exactly the request's.

const STORE_ID = 'abcdefghijklmnopabcdefghijklmnop';

const REQUESTS: Record<InstallPlatform, InstallRequest> = {
  linux: {
    platform: 'linux',
    homedir: '/home/ann',
    home: '/home/ann/.config/switchyard',
    browsers: [],
    userDataDir: null,
    extensionIds: [DEV_EXTENSION_ID],
    node: '/home/ann/.nvm/versions/node/v20.19.0/bin/node',
    version: '0.1.0',
    loginPath: {
      value: '/home/ann/.nvm/versions/node/v20.19.0/bin:/usr/bin',
      source: 'login-shell',
      shell: '/bin/bash',
    },
  },
  darwin: {
    platform: 'darwin',
    homedir: '/Users/ann',
    home: '/Users/ann/Library/Application Support/Switchyard',
    browsers: [],
    userDataDir: null,
    extensionIds: [DEV_EXTENSION_ID],
    node: '/opt/homebrew/bin/node',
    version: '0.1.0',
    loginPath: { value: '/opt/homebrew/bin:/usr/bin', source: 'login-shell', shell: '/bin/zsh' },
  },
  win32: {
    platform: 'win32',
    homedir: 'C:\\Users\\ann',
    home: 'C:\\Users\\ann\\AppData\\Roaming\\Switchyard',
    browsers: [],
    userDataDir: null,
    extensionIds: [DEV_EXTENSION_ID],
    node: 'C:\\Program Files\\nodejs\\node.exe',
    version: '0.1.0',
    loginPath: null,
  },
};

const ROWS = (['linux', 'darwin', 'win32'] as const).flatMap((platform) =>
  BROWSERS.map((browser) => [platform, browser] as const),
);

describe('planInstall for every OS x browser', () => {
  it.each(ROWS)('%s %s', (platform, browser) => {
    const request = { ...REQUESTS[platform], browsers: [browser] };
    const result = planInstall(request, null);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { plan } = result;
    const [planned] = plan.manifests;
    const location = manifestLocation({ ...request, browser });
    expect(location.ok && planned?.registration.manifest).toBe(
      location.ok && location.location.manifest,
    );
    expect(planned?.registration.registryKey).toBe(
      location.ok ? location.location.registryKey : 'x',
    );
    expect(planned?.manifest.path).toBe(plan.paths.launcher);
    expect(planned?.manifest.name).toBe(HOST_NAME);
    const firefox = BROWSER_INFO[browser].family === 'firefox';
    expect(JSON.parse(planned?.text ?? '{}')).toEqual(planned?.manifest);
    if (firefox) expect(planned?.manifest).toMatchObject({ allowed_extensions: [GECKO_ID] });
    else
      expect(planned?.manifest).toMatchObject({
        allowed_origins: [`chrome-extension://${DEV_EXTENSION_ID}/`],
      });
    expect(planned?.registration.extensionIds).toEqual(firefox ? [] : [DEV_EXTENSION_ID]);
    // The launcher runs the recorded node on the copied bundle with the pinned home.
    expect(parseLauncher(plan.launcherText, platform)).toMatchObject({
      node: request.node,
      bundle: plan.paths.bundle,
      home: request.home,
    });
    expect(plan.receipt).toMatchObject({
      platform,
      node: request.node,
      launcher: plan.paths.launcher,
      loginPath: request.loginPath,
      registrations: [planned?.registration],
    });
  });

  it('plans several browsers at once, each once', () => {
    const result = planInstall(
      { ...REQUESTS.linux, browsers: ['chrome', 'firefox', 'chrome'] },
      null,
    );
    expect(result.ok && result.plan.manifests.map((m) => m.browser)).toEqual(['chrome', 'firefox']);
    expect(result.ok && targetDirectories(result.plan, 'linux')).toEqual([
      '/home/ann/.config/switchyard',
      '/home/ann/.config/switchyard/host',
      '/home/ann/.config/google-chrome/NativeMessagingHosts',
      '/home/ann/.mozilla/native-messaging-hosts',
    ]);
  });

  it('allows exactly the requested ids, replacing what the previous receipt allowed', () => {
    const previous: Receipt = {
      receipt: 1,
      version: '0.0.9',
      platform: 'linux',
      node: '/usr/bin/node',
      launcher: '/home/ann/.config/switchyard/host/switchyard-host',
      bundle: '/home/ann/.config/switchyard/host/switchyard.cjs',
      loginPath: null,
      registrations: [
        {
          browser: 'chrome',
          manifest: '/home/ann/.config/google-chrome/NativeMessagingHosts/com.switchyard.host.json',
          registryKey: null,
          userDataDir: null,
          extensionIds: [DEV_EXTENSION_ID, STORE_ID],
        },
      ],
    };
    const result = planInstall({ ...REQUESTS.linux, browsers: ['chrome'] }, previous);
    expect(result.ok && result.plan.receipt.registrations).toEqual([
      expect.objectContaining({ browser: 'chrome', extensionIds: [DEV_EXTENSION_ID] }),
    ]);
    expect(result.ok && result.plan.manifests[0]?.text).not.toContain(STORE_ID);

    const wider = planInstall(
      { ...REQUESTS.linux, browsers: ['chrome'], extensionIds: [DEV_EXTENSION_ID, STORE_ID] },
      null,
    );
    expect(wider.ok && wider.plan.manifests[0]?.manifest).toMatchObject({
      allowed_origins: [
        `chrome-extension://${DEV_EXTENSION_ID}/`,
        `chrome-extension://${STORE_ID}/`,
      ],
    });
  });

  it.each<[string, Partial<InstallRequest>, RegExp]>([
    ['no browser', { browsers: [] }, /no browser/],
    [
      'a user data dir for two browsers',
      { browsers: ['chrome', 'edge'], userDataDir: '/tmp/p' },
      /exactly one --browser/,
    ],
    [
      'a user data dir for Firefox',
      { browsers: ['firefox'], userDataDir: '/tmp/p' },
      /Chromium option/,
    ],
    [
      'a bad extension id',
      { browsers: ['chrome'], extensionIds: ['nope'] },
      /not a Chromium extension id/,
    ],
    ['no extension id', { browsers: ['chrome'], extensionIds: [] }, /at least one/],
    [
      'more extension ids than a receipt holds',
      {
        browsers: ['chrome'],
        extensionIds: [DEV_EXTENSION_ID, ...'abcdefghijklmnop'.split('').map((c) => c.repeat(32))],
      },
      /at most 16 extension ids/,
    ],
    ['a relative node', { browsers: ['chrome'], node: 'node' }, /node path must be absolute/],
    ['a relative home', { browsers: ['chrome'], home: 'sy' }, /home folder must be absolute/],
  ])('refuses %s', (_name, change, message) => {
    const result = planInstall({ ...REQUESTS.linux, ...change }, null);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it('refuses a Windows path a .cmd launcher cannot carry, before writing anything', () => {
    const result = planInstall(
      { ...REQUESTS.win32, browsers: ['edge'], node: 'C:\\odd"name\\node.exe' },
      null,
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/double quote/);
  });
});
