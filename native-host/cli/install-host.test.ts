import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEV_EXTENSION_ID } from '../../protocol/identity';
import { receiptText, type Receipt } from '../../installers/receipt';
import { DEFAULT_ALLOWED_CALLERS, checkCaller } from '../rpc/origin';
import { applyReceipt, hostStartContext } from './install-host';

// Dangerous direction: accepting a caller no manifest allows, or searching a PATH entry that
// resolves against the host's folder. The receipt adds only the ids its manifests allow, and
// only the absolute login PATH recorded at install.

const STORE_ID = 'abcdefghijklmnopabcdefghijklmnop';
const RECEIPT: Receipt = {
  receipt: 1,
  version: '0.1.0',
  platform: 'linux',
  node: '/usr/bin/node',
  launcher: '/h/.config/switchyard/host/switchyard-host',
  bundle: '/h/.config/switchyard/host/switchyard.cjs',
  loginPath: { value: '/h/.nvm/v20/bin:/usr/bin', source: 'login-shell', shell: '/bin/bash' },
  registrations: [
    {
      browser: 'chrome',
      manifest: '/h/.config/google-chrome/NativeMessagingHosts/com.switchyard.host.json',
      registryKey: null,
      userDataDir: null,
      extensionIds: [DEV_EXTENSION_ID, STORE_ID],
    },
  ],
};

describe('applyReceipt', () => {
  it.each<[string, NodeJS.Platform, Receipt | null, NodeJS.ProcessEnv, string | undefined]>([
    ['no receipt: unchanged', 'linux', null, { PATH: '/usr/bin:/bin' }, '/usr/bin:/bin'],
    [
      'login PATH first',
      'linux',
      RECEIPT,
      { PATH: '/usr/bin:/bin' },
      '/h/.nvm/v20/bin:/usr/bin:/bin',
    ],
    ['a bare environment', 'darwin', RECEIPT, {}, '/h/.nvm/v20/bin:/usr/bin'],
    ['nothing recorded', 'linux', { ...RECEIPT, loginPath: null }, { PATH: '/bin' }, '/bin'],
    ['Windows keeps its PATH', 'win32', RECEIPT, { PATH: 'C:\\Windows' }, 'C:\\Windows'],
  ])('%s', (_name, platform, receipt, env, path) => {
    expect(applyReceipt(env, platform, receipt).env['PATH']).toBe(path);
  });

  it.each<[string[], Receipt | null, boolean]>([
    [[`chrome-extension://${STORE_ID}/`], RECEIPT, true],
    [[`chrome-extension://${STORE_ID}/`], null, false],
    [[`chrome-extension://${DEV_EXTENSION_ID}/`], null, true],
    [[`chrome-extension://${'b'.repeat(32)}/`], RECEIPT, false],
  ])('caller %j with receipt? -> %s', (args, receipt, ok) => {
    const { allowedCallers } = applyReceipt({}, 'linux', receipt);
    expect(checkCaller(args, allowedCallers).ok).toBe(ok);
  });
});

describe('hostStartContext', () => {
  const home = mkdtempSync(path.join(tmpdir(), 'switchyard-host-context-'));
  afterAll(() => {
    rmSync(home, { recursive: true, force: true });
  });
  const env = { SWITCHYARD_HOME: home, PATH: '/usr/bin' };

  it('changes nothing without a receipt', async () => {
    expect(await hostStartContext(env, 'linux')).toEqual({
      env,
      allowedCallers: DEFAULT_ALLOWED_CALLERS,
      warnings: [],
    });
  });

  it('applies a valid receipt, and warns about a broken one', async () => {
    mkdirSync(home, { recursive: true });
    writeFileSync(path.join(home, 'install.json'), receiptText(RECEIPT));
    const applied = await hostStartContext(env, 'linux');
    expect(applied.env['PATH']).toBe('/h/.nvm/v20/bin:/usr/bin');
    expect(applied.allowedCallers.chromiumIds).toEqual([DEV_EXTENSION_ID, STORE_ID]);

    writeFileSync(path.join(home, 'install.json'), '{"receipt": 1}');
    const broken = await hostStartContext(env, 'linux');
    expect(broken.env).toBe(env);
    expect(broken.allowedCallers).toBe(DEFAULT_ALLOWED_CALLERS);
    expect(broken.warnings.join('')).toMatch(/switchyard install/);
  });
});
