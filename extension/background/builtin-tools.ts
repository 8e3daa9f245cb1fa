import { browser, type Browser } from 'wxt/browser';
import { z } from 'zod';
import { BUILTIN_TOOL_NAMES, type BuiltinToolName } from '../../protocol/builtin-tools';
import type { ToolOutcome } from '../messaging/agent-events';
import { checkImages } from './image-content';
import type { ToolSpec } from './tool-outcome';
import { capText, sanitizePageText, wrapUntrusted, type RandomBytes } from './untrusted-text';
import { messageOf } from '../../protocol/guards';

/**
 * The extension's own browser tools (names reserved by the host, protocol/builtin-tools.ts), over
 * an injected TabsApi. Page text, titles and URLs are written by the page: untrusted, so they
 * reach the model sanitized and wrapped like MCP results (design D9), with a fresh id per call.
 */

export interface TabInfo {
  readonly id: number;
  readonly windowId: number;
  readonly title: string;
  readonly url: string;
  readonly active: boolean;
}

export interface TabsApi {
  /** The active tab of the last focused window. */
  activeTab(): Promise<TabInfo | undefined>;
  getTab(tabId: number): Promise<TabInfo | undefined>;
  listTabs(): Promise<TabInfo[]>;
  /** The page's rendered text. Throws when the browser does not let the extension read it. */
  readPageText(tabId: number): Promise<string>;
  /** The page's selected text ('' when none). Throws like `readPageText`. */
  readSelection(tabId: number): Promise<string>;
  /**
   * A `data:` URL of what the window's active tab shows (`tabs.captureVisibleTab`). Throws like
   * `readPageText` when the extension may not capture it.
   */
  captureVisible(windowId: number): Promise<string>;
}

/** JPEG quality of screenshots: a full-HD capture stays well inside the per-image cap. */
export const SCREENSHOT_JPEG_QUALITY = 70;

const DATA_URL_PATTERN = /^data:([^;,]+);base64,(.*)$/s;

/** About 10k tokens of page text unless the model asks for more (design D11). */
export const DEFAULT_PAGE_CHARS = 40_000;
export const MAX_PAGE_CHARS = 200_000;

/** The active tab's selection as "Add context" reads it (issue 14), or why it cannot. */
export type ActiveSelection =
  | {
      readonly ok: true;
      /** Sanitized and capped like browser_get_selection's; '' when nothing is selected. */
      readonly text: string;
      readonly title: string;
      readonly url: string;
    }
  | { readonly ok: false; readonly problem: string };

/** Built-in tools that act on the active tab unless the call names one (`tabId`). */
const ACTIVE_TAB_TOOLS: ReadonlySet<BuiltinToolName> = new Set([
  'browser_read_page',
  'browser_get_selection',
  'browser_get_tab',
  'browser_screenshot',
]);

/** Whether this call acts on whichever tab is active (so an approval must be for that tab). */
export function actsOnActiveTab(
  name: BuiltinToolName,
  args: Readonly<Record<string, unknown>>,
): boolean {
  return ACTIVE_TAB_TOOLS.has(name) && args['tabId'] === undefined;
}

/** What the model is told when the user switched tabs while the card was open. */
export const ACTIVE_TAB_MOVED =
  'The active tab changed while the approval card was open, so nothing was read: the approval was for the tab in front of the user when it appeared. Call the tool again if it is still wanted.';

export interface BuiltinTools {
  readonly specs: readonly ToolSpec[];
  has(name: string): name is BuiltinToolName;
  /** Runs a tool; never throws (a failure is an `error` outcome that says what to do). */
  run(name: BuiltinToolName, args: Readonly<Record<string, unknown>>): Promise<ToolOutcome>;
  /**
   * The active tab's selection, for the composer's "Add context" (the user's own act, so no
   * card): the same read as browser_get_selection (scripting, under activeTab or the site's
   * permission), not yet wrapped (the worker wraps it when the message is sent).
   */
  activeSelection(): Promise<ActiveSelection>;
  /** The active tab's id, undefined when there is none (or it cannot be told). */
  activeTabId(): Promise<number | undefined>;
}

interface Definition {
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  run(args: unknown): Promise<ToolOutcome>;
}

const TAB_ID_SCHEMA = {
  type: 'integer',
  minimum: 0,
  description: 'The tab to use (from browser_list_tabs). Omit for the active tab.',
};
const TabArgsSchema = z.object({ tabId: z.number().int().nonnegative().optional() });
const ReadPageArgsSchema = TabArgsSchema.extend({
  maxChars: z.number().int().min(1).max(MAX_PAGE_CHARS).optional(),
});
const NoArgsSchema = z.object({});

function define<S extends z.ZodType>(
  description: string,
  inputSchema: Readonly<Record<string, unknown>>,
  args: S,
  run: (args: z.infer<S>) => Promise<ToolOutcome>,
): Definition {
  return {
    description,
    inputSchema,
    run: async (raw) => {
      const parsed = args.safeParse(raw);
      if (!parsed.success) {
        return { status: 'error', content: `Invalid arguments: ${z.prettifyError(parsed.error)}` };
      }
      return run(parsed.data);
    },
  };
}

function error(content: string): ToolOutcome {
  return { status: 'error', content };
}

/** One line per tab: page-written titles must not start lines of their own. */
function tabLine(tab: TabInfo): string {
  const title = sanitizePageText(tab.title).replace(/\s+/g, ' ').trim();
  const url = sanitizePageText(tab.url).replace(/\s+/g, '');
  return `tab ${tab.id} (window ${tab.windowId}${tab.active ? ', active' : ''}): ${title} <${url}>`;
}

/**
 * How the user grants access to a tab (activeTab): any of the ways they invoke the extension on
 * it grants it until the tab navigates elsewhere — the toolbar button (then "Open chat"), the
 * open-chat shortcut, or "Open Switchyard chat" in the page's right-click menu. Opening the side
 * panel by one of them grants it for the tab it was opened over; a tab switched to later, or the
 * page after a navigation, needs one of them again (or the site's permission from the panel).
 */
export const GRANT_ACCESS_STEPS =
  'click the Switchyard toolbar button on that tab (or press the open-chat shortcut, or right-click the page and choose "Open Switchyard chat"), or use "Allow reading" for the site in the side panel';

function unreadableText(tab: TabInfo, cause: unknown): string {
  const why = messageOf(cause);
  return `Switchyard cannot read tab ${tab.id} (${why}). Browser pages (chrome://, about:, the extension store) are off limits; for a web page, the user can ${GRANT_ACCESS_STEPS} to grant access, then ask again.`;
}

function unreadable(tab: TabInfo, cause: unknown): ToolOutcome {
  return error(unreadableText(tab, cause));
}

export function createBuiltinTools(
  tabs: TabsApi = browserTabsApi(),
  options: { readonly random?: RandomBytes } = {},
): BuiltinTools {
  const wrap = (payload: string, tool: string): string =>
    wrapUntrusted(payload, { server: 'browser', tool }, options.random);

  const resolveTab = async (tabId: number | undefined): Promise<TabInfo | ToolOutcome> => {
    const tab = tabId === undefined ? await tabs.activeTab() : await tabs.getTab(tabId);
    if (tab !== undefined) return tab;
    return error(
      tabId === undefined
        ? 'There is no active tab.'
        : `There is no tab ${tabId}; call browser_list_tabs for the open tabs.`,
    );
  };
  const isTab = (value: TabInfo | ToolOutcome): value is TabInfo => 'id' in value;

  const table: { readonly [N in BuiltinToolName]: Definition } = {
    browser_read_page: define(
      "Read the text of a browser tab's page (the active tab unless tabId is given), with its title and URL.",
      {
        type: 'object',
        properties: {
          tabId: TAB_ID_SCHEMA,
          maxChars: {
            type: 'integer',
            minimum: 1,
            maximum: MAX_PAGE_CHARS,
            description: `Most characters of page text to return (default ${DEFAULT_PAGE_CHARS}).`,
          },
        },
      },
      ReadPageArgsSchema,
      async ({ tabId, maxChars }) => {
        const tab = await resolveTab(tabId);
        if (!isTab(tab)) return tab;
        let text: string;
        try {
          text = await tabs.readPageText(tab.id);
        } catch (cause) {
          return unreadable(tab, cause);
        }
        const body = capText(sanitizePageText(text), maxChars ?? DEFAULT_PAGE_CHARS);
        return { status: 'ok', content: wrap(`${tabLine(tab)}\n\n${body}`, 'read_page') };
      },
    ),
    browser_get_selection: define(
      'Get the text the user has selected in a browser tab (the active tab unless tabId is given).',
      { type: 'object', properties: { tabId: TAB_ID_SCHEMA } },
      TabArgsSchema,
      async ({ tabId }) => {
        const tab = await resolveTab(tabId);
        if (!isTab(tab)) return tab;
        let selection: string;
        try {
          selection = await tabs.readSelection(tab.id);
        } catch (cause) {
          return unreadable(tab, cause);
        }
        if (selection.trim() === '') {
          return { status: 'ok', content: `Nothing is selected in tab ${tab.id}.` };
        }
        const text = capText(sanitizePageText(selection), DEFAULT_PAGE_CHARS);
        return { status: 'ok', content: wrap(text, 'get_selection') };
      },
    ),
    browser_get_tab: define(
      'Get the title and URL of a browser tab (the active tab unless tabId is given).',
      { type: 'object', properties: { tabId: TAB_ID_SCHEMA } },
      TabArgsSchema,
      async ({ tabId }) => {
        const tab = await resolveTab(tabId);
        if (!isTab(tab)) return tab;
        return { status: 'ok', content: wrap(tabLine(tab), 'get_tab') };
      },
    ),
    browser_list_tabs: define(
      'List the open browser tabs with their ids, titles and URLs.',
      { type: 'object', properties: {} },
      NoArgsSchema,
      async () => {
        const all = await tabs.listTabs();
        if (all.length === 0) return { status: 'ok', content: 'No tabs are open.' };
        return { status: 'ok', content: wrap(all.map(tabLine).join('\n'), 'list_tabs') };
      },
    ),
    browser_screenshot: define(
      'Take a screenshot of what the active browser tab shows (the visible part of the page), as an image.',
      { type: 'object', properties: {} },
      NoArgsSchema,
      async () => {
        const tab = await resolveTab(undefined);
        if (!isTab(tab)) return tab;
        let url: string;
        try {
          url = await tabs.captureVisible(tab.windowId);
        } catch (cause) {
          return unreadable(tab, cause);
        }
        const match = DATA_URL_PATTERN.exec(url);
        const checked = checkImages(
          match === null
            ? []
            : [
                {
                  mimeType: match[1] ?? '',
                  data: match[2] ?? '',
                  label: `screenshot of tab ${tab.id}`,
                },
              ],
        );
        const image = checked.images[0];
        if (image === undefined) {
          return error(
            `The screenshot of tab ${tab.id} could not be used: ${checked.lines[0] ?? 'the browser returned no image'}.`,
          );
        }
        // The pixels are the page's own: untrusted like its text (a page can draw instructions).
        return {
          status: 'ok',
          content: wrap(`Screenshot of ${tabLine(tab)}\n${checked.lines[0] ?? ''}`, 'screenshot'),
          images: [image],
        };
      },
    ),
  };

  const has = (name: string): name is BuiltinToolName => Object.hasOwn(table, name);
  const activeSelection = async (): Promise<ActiveSelection> => {
    const tab = await resolveTab(undefined);
    if (!isTab(tab)) return { ok: false, problem: tab.content };
    try {
      const selection = await tabs.readSelection(tab.id);
      return {
        ok: true,
        text: capText(sanitizePageText(selection), DEFAULT_PAGE_CHARS),
        title: tab.title,
        url: tab.url,
      };
    } catch (cause) {
      return {
        ok: false,
        problem: `Cannot read the selection: the page does not let Switchyard in yet. To allow it, ${GRANT_ACCESS_STEPS}. (${messageOf(cause)})`,
      };
    }
  };
  return {
    activeSelection,
    activeTabId: async () => {
      try {
        return (await tabs.activeTab())?.id;
      } catch {
        return undefined;
      }
    },
    specs: BUILTIN_TOOL_NAMES.map((name) => ({
      name,
      description: table[name].description,
      inputSchema: table[name].inputSchema,
      source: { kind: 'builtin' },
    })),
    has,
    run: async (name, args) => {
      try {
        return await table[name].run(args);
      } catch (cause) {
        return error(`${name} failed: ${messageOf(cause)}`);
      }
    },
  };
}

function toTabInfo(tab: Browser.tabs.Tab): TabInfo | undefined {
  if (tab.id === undefined) return undefined;
  return {
    id: tab.id,
    windowId: tab.windowId,
    title: tab.title ?? '',
    url: tab.url ?? tab.pendingUrl ?? '',
    active: tab.active,
  };
}

const InjectedTextSchema = z.array(z.object({ result: z.string().nullish() }));

/** The production TabsApi over `browser.tabs` and `browser.scripting` (call it at runtime only). */
export function browserTabsApi(): TabsApi {
  const inject = async (tabId: number, func: () => string): Promise<string> => {
    const results = await browser.scripting.executeScript({ target: { tabId }, func });
    return InjectedTextSchema.parse(results)[0]?.result ?? '';
  };
  return {
    activeTab: async () => {
      const [tab] = await browser.tabs.query({ active: true, lastFocusedWindow: true });
      return tab === undefined ? undefined : toTabInfo(tab);
    },
    getTab: async (tabId) => {
      try {
        return toTabInfo(await browser.tabs.get(tabId));
      } catch {
        return undefined; // "No tab with id"
      }
    },
    listTabs: async () => (await browser.tabs.query({})).flatMap((tab) => toTabInfo(tab) ?? []),
    // These functions run in the page's isolated world: self-contained, no closures.
    readPageText: (tabId) =>
      inject(tabId, () => {
        // No <body> in an XML document or an image: fall back to the document's text.
        const body = document.querySelector('body');
        return body?.innerText ?? document.documentElement.textContent;
      }),
    readSelection: (tabId) => inject(tabId, () => window.getSelection()?.toString() ?? ''),
    captureVisible: (windowId) =>
      browser.tabs.captureVisibleTab(windowId, {
        format: 'jpeg',
        quality: SCREENSHOT_JPEG_QUALITY,
      }),
  };
}
