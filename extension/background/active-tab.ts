import { browser } from 'wxt/browser';

/** What `tabAddress` reads of a tab (a subset of `tabs.Tab`). */
export interface TabFacts {
  readonly url?: string;
  readonly pendingUrl?: string;
  readonly openerTabId?: number;
}

/**
 * Documents a page writes into a tab it opened: `window.open()` then `document.write()` gives the
 * opener's content under `about:blank`, with the opener's origin. They are the opener's page.
 */
const OPENED_BLANK = /^about:(blank|srcdoc)(?:[?#]|$)/;

/**
 * A tab whose address cannot be told: a blank document opened by a tab that is gone (a page can
 * close itself) or by too long a chain of blank ones. Its profile is unknown, never the default.
 */
export const UNKNOWN_ADDRESS: unique symbol = Symbol('unknown tab address');

/** What the tracker is told of the active tab: an address, none (no tab), or UNKNOWN_ADDRESS. */
export type TabAddress = string | null | typeof UNKNOWN_ADDRESS;

/** Blank windows opened by blank windows, followed back to the page that began them. */
const MAX_OPENER_STEPS = 8;

/**
 * The address that selects a tab's profile: its URL, or, for a blank document another tab opened
 * (and may have written), the address of the page that began the chain of openers, so a page
 * cannot leave its profile by writing into a window it opened (or one that window opened). A
 * blank tab nobody opened has its own address (the default profile); one whose chain cannot be
 * followed is UNKNOWN_ADDRESS.
 */
export async function tabAddress(
  tab: TabFacts | undefined,
  openerOf: (tabId: number) => Promise<TabFacts | undefined>,
): Promise<TabAddress> {
  let current = tab;
  let address = urlOf(tab);
  for (let step = 0; address !== null && OPENED_BLANK.test(address); step += 1) {
    const openerId = current?.openerTabId;
    if (openerId === undefined) return step === 0 ? address : UNKNOWN_ADDRESS;
    if (step === MAX_OPENER_STEPS) return UNKNOWN_ADDRESS;
    current = await openerOf(openerId).catch(() => undefined);
    address = urlOf(current);
    if (address === null) return UNKNOWN_ADDRESS;
  }
  return address;
}

/** The URL a tab shows, or is loading; null for none yet. */
function urlOf(tab: TabFacts | undefined): string | null {
  return tab?.url ?? tab?.pendingUrl ?? null;
}

/**
 * Reports the address of the active tab of the focused window whenever it may have changed:
 * another tab activated, the active tab navigated, another window focused (tabAddress). Null
 * when there is no such tab or it has no URL yet. Listeners are registered at once (worker
 * start-up), as MV3 requires.
 */
export function watchActiveTab(listener: (address: TabAddress) => void): void {
  // Each report awaits the browser; one that ends after a newer one began is dropped.
  let reports = 0;
  const report = async (): Promise<void> => {
    const mine = ++reports;
    const [tab] = await browser.tabs.query({ active: true, lastFocusedWindow: true });
    const address = await tabAddress(tab, (tabId) => browser.tabs.get(tabId));
    if (mine === reports) listener(address);
  };
  const reportSoon = (): void => {
    report().catch((error: unknown) => {
      console.warn('[switchyard] could not read the active tab', error);
    });
  };
  browser.tabs.onActivated.addListener(reportSoon);
  browser.tabs.onUpdated.addListener((_tabId, change, tab) => {
    if (tab.active && change.url !== undefined) reportSoon();
  });
  browser.windows.onFocusChanged.addListener((windowId) => {
    if (windowId !== browser.windows.WINDOW_ID_NONE) reportSoon();
  });
  reportSoon();
}
