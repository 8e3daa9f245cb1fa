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
 * The address that selects a tab's profile: its URL, or, for a blank document another tab opened
 * (and may have written), the opener's, so a page cannot leave its profile by writing into a
 * window it opened. A blank tab whose opener is gone has its own address (the default profile).
 */
export async function tabAddress(
  tab: TabFacts | undefined,
  openerOf: (tabId: number) => Promise<TabFacts | undefined>,
): Promise<string | null> {
  const url = tab?.url ?? tab?.pendingUrl ?? null;
  if (url === null || tab?.openerTabId === undefined || !OPENED_BLANK.test(url)) return url;
  const opener = await openerOf(tab.openerTabId).catch(() => undefined);
  return opener?.url ?? opener?.pendingUrl ?? url;
}

/**
 * Reports the address of the active tab of the focused window whenever it may have changed:
 * another tab activated, the active tab navigated, another window focused (tabAddress). Null
 * when there is no such tab or it has no URL yet. Listeners are registered at once (worker
 * start-up), as MV3 requires.
 */
export function watchActiveTab(listener: (url: string | null) => void): void {
  const report = async (): Promise<void> => {
    const [tab] = await browser.tabs.query({ active: true, lastFocusedWindow: true });
    listener(await tabAddress(tab, (tabId) => browser.tabs.get(tabId)));
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
