import { describe, expect, it } from 'vitest';
import {
  BROWSER_KIND_INFO,
  browserCandidates,
  classifyBrowser,
  findBrowser,
  macAppExecutable,
  type BrowserSearchInput,
} from './browsers';

// Dangerous direction: picking branded Chrome where it claims --load-extension works would tell
// the user the extension is there when it is not. Every Chrome path must classify as `chrome`.

const LINUX: BrowserSearchInput = {
  platform: 'linux',
  homedir: '/home/ann',
  env: { PATH: '/home/ann/bin:/usr/local/bin:/usr/bin:relative' },
};
const MAC: BrowserSearchInput = { platform: 'darwin', homedir: '/Users/ann', env: {} };
const WINDOWS: BrowserSearchInput = {
  platform: 'win32',
  homedir: 'C:\\Users\\ann',
  env: {
    LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local',
    ProgramFiles: 'C:\\Program Files',
    'ProgramFiles(x86)': 'C:\\Program Files (x86)',
  },
};

const only =
  (...present: string[]) =>
  (file: string): boolean =>
    present.includes(file);

describe('findBrowser', () => {
  it.each<[string, BrowserSearchInput, string[], string, string]>([
    ['linux: Debian Chromium', LINUX, ['/usr/bin/chromium'], 'chromium', '/usr/bin/chromium'],
    [
      'linux: Chromium is preferred over Chrome',
      LINUX,
      ['/usr/bin/google-chrome', '/usr/bin/chromium-browser'],
      'chromium',
      '/usr/bin/chromium-browser',
    ],
    [
      'linux: PATH order within a kind',
      LINUX,
      ['/usr/bin/chromium', '/usr/local/bin/chromium'],
      'chromium',
      '/usr/local/bin/chromium',
    ],
    [
      'linux: Brave over Edge over Chrome',
      LINUX,
      ['/usr/bin/google-chrome-stable', '/usr/bin/microsoft-edge', '/usr/bin/brave-browser'],
      'brave',
      '/usr/bin/brave-browser',
    ],
    [
      'linux: Edge from /opt with a PATH lacking it',
      { ...LINUX, env: { PATH: '/home/ann/bin' } },
      ['/opt/microsoft/msedge/microsoft-edge'],
      'edge',
      '/opt/microsoft/msedge/microsoft-edge',
    ],
    [
      'linux: only Chrome',
      LINUX,
      ['/usr/bin/google-chrome-stable'],
      'chrome',
      '/usr/bin/google-chrome-stable',
    ],
    [
      'macOS: Chromium in ~/Applications',
      MAC,
      ['/Users/ann/Applications/Chromium.app/Contents/MacOS/Chromium'],
      'chromium',
      '/Users/ann/Applications/Chromium.app/Contents/MacOS/Chromium',
    ],
    [
      'macOS: Edge over Chrome',
      MAC,
      [
        '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
        '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
      ],
      'edge',
      '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    ],
    [
      'macOS: only Chrome',
      MAC,
      ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'],
      'chrome',
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    ],
    [
      'windows: Edge (every Windows has it) over Chrome',
      WINDOWS,
      [
        'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
        'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
      ],
      'edge',
      'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
    ],
    [
      'windows: per-user Chrome',
      WINDOWS,
      ['C:\\Users\\ann\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe'],
      'chrome',
      'C:\\Users\\ann\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe',
    ],
    [
      'windows: Chromium is chrome.exe too, but Chromium',
      WINDOWS,
      ['C:\\Users\\ann\\AppData\\Local\\Chromium\\Application\\chrome.exe'],
      'chromium',
      'C:\\Users\\ann\\AppData\\Local\\Chromium\\Application\\chrome.exe',
    ],
    [
      'windows: variable names in another case',
      { ...WINDOWS, env: { PROGRAMFILES: 'D:\\Apps' } },
      ['D:\\Apps\\BraveSoftware\\Brave-Browser\\Application\\brave.exe'],
      'brave',
      'D:\\Apps\\BraveSoftware\\Brave-Browser\\Application\\brave.exe',
    ],
  ])('%s', (_name, input, present, kind, executable) => {
    expect(findBrowser(input, only(...present))).toEqual({
      kind: 'found',
      browser: { kind, executable, source: 'known-path' },
    });
  });

  it('reports every place it looked when nothing is there', () => {
    const search = findBrowser(LINUX, () => false);
    expect(search.kind).toBe('none');
    if (search.kind === 'none') {
      expect(search.searched).toContain('/usr/bin/chromium');
      expect(search.searched).toContain('/opt/google/chrome/google-chrome');
      // A relative PATH entry is never searched.
      expect(search.searched.some((p) => p.startsWith('relative'))).toBe(false);
    }
  });

  it('takes SWITCHYARD_BROWSER over everything, classified by its path', () => {
    const env = { ...LINUX.env, SWITCHYARD_BROWSER: '/opt/google/chrome/chrome' };
    expect(findBrowser({ ...LINUX, env }, () => true)).toEqual({
      kind: 'found',
      browser: { kind: 'chrome', executable: '/opt/google/chrome/chrome', source: 'env' },
    });
  });

  it('accepts a macOS .app as SWITCHYARD_BROWSER', () => {
    const env = { SWITCHYARD_BROWSER: '/Applications/Brave Browser.app/' };
    const program = '/Applications/Brave Browser.app/Contents/MacOS/Brave Browser';
    expect(findBrowser({ ...MAC, env }, only(program))).toEqual({
      kind: 'found',
      browser: { kind: 'brave', executable: program, source: 'env' },
    });
  });

  it.each([
    ['chromium', 'must be the absolute path'],
    ['/missing/chromium', 'is not a program here'],
  ])('refuses SWITCHYARD_BROWSER=%s', (value, problem) => {
    const search = findBrowser({ ...LINUX, env: { SWITCHYARD_BROWSER: value } }, () => false);
    expect(search.kind).toBe('bad-override');
    if (search.kind === 'bad-override') expect(search.problem).toContain(problem);
  });
});

describe('classifyBrowser', () => {
  it.each([
    ['/usr/bin/chromium', 'chromium'],
    ['/snap/bin/chromium', 'chromium'],
    ['C:\\Users\\ann\\AppData\\Local\\Chromium\\Application\\chrome.exe', 'chromium'],
    ['/usr/bin/google-chrome-stable', 'chrome'],
    ['/opt/google/chrome/chrome', 'chrome'],
    ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', 'chrome'],
    ['C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', 'chrome'],
    ['/Applications/Google Chrome Beta.app/Contents/MacOS/Google Chrome Beta', 'chrome'],
    [
      '/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
      'chrome-for-testing',
    ],
    ['/home/ann/.cache/puppeteer/chrome/linux-139/chrome-linux64/chrome', 'chrome-for-testing'],
    ['C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe', 'edge'],
    ['/usr/bin/microsoft-edge-beta', 'edge'],
    ['/usr/bin/brave-browser', 'brave'],
    ['/opt/vivaldi/vivaldi', 'vivaldi'],
    ['/usr/local/bin/thorium', 'other'],
  ])('%s -> %s', (file, kind) => {
    expect(classifyBrowser(file)).toBe(kind);
  });

  it('only branded Chrome is expected to ignore --load-extension', () => {
    const ignoring = Object.entries(BROWSER_KIND_INFO)
      .filter(([, info]) => !info.loadsExtensionFlag)
      .map(([kind]) => kind);
    expect(ignoring).toEqual(['chrome']);
  });
});

describe('browserCandidates', () => {
  it('lists each path once, Chrome last', () => {
    const candidates = browserCandidates(LINUX);
    const paths = candidates.map((c) => c.executable);
    expect(new Set(paths).size).toBe(paths.length);
    expect(candidates.at(-1)?.kind).toBe('chrome');
  });

  it('falls back to %USERPROFILE%\\AppData\\Local without LOCALAPPDATA', () => {
    const paths = browserCandidates({ ...WINDOWS, env: {} }).map((c) => c.executable);
    expect(paths).toContain('C:\\Users\\ann\\AppData\\Local\\Chromium\\Application\\chrome.exe');
    expect(paths.some((p) => p.includes('Program Files'))).toBe(false);
  });
});

describe('macAppExecutable', () => {
  it('names the program inside the bundle', () => {
    expect(macAppExecutable('/Applications/Microsoft Edge.app')).toBe(
      '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    );
  });
});
