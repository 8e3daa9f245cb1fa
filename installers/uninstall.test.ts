import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InstallPlan } from './plan';
import { parseReceipt, receiptText, type Registration } from './receipt';
import { fakeRegistry, installPlan, makeInstallFixture, type InstallFixture } from './test-support';
import { REG_NOT_RUN, type RegistryRunner } from './registry';
import { selectRegistrations, uninstall } from './uninstall';

// Dangerous direction: deleting something the installer did not write (another host's manifest,
// the user's config, a file an edited receipt names). Only the receipt's own files go, and only
// names the installer uses.

let fx: InstallFixture;
let plan: InstallPlan;
beforeEach(async () => {
  fx = makeInstallFixture();
  plan = fx.plan(['chrome', 'firefox']);
  await installPlan(fx, plan);
  // Things that are not the installer's: they must survive.
  writeFileSync(path.join(fx.home, 'config.json'), '{"mcpServers": {}}');
  writeFileSync(path.join(fx.home, 'trust.json'), '{}');
  const chromeDir = path.dirname(plan.manifests[0]!.registration.manifest);
  writeFileSync(path.join(chromeDir, 'com.other.host.json'), '{}');
});
afterEach(() => {
  fx.cleanup();
});

const request = (browsers: Parameters<typeof uninstall>[0]['browsers'], dryRun = false) => ({
  paths: plan.paths,
  browsers,
  dryRun,
  registry: fakeRegistry().run,
});

describe('uninstall', () => {
  it('removes every manifest, the launcher, the bundle and the receipt, and nothing else', async () => {
    const result = await uninstall(request(null));
    expect(result.ok && result.actions.map((a) => [a.kind, a.status])).toEqual([
      ['manifest', 'removed'],
      ['manifest', 'removed'],
      ['launcher', 'removed'],
      ['bundle', 'removed'],
      ['main-bundle', 'removed'],
      ['receipt', 'removed'],
    ]);
    for (const m of plan.manifests) expect(existsSync(m.registration.manifest)).toBe(false);
    for (const f of [
      plan.paths.launcher,
      plan.paths.bundle,
      plan.paths.mainBundle,
      `${plan.paths.mainBundle}.map`,
      plan.paths.codeCache,
      plan.paths.receipt,
      plan.paths.hostDir,
    ]) {
      expect(existsSync(f)).toBe(false);
    }
    const chromeDir = path.dirname(plan.manifests[0]!.registration.manifest);
    expect(existsSync(path.join(chromeDir, 'com.other.host.json'))).toBe(true);
    expect(existsSync(path.join(fx.home, 'config.json'))).toBe(true);
    expect(existsSync(path.join(fx.home, 'trust.json'))).toBe(true);
    // A second uninstall finds nothing to do.
    expect(await uninstall(request(null))).toEqual({
      ok: true,
      installed: false,
      actions: [],
      remaining: [],
    });
  });

  it("removes the code cache the host wrote, and keeps a file in it that is not the host's", async () => {
    const cache = plan.paths.codeCache;
    mkdirSync(cache, { mode: 0o700 });
    const written = `${'a'.repeat(32)}-host-1.2-11.3.244.8_node.38-x64-811c9dc5.v8cache`;
    writeFileSync(path.join(cache, written), 'v8');
    writeFileSync(path.join(cache, `${written}.77.tmp`), 'v8');
    writeFileSync(path.join(cache, 'notes.txt'), 'mine');
    expect((await uninstall(request(null))).ok).toBe(true);
    expect(existsSync(path.join(cache, written))).toBe(false);
    expect(existsSync(path.join(cache, `${written}.77.tmp`))).toBe(false);
    expect(readFileSync(path.join(cache, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('removes one browser and keeps the rest installed', async () => {
    const result = await uninstall(request(['firefox']));
    expect(result.ok && result.actions.map((a) => [a.kind, a.browser, a.status])).toEqual([
      ['manifest', 'firefox', 'removed'],
    ]);
    expect(existsSync(plan.manifests[1]!.registration.manifest)).toBe(false);
    expect(existsSync(plan.manifests[0]!.registration.manifest)).toBe(true);
    expect(existsSync(plan.paths.launcher)).toBe(true);
    const receipt = parseReceipt(readFileSync(plan.paths.receipt, 'utf8'), 'r');
    expect(receipt.kind === 'ok' && receipt.receipt.registrations.map((r) => r.browser)).toEqual([
      'chrome',
    ]);
  });

  it('reports a manifest already gone, and removes nothing in a dry run', async () => {
    const dry = await uninstall(request(null, true));
    expect(dry.ok && dry.actions.every((a) => a.status === 'would-remove')).toBe(true);
    expect(existsSync(plan.paths.receipt)).toBe(true);
    expect(existsSync(plan.manifests[0]!.registration.manifest)).toBe(true);
  });

  it('refuses a receipt edited to name other files, and deletes nothing', async () => {
    const victim = path.join(fx.homedir, '.bashrc');
    writeFileSync(victim, 'export PATH');
    const tampered = {
      ...plan.receipt,
      registrations: [{ ...plan.receipt.registrations[0]!, manifest: victim }],
    };
    writeFileSync(plan.paths.receipt, receiptText(tampered));
    const result = await uninstall(request(null));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/not a Switchyard install receipt/);
    expect(existsSync(victim)).toBe(true);
    expect(existsSync(plan.paths.launcher)).toBe(true);
  });

  it('deletes the registry keys it wrote, through reg.exe argv', async () => {
    const key = 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.switchyard.host';
    const withKey = {
      ...plan.receipt,
      registrations: plan.receipt.registrations.map((r) =>
        r.browser === 'chrome' ? { ...r, registryKey: key } : r,
      ),
    };
    writeFileSync(plan.paths.receipt, receiptText(withKey));
    const registry = fakeRegistry();
    registry.keys.set(key, plan.manifests[0]!.registration.manifest);
    registry.keys.set('HKCU\\Software\\Other\\NativeMessagingHosts\\x', 'y');
    const result = await uninstall({ ...request(['chrome']), registry: registry.run });
    expect(result.ok && result.actions.map((a) => [a.kind, a.status])).toEqual([
      ['manifest', 'removed'],
      ['registry', 'removed'],
    ]);
    expect(registry.calls).toContainEqual(['delete', key, '/f']);
    expect([...registry.keys.keys()]).toEqual(['HKCU\\Software\\Other\\NativeMessagingHosts\\x']);
  });

  it('keeps the receipt when reg.exe cannot run, rather than forget a key it could not check', async () => {
    const key = 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.switchyard.host';
    const withKey = {
      ...plan.receipt,
      registrations: plan.receipt.registrations.map((r) =>
        r.browser === 'chrome' ? { ...r, registryKey: key } : r,
      ),
    };
    writeFileSync(plan.paths.receipt, receiptText(withKey));
    const broken: RegistryRunner = () =>
      Promise.resolve({ code: REG_NOT_RUN, stdout: '', stderr: 'cannot find reg.exe' });
    await expect(uninstall({ ...request(null), registry: broken })).rejects.toThrow(
      /could not read .*cannot find reg\.exe/,
    );
    // Before, the key counted as "not found": the receipt went, and the key with it from view.
    expect(parseReceipt(readFileSync(plan.paths.receipt, 'utf8'), 'r')).toEqual({
      kind: 'ok',
      receipt: withKey,
    });
    expect(existsSync(plan.paths.launcher)).toBe(true);
  });

  it("leaves a manifest and a registry key another install wrote since (another SWITCHYARD_HOME's)", async () => {
    const key = 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.switchyard.host';
    writeFileSync(
      plan.paths.receipt,
      receiptText({
        ...plan.receipt,
        registrations: plan.receipt.registrations.map((r) =>
          r.browser === 'chrome' ? { ...r, registryKey: key } : r,
        ),
      }),
    );
    const chrome = plan.manifests[0]!.registration.manifest;
    const written = JSON.parse(readFileSync(chrome, 'utf8')) as Record<string, unknown>;
    const other = { ...written, path: '/opt/other/switchyard-host' };
    writeFileSync(chrome, JSON.stringify(other));
    const registry = fakeRegistry();
    registry.keys.set(key, 'C:\\Other\\com.switchyard.host.json');
    const result = await uninstall({ ...request(['chrome']), registry: registry.run });
    expect(result.ok && result.actions.map((a) => [a.kind, a.status])).toEqual([
      ['manifest', 'foreign'],
      ['registry', 'foreign'],
    ]);
    expect(JSON.parse(readFileSync(chrome, 'utf8'))).toEqual(other);
    expect(registry.keys.get(key)).toBe('C:\\Other\\com.switchyard.host.json');
  });

  it('leaves a folder named like a manifest alone', async () => {
    const manifest = plan.manifests[1]!.registration.manifest;
    await uninstall(request(['firefox']));
    mkdirSync(manifest);
    const receipt = { ...plan.receipt, registrations: [plan.receipt.registrations[1]!] };
    writeFileSync(plan.paths.receipt, receiptText(receipt));
    const result = await uninstall(request(['firefox']));
    expect(result.ok && result.actions[0]?.status).toBe('absent');
    expect(existsSync(manifest)).toBe(true);
  });
});

describe('selectRegistrations', () => {
  // The dangerous direction: removing a registration the user did not name (another profile's
  // manifest, so that browser loses the host). Keeping one too many only leaves a file behind.
  const reg = (browser: 'chromium' | 'chrome', userDataDir: string | null): Registration => ({
    browser,
    manifest: `/m/${browser}/${userDataDir ?? 'default'}/com.switchyard.host.json`,
    registryKey: null,
    userDataDir,
    extensionIds: [],
  });
  const registrations = [
    reg('chromium', null),
    reg('chromium', '/tmp/profile'),
    reg('chrome', '/tmp/profile'),
  ];
  it.each<[string, Parameters<typeof selectRegistrations>[1], string | null, number[]]>([
    ['everything', null, null, [0, 1, 2]],
    ['one browser', ['chromium'], null, [0, 1]],
    ['one profile folder', null, '/tmp/profile', [1, 2]],
    ['one profile folder, written another way', null, '/tmp/./profile/', [1, 2]],
    ['one browser in one profile folder', ['chrome'], '/tmp/profile', [2]],
    ['a folder nothing was installed into', null, '/tmp/other', []],
  ])('%s', (_name, browsers, folder, expected) => {
    const { remove, keep } = selectRegistrations({ registrations }, browsers, folder);
    expect(remove).toEqual(expected.map((i) => registrations[i]));
    expect(keep).toEqual(registrations.filter((_, i) => !expected.includes(i)));
  });
});
