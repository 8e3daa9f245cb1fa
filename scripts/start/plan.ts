import { pathToFileURL } from 'node:url';
import { DEV_EXTENSION_ID } from '../../protocol/identity';
import { installPlatform } from '../../installers/browsers';
import type { StartOptions } from './args';
import { BROWSER_KIND_INFO, findBrowser, type FoundBrowser } from './browsers';
import type { StartLayout } from './demo';
import { hasDisplay } from './display';
import { browserArgs, type BrowserLaunch } from './launch';

/**
 * What `npm start` will do on this machine, decided before anything runs (so `--dry-run` can
 * print it and tests can check it): open a browser, or run the headless self-check, and why.
 */

export type HeadlessReason = 'flag' | 'no-display' | 'no-browser' | 'unsupported-os';

export type StartPlan =
  | {
      readonly kind: 'headless';
      readonly reason: HeadlessReason;
      /** For `no-browser`: every path looked at. */
      readonly searched: readonly string[];
    }
  | { readonly kind: 'bad-browser'; readonly problem: string }
  | {
      readonly kind: 'browser';
      readonly browser: FoundBrowser;
      /** `switchyard install` arguments, run with SWITCHYARD_HOME set to the demo home. */
      readonly installArgs: readonly string[];
      /**
       * Windows: browsers read the host from the registry for every profile of a browser, so the
       * install cannot be limited to the dedicated profile (the installer refuses
       * --user-data-dir there); start.ts says so.
       */
      readonly installsForAllProfiles: boolean;
      readonly launch: BrowserLaunch;
      readonly args: readonly string[];
    };

export interface StartPlanInput {
  readonly options: StartOptions;
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homedir: string;
  /** process.getuid(), or null where there is none (Windows). */
  readonly uid: number | null;
  readonly layout: StartLayout;
}

/** The options page of the development build: where the user picks a model provider first. */
export const OPTIONS_URL = `chrome-extension://${DEV_EXTENSION_ID}/options.html`;

export function planStart(
  input: StartPlanInput,
  isExecutable: (file: string) => boolean,
): StartPlan {
  const headless = (reason: HeadlessReason, searched: readonly string[] = []): StartPlan => ({
    kind: 'headless',
    reason,
    searched,
  });
  if (input.options.headless) return headless('flag');
  const platform = installPlatform(input.platform);
  if (platform === null) return headless('unsupported-os');
  if (!hasDisplay(input.platform, input.env)) return headless('no-display');

  const search = findBrowser({ platform, env: input.env, homedir: input.homedir }, isExecutable);
  switch (search.kind) {
    case 'bad-override':
      return { kind: 'bad-browser', problem: search.problem };
    case 'none':
      return headless('no-browser', search.searched);
    case 'found':
      break;
  }
  const { browser } = search;
  const info = BROWSER_KIND_INFO[browser.kind];
  const { layout } = input;
  const windows = platform === 'win32';
  const welcome = pathToFileURL(layout.welcomeFile, { windows }).href;
  const launch: BrowserLaunch = {
    kind: browser.kind,
    userDataDir: layout.userDataDir,
    extensionDir: layout.extensionDir,
    // With the extension loaded: its options page in front (a model provider comes first), the
    // demo folder's welcome page behind it (the Demo profile's page). Branded Chrome: only the
    // welcome page; chrome://extensions cannot be opened from the command line (Chromium keeps
    // web-safe schemes, file: and about:blank of the URLs it is given, and drops chrome://).
    startUrls: info.loadsExtensionFlag ? [OPTIONS_URL, welcome] : [welcome],
    noSandbox: platform === 'linux' && input.uid === 0,
  };
  return {
    kind: 'browser',
    browser,
    installArgs: [
      'install',
      '--browser',
      info.installAs,
      ...(windows ? [] : ['--user-data-dir', layout.userDataDir]),
      '--json',
    ],
    installsForAllProfiles: windows,
    launch,
    args: browserArgs(launch),
  };
}
