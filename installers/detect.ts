import path from 'node:path';
import { BROWSERS, BROWSER_INFO, type Browser, type InstallPlatform } from './browsers';
import { linuxUserDataDir } from './locations';

/**
 * Which browsers are installed, for `switchyard install` without `--browser`: a browser counts
 * when its per-user data folder exists (it has run at least once) or its program is in a known
 * place (Linux: an executable on PATH; macOS: an app in /Applications or ~/Applications).
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
      const dataDir =
        info.linuxConfigDir === null
          ? p.join(homedir, '.mozilla', 'firefox')
          : linuxUserDataDir({
              platform: 'linux',
              browser,
              homedir,
              home: '',
              xdgConfigHome: env['XDG_CONFIG_HOME'],
            });
      const dirs = (env['PATH'] ?? '').split(':').filter((d) => d.startsWith('/'));
      return [
        dataDir,
        ...dirs.flatMap((dir) => info.linuxExecutables.map((exe) => p.join(dir, exe))),
      ];
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
