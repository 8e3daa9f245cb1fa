/**
 * Opening the chat from the popup (design.md section 5): the toolbar action opens the popup, so
 * the popup offers "Open chat". Chromium's `sidePanel.open` needs a user gesture, so it must be
 * called synchronously in the click handler (the window id is looked up before the click);
 * Firefox has `sidebarAction.open` instead. Neither API exists in every browser, so they are
 * looked up at run time rather than trusted from the (Chromium) type definitions.
 */

export type ChatOpener =
  | { readonly kind: 'side-panel'; open(windowId: number): Promise<void> }
  | { readonly kind: 'sidebar'; open(): Promise<void> }
  | { readonly kind: 'none' };

type Method = (...args: unknown[]) => unknown;

function member(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const found: unknown = Reflect.get(value, key);
  return found;
}

function isMethod(value: unknown): value is Method {
  return typeof value === 'function';
}

/** Makes the call now (inside the gesture) and settles what it returns or throws. */
async function settle(call: () => unknown): Promise<void> {
  await call();
}

/** Finds how this browser opens the chat; `api` is the extension API object (`browser`). */
export function findChatOpener(api: unknown): ChatOpener {
  const sidePanel = member(api, 'sidePanel');
  const openPanel = member(sidePanel, 'open');
  if (isMethod(openPanel)) {
    return {
      kind: 'side-panel',
      open: (windowId) => settle(() => openPanel.call(sidePanel, { windowId })),
    };
  }
  const sidebarAction = member(api, 'sidebarAction');
  const openSidebar = member(sidebarAction, 'open');
  if (isMethod(openSidebar)) {
    return { kind: 'sidebar', open: () => settle(() => openSidebar.call(sidebarAction)) };
  }
  return { kind: 'none' };
}
