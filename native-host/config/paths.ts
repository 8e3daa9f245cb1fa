import os from 'node:os';
import path from 'node:path';
import { getEnvVar } from './env';
import { ConfigError } from './load';
import { isFullyAbsolute } from './workspace-folder';

/**
 * Where Switchyard keeps its files. Computed from injected env, platform and home folder so the
 * rules of all three OSes are tested on any one of them.
 */

const APP_FOLDER_POSIX = 'switchyard';
const APP_FOLDER_NAMED = 'Switchyard';

function pathFor(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** Normalizes `value` and drops trailing separators, keeping a bare root (`/`, `C:\`). */
function tidy(value: string, platform: NodeJS.Platform): string {
  const p = pathFor(platform);
  const normalized = p.normalize(value);
  const root = p.parse(normalized).root;
  const trailing = platform === 'win32' ? /[\\/]+$/ : /\/+$/;
  return normalized.length > root.length ? normalized.replace(trailing, '') : normalized;
}

/**
 * The Switchyard home folder:
 * - `$SWITCHYARD_HOME` when set and non-empty; it must be absolute (ConfigError otherwise,
 *   since a relative one would depend on the folder the browser started the host in);
 * - macOS: `~/Library/Application Support/Switchyard`;
 * - Windows: `%APPDATA%\Switchyard`, or `~\AppData\Roaming\Switchyard` without APPDATA;
 * - Linux and others: `$XDG_CONFIG_HOME/switchyard`, or `~/.config/switchyard`. A relative
 *   XDG_CONFIG_HOME is ignored, as the XDG Base Directory spec requires.
 *
 * Environment lookups ignore case on Windows. Throws ConfigError when the home folder is needed
 * and `homedir` is not absolute.
 */
export function switchyardHome(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  homedir: string = os.homedir(),
): string {
  const p = pathFor(platform);
  const override = getEnvVar(env, 'SWITCHYARD_HOME', platform);
  if (override !== undefined && override !== '') {
    if (!isFullyAbsolute(override, platform)) {
      const example = platform === 'win32' ? 'C:\\Users\\you\\switchyard' : '/home/you/switchyard';
      throw new ConfigError({
        key: 'SWITCHYARD_HOME',
        detail: `must be an absolute path, got ${JSON.stringify(override)}; set it to a full path such as ${example}, or unset it to use the default location`,
      });
    }
    return tidy(override, platform);
  }

  const appData = platform === 'win32' ? getEnvVar(env, 'APPDATA', platform) : undefined;
  if (appData !== undefined && isFullyAbsolute(appData, platform)) {
    return p.join(tidy(appData, platform), APP_FOLDER_NAMED);
  }
  const xdg = getEnvVar(env, 'XDG_CONFIG_HOME', platform);
  const useXdg = platform !== 'darwin' && platform !== 'win32';
  if (useXdg && xdg !== undefined && isFullyAbsolute(xdg, platform)) {
    return p.join(tidy(xdg, platform), APP_FOLDER_POSIX);
  }

  if (!isFullyAbsolute(homedir, platform)) {
    throw new ConfigError({
      key: 'SWITCHYARD_HOME',
      detail: `cannot find your home folder (got ${JSON.stringify(homedir)}); set SWITCHYARD_HOME to an absolute path`,
    });
  }
  const home = tidy(homedir, platform);
  if (platform === 'darwin')
    return p.join(home, 'Library', 'Application Support', APP_FOLDER_NAMED);
  if (platform === 'win32') return p.join(home, 'AppData', 'Roaming', APP_FOLDER_NAMED);
  return p.join(home, '.config', APP_FOLDER_POSIX);
}

/** The user-tier config file inside `home`: `<home>/config.json`, joined for `platform`. */
export function configPath(home: string, platform: NodeJS.Platform = process.platform): string {
  return pathFor(platform).join(home, 'config.json');
}
