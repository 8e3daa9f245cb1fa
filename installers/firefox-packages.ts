import path from 'node:path';

/**
 * How Firefox is packaged on Linux, found by where it keeps its profiles, and what that means for
 * reaching the host. Every package reads the same host manifest,
 * `~/.mozilla/native-messaging-hosts/com.switchyard.host.json` (see locations.ts); they differ in
 * who starts the launcher:
 *
 * - `native` (a distribution package, Mozilla's .deb or tarball): Firefox runs it itself. Its
 *   profiles are in `~/.mozilla/firefox`, or, when a recent Firefox (ESR 153 does) starts on an
 *   empty home, in `$XDG_CONFIG_HOME/mozilla/firefox` (`~/.config/mozilla/firefox`).
 * - `snap`: the sandbox asks the desktop portal (the WebExtensions portal Ubuntu's
 *   xdg-desktop-portal ships; firefox-source-docs "Native messaging for a strictly-confined
 *   Firefox"), which reads the manifest outside the sandbox and starts the launcher there.
 *   Profiles in `~/snap/firefox/common/.mozilla/firefox`.
 * - `flatpak`: the sandbox sees neither the manifest nor the node the launcher records. Only
 *   xdg-native-messaging-proxy (Firefox 157 or later), a user service outside the sandbox, reads the
 *   manifest and starts the launcher. Profiles in `~/.var/app/org.mozilla.firefox/.mozilla/firefox`,
 *   or `.../config/mozilla/firefox` (the sandbox's XDG_CONFIG_HOME) for new ones.
 */

export const FIREFOX_PACKAGES = ['native', 'snap', 'flatpak'] as const;
export type FirefoxPackage = (typeof FIREFOX_PACKAGES)[number];

export const FLATPAK_FIREFOX_ID = 'org.mozilla.firefox';

export interface FirefoxPathInput {
  readonly homedir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface FirefoxPath {
  readonly kind: FirefoxPackage;
  readonly path: string;
}

/**
 * The folders whose existence shows a Firefox package, in probe order: the profile folders first
 * (Firefox has run), then where snapd and Flatpak install it (installed, not yet run).
 */
export function linuxFirefoxPaths(input: FirefoxPathInput): FirefoxPath[] {
  const p = path.posix;
  const { homedir, env } = input;
  const xdg = env['XDG_CONFIG_HOME'];
  // XDG Base Directory spec: a relative XDG_CONFIG_HOME is invalid and ignored.
  const configHome = xdg !== undefined && xdg.startsWith('/') ? xdg : p.join(homedir, '.config');
  const flatpakApp = p.join(homedir, '.var', 'app', FLATPAK_FIREFOX_ID);
  return [
    { kind: 'native', path: p.join(homedir, '.mozilla', 'firefox') },
    { kind: 'native', path: p.join(configHome, 'mozilla', 'firefox') },
    { kind: 'snap', path: p.join(homedir, 'snap', 'firefox', 'common', '.mozilla', 'firefox') },
    { kind: 'flatpak', path: p.join(flatpakApp, '.mozilla', 'firefox') },
    { kind: 'flatpak', path: p.join(flatpakApp, 'config', 'mozilla', 'firefox') },
    { kind: 'snap', path: '/snap/firefox' },
    { kind: 'flatpak', path: p.join('/var/lib/flatpak/app', FLATPAK_FIREFOX_ID) },
    {
      kind: 'flatpak',
      path: p.join(homedir, '.local', 'share', 'flatpak', 'app', FLATPAK_FIREFOX_ID),
    },
  ];
}

/** Which package a `firefox` found on PATH is: snapd puts its commands in /snap/bin. */
export function packageOfExecutable(file: string): FirefoxPackage {
  return path.posix.dirname(file) === '/snap/bin' ? 'snap' : 'native';
}

/**
 * What to tell the user about each sandboxed package found, one paragraph each; nothing for a
 * native Firefox, which needs nothing beyond the manifest. `node` is the one the launcher runs.
 */
export function firefoxPackageNotes(packages: readonly FirefoxPackage[], node: string): string[] {
  const notes: string[] = [];
  for (const kind of FIREFOX_PACKAGES) {
    if (!packages.includes(kind)) continue;
    switch (kind) {
      case 'native':
        break;
      case 'snap':
        notes.push(
          "Firefox (snap) does not start the host itself: it asks the desktop portal (WebExtensions, in Ubuntu's xdg-desktop-portal), which reads this same manifest outside the sandbox and starts the launcher there. The first time, your desktop asks whether Switchyard may start it. If the extension still cannot reach the host, check about:config: widget.use-xdg-desktop-portal.native-messaging must not be 0.",
        );
        break;
      case 'flatpak':
        notes.push(
          `Firefox (Flatpak) cannot see this manifest from its sandbox, and a host started inside it would not find ${node}. It connects only through xdg-native-messaging-proxy (Firefox 157 or later): install it (package xdg-native-messaging-proxy), run 'systemctl --user enable --now xdg-native-messaging-proxy.service', then 'flatpak override --user --talk-name=org.freedesktop.NativeMessagingProxy ${FLATPAK_FIREFOX_ID}', and restart Firefox. Otherwise use a Firefox from your distribution, Mozilla's .deb or tarball, or the snap. See docs/install.md, "Firefox: deb, snap and Flatpak".`,
        );
        break;
    }
  }
  return notes;
}
