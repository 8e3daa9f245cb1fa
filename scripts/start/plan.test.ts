import { describe, expect, it } from 'vitest';
import type { StartOptions } from './args';
import { startLayout, type StartLayout } from './demo';
import { OPTIONS_URL, planStart, type StartPlanInput } from './plan';

// Dangerous direction: taking the browser path with branded Chrome as if it loaded the
// extension, or installing for the user's everyday profile instead of the dedicated one.

const OPTIONS: StartOptions = { headless: false, dryRun: false, help: false };
const LAYOUT = startLayout('/src/sy');
const LINUX: StartPlanInput = {
  options: OPTIONS,
  platform: 'linux',
  env: { DISPLAY: ':0', PATH: '/usr/bin' },
  homedir: '/home/ann',
  uid: 1000,
  layout: LAYOUT,
};
const WINDOWS_LAYOUT: StartLayout = {
  root: 'C:\\src\\sy',
  bundle: 'C:\\src\\sy\\dist\\host\\switchyard.cjs',
  home: 'C:\\src\\sy\\.tmp\\demo-home',
  files: 'C:\\src\\sy\\.tmp\\demo-files',
  welcomeFile: 'C:\\src\\sy\\.tmp\\demo-files\\welcome.md',
  userDataDir: 'C:\\src\\sy\\.tmp\\browser-profile',
  extensionSource: 'C:\\src\\sy\\dist\\chrome-mv3',
  extensionDir: 'C:\\src\\sy\\.tmp\\extension',
  firefoxExtension: 'C:\\src\\sy\\dist\\firefox-mv3',
  browserLog: 'C:\\src\\sy\\.tmp\\browser.log',
};
const EDGE = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';

const only =
  (...present: string[]) =>
  (file: string): boolean =>
    present.includes(file);

describe('planStart: which path', () => {
  it.each<[string, Partial<StartPlanInput>, string]>([
    ['--headless', { options: { ...OPTIONS, headless: true } }, 'flag'],
    ['no display', { env: { PATH: '/usr/bin' } }, 'no-display'],
    ['no browser', {}, 'no-browser'],
    ['an OS the installer does not know', { platform: 'freebsd' }, 'unsupported-os'],
  ])('%s: headless', (_name, change, reason) => {
    const plan = planStart({ ...LINUX, ...change }, () => false);
    expect(plan).toMatchObject({ kind: 'headless', reason });
  });

  it('--headless wins even with a browser and a display', () => {
    const plan = planStart({ ...LINUX, options: { ...OPTIONS, headless: true } }, () => true);
    expect(plan.kind).toBe('headless');
  });

  it('a SWITCHYARD_BROWSER that is not there is an error, not a silent fallback', () => {
    const env = { DISPLAY: ':0', SWITCHYARD_BROWSER: '/nope/chromium' };
    expect(planStart({ ...LINUX, env }, () => false).kind).toBe('bad-browser');
  });
});

describe('planStart: the browser path', () => {
  it('Chromium on Linux: install for the dedicated profile, load the extension, open options', () => {
    const plan = planStart(LINUX, only('/usr/bin/chromium'));
    expect(plan.kind).toBe('browser');
    if (plan.kind !== 'browser') return;
    expect(plan.installArgs).toEqual([
      'install',
      '--browser',
      'chromium',
      '--user-data-dir',
      '/src/sy/.tmp/browser-profile',
      '--json',
    ]);
    expect(plan.installsForAllProfiles).toBe(false);
    expect(plan.launch.startUrls).toEqual([
      OPTIONS_URL,
      'file:///src/sy/.tmp/demo-files/welcome.md',
    ]);
    expect(plan.args).toContain('--load-extension=/src/sy/.tmp/extension');
    expect(plan.args).toContain('--user-data-dir=/src/sy/.tmp/browser-profile');
    expect(plan.args).not.toContain('--no-sandbox');
  });

  it('branded Chrome: no --load-extension, no extension page to open', () => {
    const plan = planStart(LINUX, only('/usr/bin/google-chrome'));
    expect(plan.kind).toBe('browser');
    if (plan.kind !== 'browser') return;
    expect(plan.browser.kind).toBe('chrome');
    expect(plan.installArgs.slice(0, 3)).toEqual(['install', '--browser', 'chrome']);
    expect(plan.launch.startUrls).toEqual(['file:///src/sy/.tmp/demo-files/welcome.md']);
    expect(plan.args.some((a) => a.startsWith('--load-extension'))).toBe(false);
  });

  it('as root on Linux, Chromium needs --no-sandbox', () => {
    const plan = planStart({ ...LINUX, uid: 0 }, only('/usr/bin/chromium'));
    expect(plan.kind === 'browser' && plan.args.includes('--no-sandbox')).toBe(true);
  });

  it('macOS: always a display; the profile flag as on Linux', () => {
    const chromium = '/Applications/Chromium.app/Contents/MacOS/Chromium';
    const plan = planStart(
      { ...LINUX, platform: 'darwin', env: {}, homedir: '/Users/ann', uid: 501 },
      only(chromium),
    );
    expect(plan).toMatchObject({ kind: 'browser', browser: { executable: chromium } });
    expect(plan.kind === 'browser' && plan.installArgs.includes('--user-data-dir')).toBe(true);
  });

  it('Windows: Edge, registered per browser (no --user-data-dir), file URL with a drive', () => {
    const plan = planStart(
      {
        options: OPTIONS,
        platform: 'win32',
        env: { 'ProgramFiles(x86)': 'C:\\Program Files (x86)' },
        homedir: 'C:\\Users\\ann',
        uid: null,
        layout: WINDOWS_LAYOUT,
      },
      only(EDGE),
    );
    expect(plan.kind).toBe('browser');
    if (plan.kind !== 'browser') return;
    expect(plan.installArgs).toEqual(['install', '--browser', 'edge', '--json']);
    expect(plan.installsForAllProfiles).toBe(true);
    expect(plan.launch.startUrls[1]).toBe('file:///C:/src/sy/.tmp/demo-files/welcome.md');
    expect(plan.args).toContain('--user-data-dir=C:\\src\\sy\\.tmp\\browser-profile');
  });
});
