import path from 'node:path';
import { HOST_NAME } from '../protocol/identity';
import { BROWSERS, BROWSER_INFO, type Browser, type InstallPlatform } from './browsers';
import { CACHE_DIR_NAME, MAIN_BUNDLE_FILE } from '../native-host/shared/code-cache';

/**
 * Where the installer writes, as pure functions of the OS, the home folder and the environment,
 * so every OS x browser is tested on any one machine.
 *
 * - Linux, Chromium family: `<user data dir>/NativeMessagingHosts/`, where the user data dir is
 *   `$XDG_CONFIG_HOME/<vendor>` (absolute XDG_CONFIG_HOME only) or `~/.config/<vendor>`;
 *   Firefox: `~/.mozilla/native-messaging-hosts/` for every profile layout and package (native, snap
 *   through the desktop portal, Flatpak through xdg-native-messaging-proxy; firefox-packages.ts).
 * - macOS: `~/Library/Application Support/<vendor>/NativeMessagingHosts/`; Firefox:
 *   `~/Library/Application Support/Mozilla/NativeMessagingHosts/`.
 * - Windows: the manifest lives in Switchyard's own folder (`<home>\host\<browser>\`) and
 *   `HKCU\Software\<vendor>\NativeMessagingHosts\com.switchyard.host` points at it.
 * - `--user-data-dir DIR` (Chromium family, Linux and macOS): `DIR/NativeMessagingHosts/`, the
 *   folder Chromium reads for a profile started with `--user-data-dir`.
 */

export const MANIFEST_FILE = `${HOST_NAME}.json`;
export const POSIX_LAUNCHER_FILE = 'switchyard-host';
export const WINDOWS_LAUNCHER_FILE = 'switchyard-host.cmd';
/** The entry the launcher runs; it loads MAIN_BUNDLE_FILE beside it (decision 0033). */
export const BUNDLE_FILE = 'switchyard.cjs';

export const RECEIPT_FILE = 'install.json';

export function pathFor(platform: InstallPlatform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** Absolute without depending on a current folder or drive (see config/paths.ts). */
export function isFullyAbsolute(value: string, platform: InstallPlatform): boolean {
  if (platform !== 'win32') return value.startsWith('/');
  return /^[A-Za-z]:[\\/]/.test(value) || /^[\\/]{2}[^\\/]/.test(value);
}

export interface InstallPaths {
  /** `<home>/host`: the launcher and the copied bundle. */
  readonly hostDir: string;
  readonly launcher: string;
  /** The entry (`switchyard.cjs`), beside the main bundle it loads and V8's code cache. */
  readonly bundle: string;
  readonly mainBundle: string;
  /** The entry's code cache folder: written by the host, removed by uninstall. */
  readonly codeCache: string;
  /** `<home>/install.json`: what was installed, read by uninstall, doctor and the host. */
  readonly receipt: string;
}

/** The files Switchyard keeps in its own home folder for an install. */
export function installPaths(home: string, platform: InstallPlatform): InstallPaths {
  const p = pathFor(platform);
  const hostDir = p.join(home, 'host');
  return {
    hostDir,
    launcher: p.join(hostDir, platform === 'win32' ? WINDOWS_LAUNCHER_FILE : POSIX_LAUNCHER_FILE),
    bundle: p.join(hostDir, BUNDLE_FILE),
    mainBundle: p.join(hostDir, MAIN_BUNDLE_FILE),
    codeCache: p.join(hostDir, CACHE_DIR_NAME),
    receipt: p.join(home, RECEIPT_FILE),
  };
}

export interface LocationInput {
  readonly platform: InstallPlatform;
  readonly browser: Browser;
  /** The user's home folder (os.homedir()). */
  readonly homedir: string;
  /** Switchyard's home folder (`$SWITCHYARD_HOME` or the per-OS default). */
  readonly home: string;
  /** Linux only: `$XDG_CONFIG_HOME`, honoured when absolute (Chromium does the same). */
  readonly xdgConfigHome?: string | undefined;
  /** A Chromium profile started with `--user-data-dir`: absolute. */
  readonly userDataDir?: string | null;
}

export interface ManifestLocation {
  /** Absolute path of the host manifest file. */
  readonly manifest: string;
  /** Windows only: the HKCU key whose default value is `manifest`. */
  readonly registryKey: string | null;
}

export type LocationResult =
  | { readonly ok: true; readonly location: ManifestLocation }
  | { readonly ok: false; readonly message: string };

/** The per-user registry key a browser reads on Windows, e.g. `HKCU\Software\Chromium\...`. */
export function registryKeyFor(browser: Browser): string {
  return `HKCU\\Software\\${BROWSER_INFO[browser].windowsVendorKey}\\NativeMessagingHosts\\${HOST_NAME}`;
}

/** Every key the installer may write: a receipt naming any other key is not trusted. */
export const KNOWN_REGISTRY_KEYS: readonly string[] = BROWSERS.map(registryKeyFor);

/** Where `browser`'s manifest goes for this user (or this `--user-data-dir` profile). */
export function manifestLocation(input: LocationInput): LocationResult {
  const { platform, browser, homedir, home } = input;
  const info = BROWSER_INFO[browser];
  const p = pathFor(platform);
  const userDataDir = input.userDataDir ?? null;

  if (userDataDir !== null) {
    if (info.family !== 'chromium') {
      return {
        ok: false,
        message: `--user-data-dir is a Chromium option; ${info.displayName} has no such folder. Drop --user-data-dir, or pick a Chromium-family --browser.`,
      };
    }
    if (platform === 'win32') {
      return {
        ok: false,
        message:
          "--user-data-dir is not needed on Windows: Chromium browsers read the host from the registry for every profile. Run 'switchyard install --browser " +
          `${browser}' without it.`,
      };
    }
    if (!isFullyAbsolute(userDataDir, platform)) {
      return {
        ok: false,
        message: `--user-data-dir must be an absolute folder, got ${JSON.stringify(userDataDir)}.`,
      };
    }
    return {
      ok: true,
      location: {
        manifest: p.join(userDataDir, 'NativeMessagingHosts', MANIFEST_FILE),
        registryKey: null,
      },
    };
  }

  if (platform === 'win32') {
    return {
      ok: true,
      location: {
        manifest: p.join(installPaths(home, platform).hostDir, browser, MANIFEST_FILE),
        registryKey: registryKeyFor(browser),
      },
    };
  }

  if (!isFullyAbsolute(homedir, platform)) {
    return {
      ok: false,
      message: `cannot find your home folder (got ${JSON.stringify(homedir)}); set HOME to an absolute path.`,
    };
  }

  if (platform === 'darwin') {
    const support = p.join(homedir, 'Library', 'Application Support');
    const dir =
      info.family === 'firefox'
        ? p.join(support, 'Mozilla', 'NativeMessagingHosts')
        : p.join(support, ...info.macDataDir, 'NativeMessagingHosts');
    return { ok: true, location: { manifest: p.join(dir, MANIFEST_FILE), registryKey: null } };
  }

  // Linux
  if (info.linuxConfigDir === null) {
    // Firefox reads per-user hosts from ~/.mozilla/native-messaging-hosts only, also when its
    // profiles live in $XDG_CONFIG_HOME/mozilla/firefox (a recent Firefox on an empty home): tried
    // with Firefox ESR 153, ~/.config/mozilla/native-messaging-hosts alone is not read (issue 16;
    // see Mozilla bug 2005167). The snap's portal and Flatpak's xdg-native-messaging-proxy read this
    // folder too. Pinned in locations.test.ts; do not "follow" the profiles to ~/.config.
    return {
      ok: true,
      location: {
        manifest: p.join(homedir, '.mozilla', 'native-messaging-hosts', MANIFEST_FILE),
        registryKey: null,
      },
    };
  }
  return {
    ok: true,
    location: {
      manifest: p.join(linuxUserDataDir(input), 'NativeMessagingHosts', MANIFEST_FILE),
      registryKey: null,
    },
  };
}

/** Linux: a Chromium-family browser's default user data dir (XDG_CONFIG_HOME when absolute). */
export function linuxUserDataDir(input: LocationInput): string {
  const info = BROWSER_INFO[input.browser];
  const xdg = input.xdgConfigHome;
  const configHome =
    xdg !== undefined && xdg.startsWith('/') ? xdg : path.posix.join(input.homedir, '.config');
  return path.posix.join(configHome, ...(info.linuxConfigDir ?? []));
}
