import path from 'node:path';
import type { Browser, InstallPlatform } from '../../installers/browsers';

/**
 * Which Chromium-family browser `npm start` opens, and what it can do. A dedicated profile gets
 * the extension through `--load-extension`, which every Chromium build honours except Google
 * Chrome's own: branded Chrome 137 and later ignore it ("--load-extension is not allowed in
 * Google Chrome, ignoring"; Chromium's PSA "Removing --load-extension flag in Chrome branded
 * builds" names Chromium and Chrome for Testing as unaffected). So Chrome comes last, and when it
 * is the one found, start.ts opens chrome://extensions and prints the Load-unpacked steps
 * instead of claiming the extension is there.
 *
 * Pure: the file system and the environment are parameters, so every OS's table is tested here.
 */

export const BROWSER_KINDS = [
  'chromium',
  'brave',
  'edge',
  'vivaldi',
  'chrome-for-testing',
  'chrome',
  'other',
] as const;
export type BrowserKind = (typeof BROWSER_KINDS)[number];

export interface BrowserKindInfo {
  readonly displayName: string;
  /** The name `switchyard install --browser` takes for it (decides the Windows registry key). */
  readonly installAs: Browser;
  /** Whether `--load-extension` loads the unpacked extension (false: branded Google Chrome). */
  readonly loadsExtensionFlag: boolean;
}

export const BROWSER_KIND_INFO: Readonly<Record<BrowserKind, BrowserKindInfo>> = {
  chromium: { displayName: 'Chromium', installAs: 'chromium', loadsExtensionFlag: true },
  brave: { displayName: 'Brave', installAs: 'brave', loadsExtensionFlag: true },
  edge: { displayName: 'Microsoft Edge', installAs: 'edge', loadsExtensionFlag: true },
  vivaldi: { displayName: 'Vivaldi', installAs: 'vivaldi', loadsExtensionFlag: true },
  'chrome-for-testing': {
    displayName: 'Chrome for Testing',
    installAs: 'chrome',
    loadsExtensionFlag: true,
  },
  chrome: { displayName: 'Google Chrome', installAs: 'chrome', loadsExtensionFlag: false },
  // A browser named by SWITCHYARD_BROWSER that is none of the above: assumed to be a Chromium
  // build; if it ignores the flag, the printed Load-unpacked fallback still applies.
  other: { displayName: 'the browser', installAs: 'chromium', loadsExtensionFlag: true },
};

export interface FoundBrowser {
  readonly kind: BrowserKind;
  /** Absolute path of the program to run. */
  readonly executable: string;
  /** `env`: named by SWITCHYARD_BROWSER; `known-path`: found where its installer puts it. */
  readonly source: 'env' | 'known-path';
}

export type BrowserSearch =
  | { readonly kind: 'found'; readonly browser: FoundBrowser }
  | { readonly kind: 'none'; readonly searched: readonly string[] }
  | { readonly kind: 'bad-override'; readonly problem: string };

export interface BrowserSearchInput {
  readonly platform: InstallPlatform;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The user's home folder (macOS: ~/Applications). */
  readonly homedir: string;
}

export interface Candidate {
  readonly kind: BrowserKind;
  readonly executable: string;
}

/** The browsers found by name, best first: those that load the extension, Chrome last. */
const PREFERENCE: readonly BrowserKind[] = ['chromium', 'brave', 'edge', 'vivaldi', 'chrome'];

const LINUX_NAMES: Readonly<Partial<Record<BrowserKind, readonly string[]>>> = {
  chromium: ['chromium', 'chromium-browser'],
  brave: ['brave-browser', 'brave-browser-stable', 'brave'],
  edge: ['microsoft-edge', 'microsoft-edge-stable'],
  vivaldi: ['vivaldi', 'vivaldi-stable'],
  chrome: ['google-chrome', 'google-chrome-stable'],
};

/** Where vendors' Linux packages put the program, for a PATH that lacks /usr/bin or /opt. */
const LINUX_FIXED: Readonly<Partial<Record<BrowserKind, readonly string[]>>> = {
  chromium: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'],
  brave: ['/usr/bin/brave-browser', '/opt/brave.com/brave/brave-browser'],
  edge: ['/usr/bin/microsoft-edge', '/opt/microsoft/msedge/microsoft-edge'],
  vivaldi: ['/usr/bin/vivaldi', '/opt/vivaldi/vivaldi'],
  chrome: ['/usr/bin/google-chrome', '/opt/google/chrome/google-chrome'],
};

/** macOS application bundles, under /Applications or ~/Applications. */
const MAC_APPS: Readonly<Partial<Record<BrowserKind, readonly string[]>>> = {
  chromium: ['Chromium.app'],
  brave: ['Brave Browser.app'],
  edge: ['Microsoft Edge.app'],
  vivaldi: ['Vivaldi.app'],
  chrome: ['Google Chrome.app'],
};

type WindowsBase = 'LOCALAPPDATA' | 'ProgramFiles' | 'ProgramFiles(x86)';

/** Windows: per-user installs under %LOCALAPPDATA%, machine-wide ones under Program Files. */
const WINDOWS_PATHS: Readonly<
  Partial<Record<BrowserKind, ReadonlyArray<readonly [WindowsBase, string]>>>
> = {
  chromium: [
    ['LOCALAPPDATA', 'Chromium\\Application\\chrome.exe'],
    ['ProgramFiles', 'Chromium\\Application\\chrome.exe'],
  ],
  brave: [
    ['ProgramFiles', 'BraveSoftware\\Brave-Browser\\Application\\brave.exe'],
    ['ProgramFiles(x86)', 'BraveSoftware\\Brave-Browser\\Application\\brave.exe'],
    ['LOCALAPPDATA', 'BraveSoftware\\Brave-Browser\\Application\\brave.exe'],
  ],
  edge: [
    ['ProgramFiles(x86)', 'Microsoft\\Edge\\Application\\msedge.exe'],
    ['ProgramFiles', 'Microsoft\\Edge\\Application\\msedge.exe'],
  ],
  vivaldi: [
    ['LOCALAPPDATA', 'Vivaldi\\Application\\vivaldi.exe'],
    ['ProgramFiles', 'Vivaldi\\Application\\vivaldi.exe'],
  ],
  chrome: [
    ['ProgramFiles', 'Google\\Chrome\\Application\\chrome.exe'],
    ['ProgramFiles(x86)', 'Google\\Chrome\\Application\\chrome.exe'],
    ['LOCALAPPDATA', 'Google\\Chrome\\Application\\chrome.exe'],
  ],
};

/** Windows variables are case-insensitive; an injected environment is a plain object. */
function windowsVariable(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
): string | undefined {
  const key = Object.keys(env).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : env[key];
  return value === undefined || value === '' ? undefined : value;
}

/** The program inside a macOS bundle: `X.app` runs `X.app/Contents/MacOS/X`. */
export function macAppExecutable(app: string): string {
  const name = path.posix.basename(app).replace(/\.app$/i, '');
  return path.posix.join(app, 'Contents', 'MacOS', name);
}

/** Every place a browser is looked for on this OS, best first (duplicates removed). */
export function browserCandidates(input: BrowserSearchInput): Candidate[] {
  const { platform, env, homedir } = input;
  const out: Candidate[] = [];
  const add = (kind: BrowserKind, executable: string): void => {
    if (!out.some((c) => c.executable === executable)) out.push({ kind, executable });
  };
  for (const kind of PREFERENCE) {
    switch (platform) {
      case 'linux': {
        const dirs = (env['PATH'] ?? '').split(':').filter((d) => path.posix.isAbsolute(d));
        for (const name of LINUX_NAMES[kind] ?? []) {
          for (const dir of dirs) add(kind, path.posix.join(dir, name));
        }
        for (const fixed of LINUX_FIXED[kind] ?? []) add(kind, fixed);
        break;
      }
      case 'darwin':
        for (const app of MAC_APPS[kind] ?? []) {
          for (const dir of ['/Applications', path.posix.join(homedir, 'Applications')]) {
            add(kind, macAppExecutable(path.posix.join(dir, app)));
          }
        }
        break;
      case 'win32':
        for (const [base, rest] of WINDOWS_PATHS[kind] ?? []) {
          const folder =
            windowsVariable(env, base) ??
            (base === 'LOCALAPPDATA' ? path.win32.join(homedir, 'AppData', 'Local') : undefined);
          if (folder !== undefined) add(kind, path.win32.join(folder, rest));
        }
        break;
    }
  }
  return out;
}

/**
 * What kind of browser a program is, from its path (for SWITCHYARD_BROWSER). Chromium is checked
 * before Chrome: Windows Chromium's program is `Chromium\Application\chrome.exe`. A program this
 * cannot place is `other`, treated as a Chromium build.
 */
export function classifyBrowser(executable: string): BrowserKind {
  const p = executable.replaceAll('\\', '/').toLowerCase();
  if (/for[ -]testing|\/chrome-(linux64|mac-x64|mac-arm64|win64|win32)\//.test(p)) {
    return 'chrome-for-testing';
  }
  if (/msedge|microsoft[ -]edge/.test(p)) return 'edge';
  if (/brave/.test(p)) return 'brave';
  if (/vivaldi/.test(p)) return 'vivaldi';
  if (/chromium/.test(p)) return 'chromium';
  if (/google[ -]chrome|google\/chrome|(^|\/)chrome(\.exe)?$/.test(p)) return 'chrome';
  return 'other';
}

/**
 * The browser to open: SWITCHYARD_BROWSER if set (it must exist; a macOS `.app` is accepted),
 * else the first known one that exists. `isExecutable` is injected so tests need no browsers.
 */
export function findBrowser(
  input: BrowserSearchInput,
  isExecutable: (file: string) => boolean,
): BrowserSearch {
  const override = input.env['SWITCHYARD_BROWSER'];
  if (override !== undefined && override.trim() !== '') {
    const pathApi = input.platform === 'win32' ? path.win32 : path.posix;
    if (!pathApi.isAbsolute(override)) {
      return {
        kind: 'bad-override',
        problem: `SWITCHYARD_BROWSER must be the absolute path of the browser's program, not '${override}'.`,
      };
    }
    const executable =
      input.platform === 'darwin' && /\.app\/?$/i.test(override)
        ? macAppExecutable(override.replace(/\/$/, ''))
        : override;
    if (!isExecutable(executable)) {
      return {
        kind: 'bad-override',
        problem: `SWITCHYARD_BROWSER names ${executable}, which is not a program here. Point it at the browser's executable, or unset it to let npm start look.`,
      };
    }
    return {
      kind: 'found',
      browser: { kind: classifyBrowser(executable), executable, source: 'env' },
    };
  }
  const candidates = browserCandidates(input);
  const hit = candidates.find((c) => isExecutable(c.executable));
  return hit === undefined
    ? { kind: 'none', searched: candidates.map((c) => c.executable) }
    : { kind: 'found', browser: { ...hit, source: 'known-path' } };
}
