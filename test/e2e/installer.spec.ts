import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEV_EXTENSION_ID, HOST_NAME, chromiumOrigin } from '../../protocol/identity';
import { PROTOCOL_VERSION } from '../../protocol/methods';
import { helloRequest, probeHost } from './support/host-probe';
import { useSwitchyard } from './support/session';

// Journey (issue 6): on Linux, a real `switchyard install --browser chromium --user-data-dir`
// into a test profile, then a real connection from the extension in Chromium; after
// `switchyard uninstall`, a new browser on the same profile cannot reach the host.

describe('switchyard install, then uninstall', () => {
  const session = useSwitchyard({ installed: false, launch: false });

  it('writes a host manifest for exactly the development extension id', () => {
    const { profile } = session;
    profile.install();

    const manifest: unknown = JSON.parse(readFileSync(profile.hostManifest, 'utf8'));
    expect(manifest).toMatchObject({
      name: HOST_NAME,
      type: 'stdio',
      allowed_origins: [chromiumOrigin(DEV_EXTENSION_ID)],
    });
    const launcher =
      typeof manifest === 'object' && manifest !== null && 'path' in manifest
        ? String(manifest.path)
        : '';
    expect(isAbsolute(launcher)).toBe(true);
    expect(() => {
      accessSync(launcher, constants.X_OK);
    }).not.toThrow();
  });

  it('lets the extension connect', async () => {
    const browser = await session.relaunch();

    await browser.waitForConnection('connected');
    const { hosts } = browser.processes();
    expect(hosts).toHaveLength(1);
    expect(hosts[0]?.args).toContain(` host ${chromiumOrigin(DEV_EXTENSION_ID)}`);
  });

  it('after uninstall, a new browser on the same profile finds no host', async () => {
    const { profile } = session;
    await session.closeBrowser();
    profile.uninstall();
    expect(existsSync(profile.hostManifest)).toBe(false);

    const browser = await session.relaunch();

    const line = await browser.waitForConnection('not-installed');
    expect(line).toContain('switchyard install');
    const probe = await probeHost(browser.worker, [helloRequest(PROTOCOL_VERSION)]);
    expect(probe).toMatchObject({
      kind: 'disconnected',
      error: 'Specified native messaging host not found.',
    });
    expect(browser.processes().hosts).toEqual([]);
  });
});
