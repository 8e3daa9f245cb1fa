import path from 'node:path';
import { BROWSERS, BROWSER_INFO, type Browser, type InstallPlatform } from './browsers';
import {
  FIREFOX_PACKAGES,
  linuxFirefoxPaths,
  packageOfExecutable,
  type FirefoxPackage,
} from './firefox-packages';
import { linuxUserDataDir } from './locations';

/**
 * Which browsers are installed, for `switchyard install` without `--browser`: a browser counts
 * when its per-user data folder exists (it has run at least once) or its program is in a known
 * place (Linux: an executable on PATH; macOS: an app in /Applications or ~/Applications).
 * Firefox on Linux is also found by its snap and Flatpak folders (firefox-packages.ts).
 */

export interface DetectInput {
  readonly platform: InstallPlatform;
  readonly homedir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The paths whose existence means `browser` is installed, in the order they are probed. */
function detectionPaths(browser: Browser, input: DetectInput): string[] {
  const info = BROWSER_INFO[browser];
  const { homedir, env } = input;
  switch (input.platform) {
    case 'linux': {
      const p = path.posix;
      const executables = linuxPathDirs(env).flatMap((dir) =>
        info.linuxExecutables.map((exe) => p.join(dir, exe)),
      );
      if (info.linuxConfigDir === null) {
        return [...linuxFirefoxPaths({ homedir, env }).map((f) => f.path), ...executables];
      }
      const dataDir = linuxUserDataDir({
        platform: 'linux',
        browser,
        homedir,
        home: '',
        xdgConfigHome: env['XDG_CONFIG_HOME'],
      });
      return [dataDir, ...executables];
    }
    case 'darwin': {
      const p = path.posix;
      return [
        p.join(homedir, 'Library', 'Application Support', ...info.macDataDir),
        ...info.macApps.flatMap((app) => [
          p.join('/Applications', app),
          p.join(homedir, 'Applications', app),
        ]),
      ];
    }
    case 'win32': {
      const p = path.win32;
      const base =
        info.family === 'firefox'
          ? (env['APPDATA'] ?? p.join(homedir, 'AppData', 'Roaming'))
          : (env['LOCALAPPDATA'] ?? p.join(homedir, 'AppData', 'Local'));
      return [p.join(base, ...info.windowsDataDir)];
    }
  }
}

/** The installed browsers, in BROWSERS order. `exists` is injected so tests need no browsers. */
export async function detectBrowsers(
  input: DetectInput,
  exists: (p: string) => boolean | Promise<boolean>,
): Promise<Browser[]> {
  const found: Browser[] = [];
  for (const browser of BROWSERS) {
    for (const candidate of detectionPaths(browser, input)) {
      if (await exists(candidate)) {
        found.push(browser);
        break;
      }
    }
  }
  return found;
}

function linuxPathDirs(env: DetectInput['env']): string[] {
  return (env['PATH'] ?? '').split(':').filter((d) => d.startsWith('/'));
}

/**
 * Linux: every Firefox package found (native, snap, Flatpak), each once, in FIREFOX_PACKAGES
 * order; other OSes have one kind, so []. A `firefox` on PATH counts as native unless it is in
 * /snap/bin (Ubuntu's /usr/bin/firefox, a wrapper that runs the snap, also counts as native; the
 * snap's own folders then report the snap as well).
 */
export async function detectFirefoxPackages(
  input: DetectInput,
  exists: (p: string) => boolean | Promise<boolean>,
): Promise<FirefoxPackage[]> {
  if (input.platform !== 'linux') return [];
  const found = new Set<FirefoxPackage>();
  for (const candidate of linuxFirefoxPaths(input)) {
    if (!found.has(candidate.kind) && (await exists(candidate.path))) found.add(candidate.kind);
  }
  for (const dir of linuxPathDirs(input.env)) {
    for (const exe of BROWSER_INFO.firefox.linuxExecutables) {
      const file = path.posix.join(dir, exe);
      const kind = packageOfExecutable(file);
      if (!found.has(kind) && (await exists(file))) found.add(kind);
    }
  }
  return FIREFOX_PACKAGES.filter((kind) => found.has(kind));
}
