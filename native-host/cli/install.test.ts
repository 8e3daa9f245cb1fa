import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEV_EXTENSION_ID } from '../../protocol/identity';
import {
  fakeRegistry,
  makeInstallFixture,
  type InstallFixture,
} from '../../installers/test-support';
import { makeInstallCommand } from './install';
import type { InstallEnvironment } from './install-environment';
import { makeUninstallCommand } from './install-uninstall';
import { installSection } from './install-doctor';
import type { CliIo } from './io';

// The CLI wiring: facts from the machine in, exactly what was written out. The installer's rules
// are tested in installers/; here, the commands' choices and messages.

let fx: InstallFixture;
beforeEach(() => {
  fx = makeInstallFixture();
});
afterEach(() => {
  fx.cleanup();
});

function capture(env: NodeJS.ProcessEnv = {}): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (t) => stdout.push(t),
    err: (t) => stderr.push(t),
    env: { SWITCHYARD_HOME: fx.home, ...env },
    platform: 'linux',
  };
}

function environment(change: Partial<InstallEnvironment> = {}): InstallEnvironment {
  return {
    homedir: () => fx.homedir,
    uid: () => fx.uid,
    node: fx.node,
    nodeVersion: '26.10.0',
    today: () => new Date('2026-12-07T12:00:00Z'),
    bundleSource: () => Promise.resolve(fx.bundleSource),
    exists: (p) => Promise.resolve(existsSync(p)),
    recordLoginPath: () =>
      Promise.resolve({ value: '/opt/n/bin:/usr/bin', source: 'login-shell', shell: '/bin/zsh' }),
    registry: fakeRegistry().run,
    cwd: () => fx.root,
    ...change,
  };
}

describe('switchyard install', () => {
  it('installs for a profile, prints what it wrote, and doctor finds it healthy', async () => {
    const io = capture();
    const code = await makeInstallCommand(environment())(io, [
      '--browser',
      'chromium',
      '--user-data-dir',
      'chromium profile', // relative: resolved against the current folder
    ]);
    expect(io.stderr.join('')).toBe('');
    expect(code).toBe(0);
    const out = io.stdout.join('');
    const manifest = path.join(fx.profile, 'NativeMessagingHosts', 'com.switchyard.host.json');
    expect(out).toContain(`wrote  ${manifest}`);
    expect(out).toContain(`chrome-extension://${DEV_EXTENSION_ID}/`);
    expect(out).toMatch(/login shell's PATH \(\/bin\/zsh\).*2 folders/);
    expect(existsSync(manifest)).toBe(true);

    const section = await installSection(capture(), { homedir: fx.homedir, uid: fx.uid });
    expect(section.problems).toEqual([]);
    expect(section.text).toMatch(/Chromium\s+ok\s+/);
  });

  it('prints JSON, and a dry run writes nothing', async () => {
    const io = capture();
    const code = await makeInstallCommand(environment())(io, [
      '--browser',
      'firefox',
      '--dry-run',
      '--json',
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(io.stdout.join('')) as {
      dryRun: boolean;
      browsers: Array<{ manifest: { allowed_extensions: string[] } }>;
      actions: Array<{ status: string }>;
    };
    expect(report.dryRun).toBe(true);
    expect(report.browsers[0]?.manifest.allowed_extensions).toEqual(['switchyard@switchyard.dev']);
    expect(report.actions.every((a) => a.status === 'would-write')).toBe(true);
    expect(existsSync(fx.home)).toBe(false);
  });

  it('adds a store id with --extension-id', async () => {
    const io = capture();
    const store = 'abcdefghijklmnopabcdefghijklmnop';
    await makeInstallCommand(environment())(io, ['--browser', 'chrome', '--extension-id', store]);
    const manifest = path.join(
      fx.homedir,
      '.config',
      'google-chrome',
      'NativeMessagingHosts',
      'com.switchyard.host.json',
    );
    expect(JSON.parse(readFileSync(manifest, 'utf8'))).toMatchObject({
      allowed_origins: [`chrome-extension://${DEV_EXTENSION_ID}/`, `chrome-extension://${store}/`],
    });
  });

  it('installs for the browsers it detects', async () => {
    const io = capture();
    const chromeDir = path.join(fx.homedir, '.config', 'google-chrome');
    const env = environment({ exists: (p) => Promise.resolve(p === chromeDir) });
    expect(await makeInstallCommand(env)(io, [])).toBe(0);
    expect(io.stdout.join('')).toMatch(/for Google Chrome\./);
  });

  // Firefox by where its profiles are, under the fixture's temporary HOME. The manifest goes to
  // ~/.mozilla/native-messaging-hosts for every layout (see locations.ts); what differs is the
  // advice, and install must not promise a sandboxed Firefox a connection without it.
  it.each<[string, string, RegExp | null]>([
    ['classic profiles', '.mozilla/firefox', null],
    ['new-layout profiles', '.config/mozilla/firefox', null],
    ['a snap Firefox', 'snap/firefox/common/.mozilla/firefox', /Firefox \(snap\).*desktop portal/],
    [
      'a Flatpak Firefox',
      '.var/app/org.mozilla.firefox/.mozilla/firefox',
      /Firefox \(Flatpak\) cannot see this manifest.*xdg-native-messaging-proxy/,
    ],
  ])(
    'finds %s, writes the manifest Firefox reads, and says what else it needs',
    async (_name, folder, note) => {
      mkdirSync(path.join(fx.homedir, folder), { recursive: true });
      const env = environment({
        exists: (p) => Promise.resolve(p.startsWith(fx.root) && existsSync(p)),
      });
      const io = capture();
      expect(await makeInstallCommand(env)(io, [])).toBe(0);
      const out = io.stdout.join('');
      const manifest = path.join(
        fx.homedir,
        '.mozilla',
        'native-messaging-hosts',
        'com.switchyard.host.json',
      );
      expect(out).toMatch(/for Firefox\./);
      expect(out).toContain(`wrote  ${manifest}`);
      expect(existsSync(manifest)).toBe(true);
      const section = await installSection(capture(), {
        homedir: fx.homedir,
        uid: fx.uid,
        exists: (p) => Promise.resolve(p.startsWith(fx.root) && existsSync(p)),
      });
      expect(section.problems).toEqual([]);
      expect(section.text).toMatch(/Firefox\s+ok\s+/);
      if (note === null) {
        expect(out).toMatch(/Done\. The Switchyard extension can connect now\. /);
        expect(out).not.toContain('Note:');
        expect(section.text).not.toContain('note:');
      } else {
        expect(out).toMatch(/can connect now \(a sandboxed Firefox: see below\)/);
        expect(out).toMatch(new RegExp(`Note: ${note.source}`));
        expect(section.text).toMatch(new RegExp(`note: ${note.source}`));
      }
    },
  );

  it('says when the node it records is past its end of life, and what to install instead', async () => {
    const io = capture();
    const code = await makeInstallCommand(environment({ nodeVersion: '20.20.2' }))(io, [
      '--browser',
      'chromium',
    ]);
    expect(code).toBe(0);
    const out = io.stdout.join('');
    // Not a sandboxed Firefox's note: the install itself is fine.
    expect(out).toMatch(/Done\. The Switchyard extension can connect now\. /);
    expect(out).toContain(
      '\nNote: Node 20.20.2 reached its end of life on 2026-04-30 and gets no more security fixes',
    );
    expect(out).toContain("Install Node 22 or later and run 'switchyard install' again with it.");

    const json = capture();
    await makeInstallCommand(environment({ nodeVersion: '20.20.2' }))(json, [
      '--browser',
      'chromium',
      '--json',
    ]);
    const report = JSON.parse(json.stdout.join('')) as { nodeVersion: string; notes: string[] };
    expect(report.nodeVersion).toBe('20.20.2');
    expect(report.notes).toEqual([expect.stringContaining('end of life on 2026-04-30')]);
  });

  it("doctor shows the launcher's node version, with a note (not a problem) once it is past its end of life", async () => {
    await makeInstallCommand(environment())(capture(), ['--browser', 'chromium']);
    const asked: string[] = [];
    const section = (printed: string | null, day: string) =>
      installSection(capture(), {
        homedir: fx.homedir,
        uid: fx.uid,
        nodeVersion: (node) => {
          asked.push(node);
          return Promise.resolve(printed);
        },
        today: new Date(`${day}T12:00:00Z`),
      });

    const ended = await section('v20.20.2\n', '2026-12-07');
    expect(asked).toEqual([fx.node]);
    expect(ended.problems).toEqual([]);
    expect(ended.text).toContain(`  node       ${fx.node} (20.20.2)\n`);
    expect(ended.text).toContain(
      '  note: Node 20.20.2 reached its end of life on 2026-04-30 and gets no more security fixes',
    );
    expect(ended.json).toMatchObject({
      nodeVersion: '20.20.2',
      notes: [expect.stringContaining('Install Node 22 or later')],
    });

    const maintained = await section('v20.20.2', '2026-04-30');
    expect(maintained.text).toContain(`(20.20.2)`);
    expect(maintained.text).not.toContain('note:');

    // A node that does not answer: no version, no note, and no problem from this check.
    const silent = await section(null, '2026-12-07');
    expect(silent.text).toContain(`  node       ${fx.node}\n`);
    expect(silent.json).toMatchObject({ nodeVersion: null, notes: [] });
    expect(silent.problems).toEqual([]);
  });

  it('names the node a Flatpak sandbox would not have', async () => {
    mkdirSync(path.join(fx.homedir, '.var/app/org.mozilla.firefox/.mozilla/firefox'), {
      recursive: true,
    });
    const io = capture();
    const env = environment({
      exists: (p) => Promise.resolve(p.startsWith(fx.root) && existsSync(p)),
    });
    await makeInstallCommand(env)(io, ['--browser', 'firefox', '--json']);
    const report = JSON.parse(io.stdout.join('')) as { notes: string[] };
    expect(report.notes).toHaveLength(1);
    expect(report.notes[0]).toContain(`would not find ${fx.node}`);
  });

  it.each<[string, string[], Partial<InstallEnvironment>, number, RegExp]>([
    [
      'no browser found',
      [],
      { exists: () => Promise.resolve(false) },
      1,
      /No supported browser was found.*--browser chrome/,
    ],
    [
      'a profile without its browser',
      ['--user-data-dir', '/tmp/p'],
      {},
      2,
      /name it, e\.g\. --browser chromium/,
    ],
    [
      'an unknown bundle',
      ['--browser', 'chrome'],
      { bundleSource: () => Promise.resolve(null) },
      1,
      /node dist\/host\/switchyard\.cjs install/,
    ],
    ['a bad argument', ['--browser', 'lynx'], {}, 2, /Unknown browser 'lynx'/],
    ['sudo', ['--browser', 'chrome'], { uid: () => 0 }, 1, /as ann, without sudo/],
    [
      'a Firefox profile',
      ['--browser', 'firefox', '--user-data-dir', '/tmp/p'],
      {},
      1,
      /Chromium option/,
    ],
  ])('refuses %s', async (name, args, change, code, message) => {
    const io = capture(name === 'sudo' ? { SUDO_USER: 'ann' } : {});
    expect(await makeInstallCommand(environment(change))(io, args)).toBe(code);
    expect(io.stderr.join('')).toMatch(message);
  });
});

describe('switchyard uninstall', () => {
  it('says so when nothing is installed', async () => {
    const io = capture();
    expect(await makeUninstallCommand(environment())(io, [])).toBe(0);
    expect(io.stdout.join('')).toMatch(/Nothing to uninstall/);
  });

  it('removes what install wrote and keeps the user data', async () => {
    await makeInstallCommand(environment())(capture(), [
      '--browser',
      'chrome',
      '--browser',
      'firefox',
    ]);
    const partial = capture();
    expect(await makeUninstallCommand(environment())(partial, ['--browser', 'firefox'])).toBe(0);
    expect(partial.stdout.join('')).toMatch(
      /removed .*native-messaging-hosts.*\n[\s\S]*Still installed for: Google Chrome/,
    );
    const all = capture();
    expect(await makeUninstallCommand(environment())(all, [])).toBe(0);
    expect(all.stdout.join('')).toMatch(
      /Uninstalled\. Your configuration, approvals and audit log/,
    );
    expect(existsSync(path.join(fx.home, 'install.json'))).toBe(false);
  });
});
