import { browser, type Browser } from 'wxt/browser';

/**
 * Ways to open the chat besides the popup's "Open chat" button (design.md §5: the toolbar
 * button opens the popup, and a side panel opens only from a user gesture): a keyboard command
 * and a context-menu item. Both handlers run inside the gesture, so they open the panel at once.
 */

export const OPEN_CHAT_COMMAND = 'open-chat';
const MENU_ID = 'switchyard-open-chat';

/** Opens the chat next to `tab` (Chromium side panel, Firefox sidebar). */
export async function openChat(tab: Browser.tabs.Tab | undefined): Promise<void> {
  // Both APIs exist on one browser family only; the typings know neither is optional.
  const sidePanel = browser.sidePanel as Partial<typeof browser.sidePanel> | undefined;
  if (sidePanel?.open !== undefined) {
    if (tab?.windowId !== undefined) await sidePanel.open({ windowId: tab.windowId });
    return;
  }
  const sidebar = (browser as { sidebarAction?: { open(): Promise<void> } }).sidebarAction;
  await sidebar?.open();
}

export function installChatOpeners(): void {
  browser.runtime.onInstalled.addListener(() => {
    browser.contextMenus.create({
      id: MENU_ID,
      title: 'Open Switchyard chat',
      contexts: ['page', 'selection', 'action'],
    });
  });
  browser.contextMenus.onClicked.addListener((info, tab) => {
    if (info.menuItemId === MENU_ID) void openChat(tab).catch(reportOpenFailure);
  });
  browser.commands.onCommand.addListener((command, tab) => {
    if (command === OPEN_CHAT_COMMAND) void openChat(tab).catch(reportOpenFailure);
  });
}

function reportOpenFailure(error: unknown): void {
  console.warn('[switchyard] could not open the chat', error);
}
