import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, vi } from 'vitest';
import type { Browser } from 'wxt/browser';
import { z } from 'zod';
import {
  UI_PORT_NAME,
  type PageMethod,
  type PageParamsOf,
} from '../../../extension/messaging/ui-protocol';
import { ROOT } from '../../integration/host-harness';
import type { SwitchyardBrowser } from './chromium';
import type { ModelApi, ScriptedModel } from './scripted-model';

/**
 * Helpers for the journeys through the extension's pages (side panel, popup, options): open a
 * page, wait for text, click by accessible role and name, take a screenshot for the docs, and
 * talk to the worker over the same UI port the pages use (ui-protocol.ts).
 */

declare const chrome: typeof Browser;

/** A side panel's usual size (Chromium's default width is about 400 px). */
export const SIDE_PANEL_VIEWPORT = { width: 420, height: 860 } as const;
/** popup.css sets the body 400 px wide; Chromium caps a popup at 600 px high. */
export const POPUP_VIEWPORT = { width: 400, height: 600 } as const;

/**
 * `UPDATE_SCREENSHOTS=1` writes into docs/screenshots/; otherwise into `SCREENSHOT_DIR` when set
 * (to look at one branch's pages apart from other runs), else into a temp folder.
 */
export const SCREENSHOT_DIR =
  process.env['UPDATE_SCREENSHOTS'] === '1'
    ? join(ROOT, 'docs/screenshots')
    : (process.env['SCREENSHOT_DIR'] ?? join(tmpdir(), 'switchyard-e2e-screenshots'));

export interface OpenSidePanelOptions {
  /**
   * A web page to keep as the active tab: the side panel then opens in its own unfocused popup
   * window, so the tab the agent reads (built-in tools, the active profile) is `beside`, as with
   * the real side panel. Without it the panel opens as a tab, which becomes the active tab.
   */
  readonly beside?: Page;
}

/**
 * Opens sidepanel.html sized like a side panel. (The real side panel opens only from a user
 * gesture, `sidePanel.open`; the page is the same.)
 */
export async function openSidePanel(
  browser: SwitchyardBrowser,
  options: OpenSidePanelOptions = {},
): Promise<Page> {
  let page: Page;
  if (options.beside === undefined) {
    page = await browser.openExtensionPage('sidepanel.html');
  } else {
    const opened = browser.context.waitForEvent('page', (p) => p.url().endsWith('/sidepanel.html'));
    await browser.worker.evaluate(
      async (size) => {
        await chrome.windows.create({
          url: chrome.runtime.getURL('/sidepanel.html'),
          type: 'popup',
          focused: false,
          ...size,
        });
      },
      { width: SIDE_PANEL_VIEWPORT.width, height: SIDE_PANEL_VIEWPORT.height },
    );
    page = await opened;
    await page.waitForLoadState();
  }
  await page.setViewportSize(SIDE_PANEL_VIEWPORT);
  return page;
}

export async function openPopup(browser: SwitchyardBrowser): Promise<Page> {
  const page = await browser.openExtensionPage('popup.html');
  await page.setViewportSize(POPUP_VIEWPORT);
  return page;
}

export function openOptions(browser: SwitchyardBrowser): Promise<Page> {
  return browser.openExtensionPage('options.html');
}

/** Waits until `text` (a substring, or a RegExp) is visible on the page. */
export async function waitForText(page: Page, text: string | RegExp): Promise<void> {
  await page.getByText(text).first().waitFor({ state: 'visible' });
}

/** Clicks the button whose accessible name is `name` (waits for it to be visible and enabled). */
export async function clickButton(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('button', { name }).click();
}

/** Saves a PNG of the page as `<SCREENSHOT_DIR>/<name>.png`; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`screenshot name '${name}': use kebab-case`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  // Animations and the caret would make two runs differ; docs screenshots should be stable. So
  // would an approval card caught in the moment it holds its answers (ANSWER_DELAY_MS).
  await page.waitForFunction(
    () => document.querySelector('.sy-approval [aria-disabled="true"]') === null,
  );
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
  return path;
}

/** Chromium's narrowest side panel; the pages lay out from here up (issue 14). */
export const NARROWEST_PANEL_WIDTH = 320;

/** How the page fits its width: what scrolls sideways, and which buttons stick out. */
export interface WidthFit {
  readonly width: number;
  /** The page scrolls sideways (its content is wider than the window). */
  readonly overflows: boolean;
  /** Buttons (by accessible name) not wholly inside the window, outside a sideways scroller. */
  readonly buttonsOut: readonly string[];
}

export function widthFit(page: Page): Promise<WidthFit> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    // A table or code block that scrolls inside itself may hold buttons beyond the window.
    const inScroller = (element: Element): boolean => {
      for (let at = element.parentElement; at !== null; at = at.parentElement) {
        const overflowX = getComputedStyle(at).overflowX;
        if ((overflowX === 'auto' || overflowX === 'scroll') && at.scrollWidth > at.clientWidth) {
          return true;
        }
      }
      return false;
    };
    const buttonsOut = [...document.querySelectorAll('button')]
      .filter((button) => {
        const box = button.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) return false;
        return (box.left < -0.5 || box.right > width + 0.5) && !inScroller(button);
      })
      .map((button) => button.getAttribute('aria-label') ?? button.textContent.trim());
    return {
      width,
      overflows: document.documentElement.scrollWidth > width,
      buttonsOut,
    };
  });
}

/** Asserts that nothing on the page scrolls sideways or sticks out of it at its width. */
export async function expectFitsWidth(page: Page, where: string): Promise<void> {
  const fit = await widthFit(page);
  expect(fit, `${where} at ${fit.width} px`).toEqual({
    width: fit.width,
    overflows: false,
    buttonsOut: [],
  });
}

/**
 * The docs' four screenshots of a side panel page: `<name>`, `<name>-dark`, `<name>-narrow` and
 * `<name>-narrow-dark` (default width and 360 px, light and dark). At each width, and at the
 * narrowest panel too, the page must fit: nothing scrolls sideways, every button is in view.
 * Leaves the page at the default size in light mode.
 */
export async function screenshotSidePanelModes(page: Page, name: string): Promise<void> {
  for (const [width, suffix] of [
    [SIDE_PANEL_VIEWPORT.width, ''],
    [360, '-narrow'],
    [NARROWEST_PANEL_WIDTH, null],
  ] as const) {
    await page.setViewportSize({ width, height: SIDE_PANEL_VIEWPORT.height });
    await expectFitsWidth(page, name);
    if (suffix === null) continue;
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await screenshot(page, `${name}${suffix}${scheme === 'dark' ? '-dark' : ''}`);
    }
  }
  await page.setViewportSize(SIDE_PANEL_VIEWPORT);
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * The docs' four screenshots of an options page section: `<name>`, `<name>-dark`,
 * `<name>-narrow` and `<name>-narrow-dark` (1280 and 360 px, light and dark), each with the
 * section's heading scrolled to the top; the page must fit each width. Leaves it at 1280 px,
 * light.
 */
export async function screenshotOptionsModes(
  page: Page,
  name: string,
  heading: string,
): Promise<void> {
  for (const [width, suffix] of [
    [1280, ''],
    [360, '-narrow'],
  ] as const) {
    await page.setViewportSize({ width, height: width === 360 ? 760 : 720 });
    await expectFitsWidth(page, name);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.getByRole('heading', { name: heading, exact: true }).evaluate((node) => {
        node.scrollIntoView({ block: 'start' });
      });
      await screenshot(page, `${name}${suffix}${scheme === 'dark' ? '-dark' : ''}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** What `requestInPage` resolves with: the worker's response, flattened. */
export interface PortReply {
  readonly ok: boolean;
  readonly result?: unknown;
  readonly error?: string;
}

/**
 * Runs inside an extension page (Chromium or Firefox, passed to the driver's `evaluate`, so it
 * must not reach for anything outside itself): connects the UI port, sends one request, resolves
 * with the worker's response to it.
 */
export function requestInPage({
  portName,
  request,
}: {
  portName: string;
  request: { kind: 'request'; id: number; method: string; params: unknown };
}): Promise<PortReply> {
  return new Promise<PortReply>((resolve) => {
    const port = chrome.runtime.connect({ name: portName });
    port.onMessage.addListener((message: unknown) => {
      if (
        typeof message !== 'object' ||
        message === null ||
        !('kind' in message) ||
        message.kind !== 'response' ||
        !('id' in message) ||
        message.id !== request.id
      ) {
        return;
      }
      port.disconnect();
      resolve({
        ok: 'ok' in message && message.ok === true,
        result: 'result' in message ? message.result : undefined,
        error: 'error' in message ? String(message.error) : undefined,
      });
    });
    port.onDisconnect.addListener(() => {
      resolve({ ok: false, error: 'the worker closed the UI port' });
    });
    port.postMessage(request);
  });
}

/** The argument of `requestInPage` for one UI request. */
export function portRequest<M extends PageMethod>(
  method: M,
  params: PageParamsOf<M>,
): Parameters<typeof requestInPage>[0] {
  return { portName: UI_PORT_NAME, request: { kind: 'request', id: 1, method, params } };
}

/**
 * Sends one request over the UI port from an extension page (`page` must be one: the worker
 * accepts the port from its own pages only) and returns the worker's result; a refused request
 * throws with the worker's sentence. The result is as the worker sent it: parse or match it.
 */
export async function uiRequest<M extends PageMethod>(
  page: Page,
  method: M,
  params: PageParamsOf<M>,
): Promise<unknown> {
  const reply = await page.evaluate(requestInPage, portRequest(method, params));
  if (!reply.ok) throw new Error(`${method}: ${reply.error ?? 'refused'}`);
  return reply.result;
}

/** Points the extension's agent at a scripted model (`settings/set` over the UI port). */
export async function useScriptedModel(
  page: Page,
  model: ScriptedModel,
  api: ModelApi = 'openai',
): Promise<void> {
  await uiRequest(page, 'settings/set', { provider: model.settings(api) });
}

export const ToolListSchema = z.object({ tools: z.array(z.object({ name: z.string() })) });

/**
 * Waits until the host lists every tool in `names` (exposed names, e.g.
 * `filesystem__read_text_file`): the servers start with the host, and a chat sent before their
 * tools are listed offers the model none of them.
 */
export async function waitForTools(page: Page, names: readonly string[]): Promise<void> {
  await vi.waitFor(
    async () => {
      const listed = ToolListSchema.parse(
        await uiRequest(page, 'host/request', { method: 'tools/list', params: {} }),
      ).tools.map((tool) => tool.name);
      expect(listed).toEqual(expect.arrayContaining([...names]));
    },
    { timeout: 30_000, interval: 100 },
  );
}
