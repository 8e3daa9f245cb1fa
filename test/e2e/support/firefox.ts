import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { GECKO_ID } from '../../../protocol/identity';
import type { PageMethod, PageParamsOf } from '../../../extension/messaging/ui-protocol';
import { ROOT } from '../../integration/host-harness';
import { browserProcesses, closeAndReap, waitUntil, type BrowserProcesses } from './chromium';
import type { SwitchyardProfile } from './profile';
import { portRequest, requestInPage } from './ui';

/**
 * Launches Debian's Firefox ESR headless with the built extension (dist/firefox-mv3) for a
 * profile, and gives the Firefox journey what it needs: extension pages to drive, the processes
 * Firefox started (hosts and their servers), and a close that fails when any outlives it.
 *
 * Playwright cannot drive stock Firefox (it needs its own patched build), so this goes through
 * puppeteer-core over WebDriver BiDi, Firefox's own remote agent: `browser.installExtension`
 * is BiDi's `webExtension.install`, which loads the folder as a temporary add-on, as "Load
 * Temporary Add-on" does. The add-on's moz-extension:// UUID is random per profile unless the
 * `extensions.webextensions.uuids` pref names it, so the test pins it.
 */

export const FIREFOX_EXTENSION_DIR = join(ROOT, 'dist/firefox-mv3');
/** Debian's Firefox ESR; another Firefox (140 or later) may be given. */
export const FIREFOX_PATH = process.env['SWITCHYARD_E2E_FIREFOX'] ?? '/usr/bin/firefox-esr';
/** The moz-extension:// host the profile's pref gives the add-on. */
export const FIREFOX_EXTENSION_UUID = '5a1e0c2b-7d3f-4e8a-9b6c-1f2d3e4a5b6c';

const HEADED = process.env['SWITCHYARD_E2E_HEADED'] === '1';

/** The command line Firefox gives a host: `<launcher> <manifest path> <add-on id>`. */
const HOST_COMMAND = new RegExp(`\\shost \\S+\\.json ${GECKO_ID.replace(/[.@]/g, '\\$&')}$`);

export interface SwitchyardFirefox {
  readonly browser: Browser;
  readonly profile: SwitchyardProfile;
  /** `moz-extension://<uuid>` */
  readonly origin: string;
  /** Opens `moz-extension://<uuid>/<path>` in a new tab and waits until it has loaded. */
  openExtensionPage(path: string): Promise<Page>;
  /** The processes this Firefox started, from `ps`. */
  processes(): BrowserProcesses;
  /** Closes Firefox, then waits for every process it started to exit (see chromium.ts). */
  close(): Promise<void>;
}

/** Whether a Firefox is there to run the journey (the spec skips, saying so, when not). */
export function firefoxAvailable(): boolean {
  return existsSync(FIREFOX_PATH);
}

function processesOf(profileDir: string): BrowserProcesses {
  // The parent process carries `--profile <dir>`; content processes are its children.
  return browserProcesses(
    (p) => p.args.includes(`--profile ${profileDir}`) && !p.args.includes('-contentproc'),
    HOST_COMMAND,
  );
}

/** A copy of the build in the profile's folder, so a rebuild during the run changes nothing. */
function snapshotExtension(root: string): string {
  const copy = join(root, 'firefox-extension');
  rmSync(copy, { recursive: true, force: true });
  if (existsSync(FIREFOX_EXTENSION_DIR)) cpSync(FIREFOX_EXTENSION_DIR, copy, { recursive: true });
  if (!existsSync(join(copy, 'manifest.json'))) {
    throw new Error(`${FIREFOX_EXTENSION_DIR} has no manifest.json: run \`npm run build:ext\`.`);
  }
  return copy;
}

/**
 * Navigates a tab to an extension page. Firefox's remote agent reports no navigation for a
 * moz-extension:// document (puppeteer's goto would wait for one until its timeout), so this
 * starts the navigation, watches the tab's own location and readiness, then lets goto go.
 */
async function gotoExtensionPage(page: Page, url: string): Promise<void> {
  const stop = new AbortController();
  const navigation = page.goto(url, { signal: stop.signal }).catch(() => undefined);
  const loaded = await waitUntil(async () => {
    try {
      return await page.evaluate(
        (expected) => location.href === expected && document.readyState === 'complete',
        url,
      );
    } catch {
      return false; // The old document went away mid-evaluate.
    }
  }, 20_000);
  stop.abort();
  await navigation;
  if (!loaded) throw new Error(`Firefox did not load ${url}`);
}

export async function launchFirefox(profile: SwitchyardProfile): Promise<SwitchyardFirefox> {
  if (!firefoxAvailable()) {
    throw new Error(
      `No Firefox at ${FIREFOX_PATH}: install it (Debian, Ubuntu: apt install firefox-esr) or ` +
        'set SWITCHYARD_E2E_FIREFOX to a Firefox 140 or later.',
    );
  }
  const extensionDir = snapshotExtension(profile.root);
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: !HEADED,
    userDataDir: profile.userDataDir,
    // Firefox 153 lets its remote agent navigate only to http(s), file, blob and about:blank
    // unless it may reach privileged pages, and the journey drives moz-extension:// pages.
    args: ['--remote-allow-system-access'],
    // The host inherits Firefox's environment: HOME (where Firefox finds the host manifest,
    // ~/.mozilla/native-messaging-hosts) and SWITCHYARD_HOME among it.
    env: profile.env,
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: FIREFOX_EXTENSION_UUID }),
    },
  });
  let installed: string;
  try {
    installed = await browser.installExtension(extensionDir);
  } catch (error) {
    await browser.close();
    throw new Error(`Firefox refused the add-on in ${FIREFOX_EXTENSION_DIR}`, { cause: error });
  }
  if (installed !== GECKO_ID) {
    await browser.close();
    throw new Error(`The add-on installed as ${installed}, not ${GECKO_ID}: check wxt.config.ts.`);
  }
  const origin = `moz-extension://${FIREFOX_EXTENSION_UUID}`;

  let closing: Promise<void> | undefined;
  return {
    browser,
    profile,
    origin,
    openExtensionPage: async (path) => {
      const page = await browser.newPage();
      await gotoExtensionPage(page, `${origin}/${path.replace(/^\//, '')}`);
      return page;
    },
    processes: () => processesOf(profile.userDataDir),
    close: () => {
      closing ??= (async () => {
        await closeAndReap(processesOf(profile.userDataDir), profile.root, 'Firefox', () =>
          browser.close(),
        );
      })();
      return closing;
    },
  };
}

/** `uiRequest` (ui.ts) for a Firefox extension page. */
export async function firefoxUiRequest<M extends PageMethod>(
  page: Page,
  method: M,
  params: PageParamsOf<M>,
): Promise<unknown> {
  const reply = await page.evaluate(requestInPage, portRequest(method, params));
  if (!reply.ok) throw new Error(`${method}: ${reply.error ?? 'refused'}`);
  return reply.result;
}

/**
 * A puppeteer selector for an element by ARIA role and accessible name. For `waitForSelector`
 * and element handles: puppeteer's locators wait for conditions Firefox's remote agent never
 * reports on a moz-extension:// page, and time out.
 */
export function byRole(role: string, name: string): string {
  return `::-p-aria([name=${JSON.stringify(name)}][role="${role}"])`;
}
