/**
 * The browsers the installer registers the host with, and where each one keeps its per-user
 * data on each OS. Sources: Chrome's native messaging guide ("Native messaging host location":
 * user-level hosts live in `NativeMessagingHosts/` of the user data directory, and on Windows
 * in `HKCU\Software\Google\Chrome\NativeMessagingHosts\<name>`), MDN "Native manifests"
 * ("Manifest location"), Microsoft Edge's native messaging guide; Brave and Vivaldi follow
 * Chromium with their own vendor folders and keys.
 */

export const BROWSERS = ['chrome', 'chromium', 'edge', 'brave', 'vivaldi', 'firefox'] as const;
export type Browser = (typeof BROWSERS)[number];

/** Chromium-family browsers take `allowed_origins`; Firefox takes `allowed_extensions`. */
export type BrowserFamily = 'chromium' | 'firefox';

export type InstallPlatform = 'linux' | 'darwin' | 'win32';

export interface BrowserInfo {
  readonly name: Browser;
  readonly displayName: string;
  readonly family: BrowserFamily;
  /** Linux: the user data directory under `$XDG_CONFIG_HOME` (or `~/.config`); Firefox: null. */
  readonly linuxConfigDir: readonly string[] | null;
  /** macOS: the user data directory under `~/Library/Application Support`. */
  readonly macDataDir: readonly string[];
  /** Windows: the vendor path under `HKCU\Software` (the key is `<it>\NativeMessagingHosts\<name>`). */
  readonly windowsVendorKey: string;
  /** Windows: the user data folder, relative to %LOCALAPPDATA% (Firefox: %APPDATA%). */
  readonly windowsDataDir: readonly string[];
  /** Linux: executable names that tell the browser is installed. */
  readonly linuxExecutables: readonly string[];
  /** macOS: application bundle names under /Applications or ~/Applications. */
  readonly macApps: readonly string[];
}

export const BROWSER_INFO: Readonly<Record<Browser, BrowserInfo>> = {
  chrome: {
    name: 'chrome',
    displayName: 'Google Chrome',
    family: 'chromium',
    linuxConfigDir: ['google-chrome'],
    macDataDir: ['Google', 'Chrome'],
    windowsVendorKey: 'Google\\Chrome',
    windowsDataDir: ['Google', 'Chrome', 'User Data'],
    linuxExecutables: ['google-chrome', 'google-chrome-stable'],
    macApps: ['Google Chrome.app'],
  },
  chromium: {
    name: 'chromium',
    displayName: 'Chromium',
    family: 'chromium',
    linuxConfigDir: ['chromium'],
    macDataDir: ['Chromium'],
    windowsVendorKey: 'Chromium',
    windowsDataDir: ['Chromium', 'User Data'],
    linuxExecutables: ['chromium', 'chromium-browser'],
    macApps: ['Chromium.app'],
  },
  edge: {
    name: 'edge',
    displayName: 'Microsoft Edge',
    family: 'chromium',
    linuxConfigDir: ['microsoft-edge'],
    macDataDir: ['Microsoft Edge'],
    windowsVendorKey: 'Microsoft\\Edge',
    windowsDataDir: ['Microsoft', 'Edge', 'User Data'],
    linuxExecutables: ['microsoft-edge', 'microsoft-edge-stable'],
    macApps: ['Microsoft Edge.app'],
  },
  brave: {
    name: 'brave',
    displayName: 'Brave',
    family: 'chromium',
    linuxConfigDir: ['BraveSoftware', 'Brave-Browser'],
    macDataDir: ['BraveSoftware', 'Brave-Browser'],
    windowsVendorKey: 'BraveSoftware\\Brave-Browser',
    windowsDataDir: ['BraveSoftware', 'Brave-Browser', 'User Data'],
    linuxExecutables: ['brave-browser', 'brave', 'brave-browser-stable'],
    macApps: ['Brave Browser.app'],
  },
  vivaldi: {
    name: 'vivaldi',
    displayName: 'Vivaldi',
    family: 'chromium',
    linuxConfigDir: ['vivaldi'],
    macDataDir: ['Vivaldi'],
    windowsVendorKey: 'Vivaldi',
    windowsDataDir: ['Vivaldi', 'User Data'],
    linuxExecutables: ['vivaldi', 'vivaldi-stable'],
    macApps: ['Vivaldi.app'],
  },
  firefox: {
    name: 'firefox',
    displayName: 'Firefox',
    family: 'firefox',
    linuxConfigDir: null,
    macDataDir: ['Firefox'],
    windowsVendorKey: 'Mozilla',
    windowsDataDir: ['Mozilla', 'Firefox'],
    linuxExecutables: ['firefox', 'firefox-esr'],
    macApps: ['Firefox.app'],
  },
};

export function isBrowser(value: string): value is Browser {
  return (BROWSERS as readonly string[]).includes(value);
}

/** The OSes the installer knows; anything else is refused with a message naming the three. */
export function installPlatform(platform: NodeJS.Platform): InstallPlatform | null {
  return platform === 'linux' || platform === 'darwin' || platform === 'win32' ? platform : null;
}
