import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEV_EXTENSION_ID } from '../protocol/identity';
import { applyInstall, type ApplyOptions } from './install';
import type { InstallPlan } from './plan';
import { parseReceipt } from './receipt';
import { uninstall } from './uninstall';
import {
  FAKE_BUNDLE,
  FAKE_MAIN_BUNDLE,
  fakeRegistry,
  makeInstallFixture,
  type InstallFixture,
} from './test-support';
import { MAIN_BUNDLE_FILE } from '../native-host/shared/code-cache';

// Dangerous direction: a manifest merged with what was on disk (widened origins survive an
// upgrade), a file left group- or world-writable, or a write into a folder others control.
// Each is checked against real files here.

const STORE_ID = 'abcdefghijklmnopabcdefghijklmnop';
let fx: InstallFixture;
beforeEach(() => {
  fx = makeInstallFixture();
});
afterEach(() => {
  fx.cleanup();
});

const options = (change: Partial<ApplyOptions> = {}): ApplyOptions => ({
  platform: 'linux',
  bundleSource: fx.bundleSource,
  dryRun: false,
  uid: fx.uid,
  registry: fakeRegistry().run,
  ...change,
});

const mode = (file: string) => statSync(file).mode & 0o7777;
const profilePlan = (): InstallPlan => fx.plan(['chromium'], null, { userDataDir: fx.profile });

describe('applyInstall', () => {
  it('writes the main bundle, its map, the entry, launcher, manifest and receipt with their modes', async () => {
    const plan = profilePlan();
    const result = await applyInstall(plan, null, options());
    expect(result.ok).toBe(true);
    const manifest = path.join(fx.profile, 'NativeMessagingHosts', 'com.switchyard.host.json');
    expect(result.actions.map((a) => [a.kind, a.target, a.status])).toEqual([
      ['main-bundle', plan.paths.mainBundle, 'written'],
      ['source-map', `${plan.paths.mainBundle}.map`, 'written'],
      ['bundle', plan.paths.bundle, 'written'],
      ['launcher', plan.paths.launcher, 'written'],
      ['manifest', manifest, 'written'],
      ['receipt', plan.paths.receipt, 'written'],
    ]);
    expect(readFileSync(plan.paths.bundle, 'utf8')).toBe(FAKE_BUNDLE);
    expect(readFileSync(plan.paths.mainBundle, 'utf8')).toBe(FAKE_MAIN_BUNDLE);
    expect(existsSync(`${plan.paths.mainBundle}.map`)).toBe(true);
    expect(mode(plan.paths.mainBundle)).toBe(0o644);
    expect(JSON.parse(readFileSync(manifest, 'utf8'))).toMatchObject({
      path: plan.paths.launcher,
      allowed_origins: [`chrome-extension://${DEV_EXTENSION_ID}/`],
    });
    expect(mode(manifest)).toBe(0o644);
    expect(mode(plan.paths.launcher)).toBe(0o755);
    expect(mode(plan.paths.bundle)).toBe(0o644);
    expect(mode(plan.paths.receipt)).toBe(0o600);
    expect(mode(plan.paths.hostDir)).toBe(0o700);
    expect(mode(path.dirname(manifest))).toBe(0o700);
    expect(parseReceipt(readFileSync(plan.paths.receipt, 'utf8'), 'r')).toEqual({
      kind: 'ok',
      receipt: plan.receipt,
    });
  });

  it('is idempotent: a second run changes nothing', async () => {
    const plan = profilePlan();
    await applyInstall(plan, null, options());
    const files = [
      plan.paths.bundle,
      plan.paths.mainBundle,
      plan.paths.launcher,
      plan.paths.receipt,
      plan.manifests[0]!.registration.manifest,
    ];
    const before = files.map((f) => [readFileSync(f, 'utf8'), statSync(f).mtimeMs]);
    const again = await applyInstall(profilePlan(), plan.receipt, options());
    expect(again.ok && again.actions.map((a) => a.status)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
    expect(files.map((f) => [readFileSync(f, 'utf8'), statSync(f).mtimeMs])).toEqual(before);
  });

  it('replaces a manifest someone widened, and a too-open mode, instead of merging', async () => {
    const plan = profilePlan();
    await applyInstall(plan, null, options());
    const manifest = plan.manifests[0]!.registration.manifest;
    const widened = JSON.parse(readFileSync(manifest, 'utf8')) as { allowed_origins: string[] };
    widened.allowed_origins.push(`chrome-extension://${STORE_ID}/`, 'chrome-extension://evil/');
    writeFileSync(manifest, JSON.stringify(widened));
    chmodSync(plan.paths.launcher, 0o777);
    const again = await applyInstall(profilePlan(), plan.receipt, options());
    expect(again.ok && again.actions.find((a) => a.kind === 'manifest')?.status).toBe('written');
    expect(JSON.parse(readFileSync(manifest, 'utf8'))).toMatchObject({
      allowed_origins: [`chrome-extension://${DEV_EXTENSION_ID}/`],
    });
    expect(mode(plan.paths.launcher)).toBe(0o755);
  });

  it('refuses a world-writable target folder and writes nothing', async () => {
    chmodSync(fx.profile, 0o777);
    const plan = profilePlan();
    const result = await applyInstall(plan, null, options());
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/writable by every user.*Nothing was written/s);
    expect(existsSync(plan.paths.hostDir)).toBe(false);
    expect(existsSync(plan.paths.receipt)).toBe(false);
    expect(existsSync(path.join(fx.profile, 'NativeMessagingHosts'))).toBe(false);
  });

  it.runIf(process.getuid?.() === 0)(
    'refuses a folder another user owns (checked as root, who can chown)',
    async () => {
      chownSync(fx.profile, 4242, 4242);
      const result = await applyInstall(profilePlan(), null, options());
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).toMatch(/belongs to another user \(uid 4242\)/);
      expect(existsSync(path.join(fx.profile, 'NativeMessagingHosts'))).toBe(false);
    },
  );

  it('writes nothing in a dry run, and says what it would write', async () => {
    const plan = profilePlan();
    const result = await applyInstall(plan, null, options({ dryRun: true }));
    expect(result.ok && result.actions.map((a) => a.status)).toEqual([
      'would-write',
      'would-write',
      'would-write',
      'would-write',
      'would-write',
      'would-write',
    ]);
    expect(existsSync(fx.home)).toBe(false);
    expect(existsSync(path.join(fx.profile, 'NativeMessagingHosts'))).toBe(false);
  });

  it('refuses a file that is not the bundled host', async () => {
    writeFileSync(fx.bundleSource, 'export {};\n');
    const result = await applyInstall(profilePlan(), null, options());
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/npm run build:host/);
  });

  it.each([
    ['missing', null, /cannot read the host's main bundle .*switchyard-main\.cjs \(ENOENT\)/],
    ['not the build (no build line)', '"use strict";\n', /is not the host's main bundle/],
  ])('refuses a main bundle that is %s, and writes nothing', async (_label, text, message) => {
    const main = path.join(path.dirname(fx.bundleSource), MAIN_BUNDLE_FILE);
    if (text === null) rmSync(main);
    else writeFileSync(main, text);
    const plan = profilePlan();
    const result = await applyInstall(plan, null, options());
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.message).toMatch(message);
      expect(result.message).toMatch(/npm run build:host/);
    }
    expect(existsSync(plan.paths.hostDir)).toBe(false);
  });

  it('removes the map an install before the entry left beside switchyard.cjs', async () => {
    const plan = profilePlan();
    mkdirSync(plan.paths.hostDir, { recursive: true, mode: 0o700 });
    writeFileSync(`${plan.paths.bundle}.map`, '{"version":3}');
    expect((await applyInstall(plan, null, options())).ok).toBe(true);
    expect(existsSync(`${plan.paths.bundle}.map`)).toBe(false);
  });

  it('records what it wrote before a failure, so uninstall can remove it', async () => {
    // A folder sits where the Firefox manifest goes: its write fails after Chrome's succeeded.
    mkdirSync(
      path.join(fx.homedir, '.mozilla', 'native-messaging-hosts', 'com.switchyard.host.json'),
      {
        recursive: true,
      },
    );
    const plan = fx.plan(['chrome', 'firefox']);
    const result = await applyInstall(plan, null, options());
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/a folder is in the way/);
    const receipt = parseReceipt(readFileSync(plan.paths.receipt, 'utf8'), 'r');
    expect(receipt.kind === 'ok' && receipt.receipt.registrations.map((r) => r.browser)).toEqual([
      'chrome',
    ]);
  });

  it('records the launcher and host copy when the first manifest fails, so uninstall removes them', async () => {
    mkdirSync(
      path.join(fx.homedir, '.mozilla', 'native-messaging-hosts', 'com.switchyard.host.json'),
      { recursive: true },
    );
    const plan = fx.plan(['firefox']);
    const result = await applyInstall(plan, null, options());
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/'switchyard uninstall' removes what was/);
    expect(existsSync(plan.paths.launcher)).toBe(true);
    // Before, no receipt was written, and 'switchyard uninstall' said there was nothing to do.
    const receipt = parseReceipt(readFileSync(plan.paths.receipt, 'utf8'), 'r');
    expect(receipt.kind === 'ok' && receipt.receipt.registrations).toEqual([]);
    const removed = await uninstall({
      paths: plan.paths,
      browsers: null,
      dryRun: false,
      registry: fakeRegistry().run,
    });
    expect(removed.ok && removed.installed).toBe(true);
    for (const file of [plan.paths.launcher, plan.paths.bundle, plan.paths.mainBundle]) {
      expect(existsSync(file)).toBe(false);
    }
  });

  it('records a manifest whose registry key failed, so uninstall removes the file', async () => {
    const plan = fx.plan(['edge']);
    const key = 'HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\com.switchyard.host';
    const windowsLike: InstallPlan = {
      ...plan,
      manifests: plan.manifests.map((m) => ({
        ...m,
        registration: { ...m.registration, registryKey: key },
      })),
    };
    const denied = options({
      registry: (argv) =>
        Promise.resolve(
          argv[0] === 'query'
            ? { code: 1, stdout: '', stderr: 'not found' }
            : { code: 1, stdout: '', stderr: 'ERROR: Access is denied.' },
        ),
    });
    const result = await applyInstall(windowsLike, null, denied);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/could not write .*Access is denied/);
    const receipt = parseReceipt(readFileSync(plan.paths.receipt, 'utf8'), 'r');
    expect(receipt.kind === 'ok' && receipt.receipt.registrations.map((r) => r.browser)).toEqual([
      'edge',
    ]);
  });

  it('writes the Windows registry key through reg.exe argv, once', async () => {
    // A plan as on Windows, but with this machine's paths, against a fake registry.
    const plan = fx.plan(['edge']);
    const key = 'HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\com.switchyard.host';
    const windowsLike: InstallPlan = {
      ...plan,
      manifests: plan.manifests.map((m) => ({
        ...m,
        registration: { ...m.registration, registryKey: key },
      })),
    };
    const registry = fakeRegistry();
    const first = await applyInstall(windowsLike, null, options({ registry: registry.run }));
    const manifest = plan.manifests[0]!.registration.manifest;
    expect(first.ok && first.actions.find((a) => a.kind === 'registry')).toEqual({
      kind: 'registry',
      target: key,
      browser: 'edge',
      status: 'written',
    });
    expect(registry.calls).toEqual([
      ['query', key, '/ve'],
      ['add', key, '/ve', '/t', 'REG_SZ', '/d', manifest, '/f'],
    ]);
    const second = await applyInstall(windowsLike, null, options({ registry: registry.run }));
    expect(second.ok && second.actions.find((a) => a.kind === 'registry')?.status).toBe(
      'unchanged',
    );
    expect(registry.calls.filter((c) => c[0] === 'add')).toHaveLength(1);
  });
});
