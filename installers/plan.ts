import { BROWSER_INFO, type Browser, type InstallPlatform } from './browsers';
import { launcherText } from './launcher';
import {
  installPaths,
  isFullyAbsolute,
  manifestLocation,
  pathFor,
  type InstallPaths,
} from './locations';
import type { RecordedPath } from './login-path';
import { EXTENSION_ID, hostManifest, manifestText, type HostManifest } from './manifest';
import {
  MAX_EXTENSION_IDS,
  RECEIPT_FORMAT,
  mergeRegistrations,
  type Receipt,
  type Registration,
} from './receipt';

/**
 * What an install will write, computed before anything is touched: if any part cannot be made
 * (a path a .cmd launcher cannot carry, a Firefox profile folder, a relative path), nothing is
 * written. Pure: the same request gives the same plan on any machine.
 */

export interface InstallRequest {
  readonly platform: InstallPlatform;
  /** The user's home folder (os.homedir()). */
  readonly homedir: string;
  /** Switchyard's home folder. */
  readonly home: string;
  readonly xdgConfigHome?: string | undefined;
  readonly browsers: readonly Browser[];
  readonly userDataDir: string | null;
  /** The Chromium extension ids to allow: this build's, exactly. */
  readonly extensionIds: readonly string[];
  /** Absolute node binary the launcher runs (process.execPath). */
  readonly node: string;
  readonly version: string;
  readonly loginPath: RecordedPath | null;
}

export interface PlannedManifest {
  readonly browser: Browser;
  readonly manifest: HostManifest;
  readonly text: string;
  readonly registration: Registration;
}

export interface InstallPlan {
  readonly paths: InstallPaths;
  readonly launcherText: string;
  readonly manifests: readonly PlannedManifest[];
  /** The receipt after this install, merged with the previous one's other registrations. */
  readonly receipt: Receipt;
}

export type PlanResult =
  | { readonly ok: true; readonly plan: InstallPlan }
  | { readonly ok: false; readonly message: string };

export function planInstall(request: InstallRequest, previous: Receipt | null): PlanResult {
  const { platform, home } = request;
  if (!isFullyAbsolute(home, platform)) {
    return { ok: false, message: `the Switchyard home folder must be absolute, got ${home}` };
  }
  if (!isFullyAbsolute(request.node, platform)) {
    return { ok: false, message: `the node path must be absolute, got ${request.node}` };
  }
  if (request.browsers.length === 0) {
    return { ok: false, message: 'no browser to install for' };
  }
  if (request.userDataDir !== null && request.browsers.length !== 1) {
    return {
      ok: false,
      message:
        '--user-data-dir belongs to one browser: name it with exactly one --browser (for example --browser chromium).',
    };
  }
  const badId = request.extensionIds.find((id) => !EXTENSION_ID.test(id));
  if (badId !== undefined) {
    return {
      ok: false,
      message: `${JSON.stringify(badId)} is not a Chromium extension id (32 letters a-p, as chrome://extensions shows it).`,
    };
  }
  if (request.extensionIds.length === 0) {
    return { ok: false, message: 'at least one extension id is needed' };
  }
  // The receipt holds at most this many per manifest: more would write one that the host and
  // uninstall then refuse to read.
  const uniqueIds = new Set(request.extensionIds).size;
  if (uniqueIds > MAX_EXTENSION_IDS) {
    return {
      ok: false,
      message: `at most ${String(MAX_EXTENSION_IDS)} extension ids can be allowed, the development id included; got ${String(uniqueIds)}.`,
    };
  }
  const paths = installPaths(home, platform);
  const launcher = launcherText(platform, {
    node: request.node,
    bundle: paths.bundle,
    home,
    version: request.version,
  });
  if (!launcher.ok) return { ok: false, message: launcher.message };

  const manifests: PlannedManifest[] = [];
  for (const browser of [...new Set(request.browsers)]) {
    const located = manifestLocation({
      platform,
      browser,
      homedir: request.homedir,
      home,
      xdgConfigHome: request.xdgConfigHome,
      userDataDir: request.userDataDir,
    });
    if (!located.ok) return { ok: false, message: located.message };
    const chromium = BROWSER_INFO[browser].family === 'chromium';
    const ids = chromium ? [...new Set(request.extensionIds)] : [];
    const manifest = hostManifest(browser, paths.launcher, ids);
    manifests.push({
      browser,
      manifest,
      text: manifestText(manifest),
      registration: {
        browser,
        manifest: located.location.manifest,
        registryKey: located.location.registryKey,
        userDataDir: request.userDataDir,
        extensionIds: ids,
      },
    });
  }

  const receipt: Receipt = {
    receipt: RECEIPT_FORMAT,
    version: request.version,
    platform,
    node: request.node,
    launcher: paths.launcher,
    bundle: paths.bundle,
    loginPath: request.loginPath,
    registrations: mergeRegistrations(
      previous?.registrations ?? [],
      manifests.map((m) => m.registration),
    ),
  };
  return { ok: true, plan: { paths, launcherText: launcher.text, manifests, receipt } };
}

/** The folders an install writes into, for the safety checks: home, host dir, manifest dirs. */
export function targetDirectories(plan: InstallPlan, platform: InstallPlatform): string[] {
  const p = pathFor(platform);
  const dirs = [
    p.dirname(plan.paths.receipt),
    plan.paths.hostDir,
    ...plan.manifests.map((m) => p.dirname(m.registration.manifest)),
  ];
  return [...new Set(dirs)];
}
