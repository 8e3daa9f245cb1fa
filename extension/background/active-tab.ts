import { browser } from 'wxt/browser';

/**
 * Reports the URL of the active tab of the focused window whenever it may have changed: another
 * tab activated, the active tab navigated, another window focused. Null when there is no such
 * tab or it has no URL yet. Listeners are registered at once (worker start-up), as MV3 requires.
 */
export function watchActiveTab(listener: (url: string | null) => void): void {
  const report = async (): Promise<void> => {
    const [tab] = await browser.tabs.query({ active: true, lastFocusedWindow: true });
    listener(tab?.url ?? tab?.pendingUrl ?? null);
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
