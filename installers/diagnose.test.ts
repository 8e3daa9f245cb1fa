import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEV_EXTENSION_ID } from '../protocol/identity';
import { diagnoseInstall, reinstallCommand, type InstallDiagnosis } from './diagnose';
import type { FirefoxPackage } from './firefox-packages';
import type { InstallPlan } from './plan';
import { receiptText } from './receipt';
import { REG_NOT_RUN, type RegistryRunner } from './registry';
import { fakeRegistry, installPlan, makeInstallFixture, type InstallFixture } from './test-support';

// Dangerous direction: doctor saying "ok" about an install someone widened or opened up. Each
// breakage below must show up as a problem that names its fix.

let fx: InstallFixture;
let plan: InstallPlan;
beforeEach(async () => {
  fx = makeInstallFixture();
  plan = fx.plan(['chromium'], null, { userDataDir: fx.profile });
  await installPlan(fx, plan);
});
afterEach(() => {
  fx.cleanup();
});

const diagnose = (registry = fakeRegistry().run) =>
  diagnoseInstall({ paths: plan.paths, home: fx.home, platform: 'linux', uid: fx.uid, registry });

function allProblems(d: InstallDiagnosis): string {
  if (d.state === 'installed')
    return [...d.problems, ...d.registrations.flatMap((r) => r.problems)].join('\n');
  if (d.state === 'invalid') return d.problems.join('\n');
  return '';
}

const manifest = () => plan.manifests[0]!.registration.manifest;

describe('diagnoseInstall', () => {
  it('finds nothing wrong with a fresh install', async () => {
    const d = await diagnose();
    expect(d.state).toBe('installed');
    expect(allProblems(d)).toBe('');
  });

  it.each<[string, () => void, RegExp]>([
    [
      'widened origins',
      () => {
        const m = JSON.parse(readFileSync(manifest(), 'utf8')) as { allowed_origins: string[] };
        m.allowed_origins.push('chrome-extension://abcdefghijklmnopabcdefghijklmnop/');
        writeFileSync(manifest(), JSON.stringify(m));
      },
      /also allows chrome-extension:\/\/abcdefghijklmnopabcdefghijklmnop\/.*switchyard install --browser chromium --user-data-dir/,
    ],
    [
      'a missing manifest',
      () => {
        rmSync(manifest());
      },
      /manifest .* is missing: run 'switchyard install --browser chromium/,
    ],
    [
      'a broken manifest',
      () => {
        writeFileSync(manifest(), '{');
      },
      /not valid JSON/,
    ],
    [
      'a manifest pointing elsewhere',
      () => {
        writeFileSync(
          manifest(),
          readFileSync(manifest(), 'utf8').replace('switchyard-host', 'other'),
        );
      },
      /runs .*other/,
    ],
    [
      'a world-writable manifest',
      () => {
        chmodSync(manifest(), 0o666);
      },
      /writable by others .*chmod go-w/,
    ],
    [
      'a removed node',
      () => {
        rmSync(fx.node);
      },
      /node at .* is gone or not executable.*install' again/,
    ],
    [
      'a missing launcher',
      () => {
        rmSync(plan.paths.launcher);
      },
      /launcher .* is missing/,
    ],
    [
      'an edited launcher',
      () => {
        writeFileSync(plan.paths.launcher, '#!/bin/sh\nexec evil\n');
      },
      /not one Switchyard wrote/,
    ],
    [
      'a missing bundle',
      () => {
        rmSync(plan.paths.bundle);
      },
      /switchyard\.cjs, which is missing/,
    ],
    [
      'a group-writable launcher',
      () => {
        chmodSync(plan.paths.launcher, 0o775);
      },
      /chmod go-w/,
    ],
    [
      'a corrupt receipt',
      () => {
        writeFileSync(plan.paths.receipt, '[]');
      },
      /not a Switchyard install receipt/,
    ],
  ])('reports %s', async (_name, breakIt, problem) => {
    breakIt();
    expect(allProblems(await diagnose())).toMatch(problem);
  });

  it('checks the registry key on Windows-style registrations', async () => {
    const key = 'HKCU\\Software\\Chromium\\NativeMessagingHosts\\com.switchyard.host';
    const receipt = {
      ...plan.receipt,
      registrations: plan.receipt.registrations.map((r) => ({ ...r, registryKey: key })),
    };
    writeFileSync(plan.paths.receipt, receiptText(receipt));
    const registry = fakeRegistry();
    expect(allProblems(await diagnose(registry.run))).toMatch(/registry key .* is missing/);
    registry.keys.set(key, 'C:\\elsewhere.json');
    expect(allProblems(await diagnose(registry.run))).toMatch(/points to C:\\elsewhere\.json/);
    registry.keys.set(key, manifest());
    expect(allProblems(await diagnose(registry.run))).toBe('');
  });

  it('says reg.exe did not run, not that the key is missing', async () => {
    const key = 'HKCU\\Software\\Chromium\\NativeMessagingHosts\\com.switchyard.host';
    writeFileSync(
      plan.paths.receipt,
      receiptText({
        ...plan.receipt,
        registrations: plan.receipt.registrations.map((r) => ({ ...r, registryKey: key })),
      }),
    );
    const broken: RegistryRunner = () =>
      Promise.resolve({ code: REG_NOT_RUN, stdout: '', stderr: 'cannot find reg.exe: SystemRoot' });
    const problems = allProblems(await diagnose(broken));
    expect(problems).toMatch(/could not read .*cannot find reg\.exe/);
    expect(problems).not.toMatch(/is missing/);
  });

  it.each<[string, FirefoxPackage[], RegExp[]]>([
    ['a native Firefox', ['native'], []],
    ['a snap Firefox', ['snap'], [/^Firefox \(snap\).*desktop portal/]],
    ['a Flatpak Firefox', ['flatpak'], [/^Firefox \(Flatpak\).*xdg-native-messaging-proxy/]],
    ['both', ['native', 'snap', 'flatpak'], [/^Firefox \(snap\)/, /^Firefox \(Flatpak\)/]],
  ])('adds notes, not problems, for %s', async (_name, firefoxPackages, notes) => {
    const firefox = fx.plan(['chromium', 'firefox']);
    await installPlan(fx, firefox);
    const d = await diagnoseInstall({
      paths: firefox.paths,
      home: fx.home,
      platform: 'linux',
      uid: fx.uid,
      registry: fakeRegistry().run,
      firefoxPackages,
    });
    expect(allProblems(d)).toBe('');
    if (d.state !== 'installed') throw new Error(d.state);
    const byBrowser = new Map(d.registrations.map((r) => [r.registration.browser, r.notes]));
    expect(byBrowser.get('chromium')).toEqual([]);
    const firefoxNotes = byBrowser.get('firefox') ?? [];
    expect(firefoxNotes).toHaveLength(notes.length);
    notes.forEach((note, i) => {
      expect(firefoxNotes[i]).toMatch(note);
    });
  });

  it('is not-installed without a receipt', async () => {
    rmSync(plan.paths.receipt);
    expect((await diagnose()).state).toBe('not-installed');
  });
});

describe('reinstallCommand', () => {
  it.each([
    [
      { browser: 'chrome', userDataDir: null, ids: [DEV_EXTENSION_ID] },
      'switchyard install --browser chrome',
    ],
    [
      {
        browser: 'chromium',
        userDataDir: '/tmp/my profile',
        ids: [DEV_EXTENSION_ID, 'abcdefghijklmnopabcdefghijklmnop'],
      },
      "switchyard install --browser chromium --user-data-dir '/tmp/my profile' --extension-id abcdefghijklmnopabcdefghijklmnop",
    ],
  ] as const)('%j', (r, expected) => {
    expect(
      reinstallCommand({
        browser: r.browser,
        manifest: '/x/com.switchyard.host.json',
        registryKey: null,
        userDataDir: r.userDataDir,
        extensionIds: [...r.ids],
      }),
    ).toBe(expected);
  });
});
