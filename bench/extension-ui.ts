import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import type { Browser } from 'wxt/browser';
import { launchBrowser, type SwitchyardBrowser } from '../test/e2e/support/chromium';
import { createProfile } from '../test/e2e/support/profile';
import { measureShippedJs, type ShippedJs } from '../test/e2e/support/shipped-js';
import { openSidePanel } from '../test/e2e/support/ui';
import { summarize, type Summary } from './stats';

/**
 * The extension's side of the bench (issue 14): the JavaScript it ships, gzipped (what a store
 * download and a cold page load pay for), and the side panel's first paint in real Chromium with
 * no stored conversation and with 200, plus the time to show the history's first page.
 */

declare const chrome: typeof Browser;

export interface SidePanelPaint {
  readonly conversations: number;
  /** performance's first-contentful-paint of sidepanel.html, ms after navigation. */
  readonly firstPaintMs: Summary;
  /** History clicked to its first page listed (driven by Playwright: includes its round trips). */
  readonly historyListMs: Summary | null;
}

export interface ExtensionUiReport {
  readonly shippedJs: ShippedJs;
  readonly sidePanel: readonly SidePanelPaint[];
  readonly runs: number;
}

/** Stores `count` conversations of 12 messages each as the worker would (schema 2). */
async function seed(browser: SwitchyardBrowser, count: number): Promise<void> {
  await browser.worker.evaluate(async (n) => {
    const items: Record<string, unknown> = {};
    const entries = [];
    const base = Date.now() - n * 60_000;
    for (let i = 0; i < n; i += 1) {
      const id = `bench-${String(i).padStart(4, '0')}`;
      const messages = Array.from({ length: 12 }, (_, m) =>
        m % 2 === 0
          ? { role: 'user', content: `Question ${m} of conversation ${i}: ${'words '.repeat(40)}` }
          : { role: 'assistant', content: [{ type: 'text', text: 'An answer. '.repeat(80) }] },
      );
      const at = base + i * 60_000;
      items[`conversation.v2.${id}`] = {
        version: 1,
        id,
        createdAt: at,
        updatedAt: at,
        messages,
      };
      entries.unshift({
        id,
        title: `Question 0 of conversation ${i}`,
        renamed: false,
        createdAt: at,
        updatedAt: at,
        messageCount: messages.length,
      });
    }
    const currentId = entries[0]?.id ?? null;
    items['conversations.v2'] = { version: 2, currentId, limit: 1_000, entries, pruned: null };
    await chrome.storage.local.set(items);
  }, count);
}

async function firstPaint(page: Page): Promise<number> {
  // No named functions inside: tsx would wrap them in a helper the page does not have.
  return page.evaluate(async () => {
    for (;;) {
      const entry = performance.getEntriesByName('first-contentful-paint')[0];
      if (entry !== undefined) return entry.startTime;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
}

async function measurePanel(
  browser: SwitchyardBrowser,
  conversations: number,
  runs: number,
): Promise<SidePanelPaint> {
  const paints: number[] = [];
  const lists: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const page = await openSidePanel(browser);
    await page.locator('.sy-header').waitFor();
    paints.push(await firstPaint(page));
    if (conversations > 0) {
      const started = performance.now();
      await page.getByRole('button', { name: 'History' }).click();
      await page
        .locator('.sy-history__item')
        .nth(Math.min(conversations, 30) - 1)
        .waitFor();
      lists.push(performance.now() - started);
    }
    await page.close();
  }
  return {
    conversations,
    firstPaintMs: summarize(paints),
    historyListMs: lists.length === 0 ? null : summarize(lists),
  };
}

export async function measureExtensionUi(
  distDir: string,
  runs: number,
  conversations: number,
): Promise<ExtensionUiReport> {
  const shippedJs = measureShippedJs(distDir);
  const profile = createProfile({ servers: () => ({}) });
  try {
    let browser = await launchBrowser(profile);
    const empty = await measurePanel(browser, 0, runs);
    await seed(browser, conversations);
    // The worker reads the index when it starts: a new browser on the same profile.
    await browser.close();
    browser = await launchBrowser(profile);
    try {
      const full = await measurePanel(browser, conversations, runs);
      return { shippedJs, sidePanel: [empty, full], runs };
    } finally {
      await browser.close();
    }
  } finally {
    profile.dispose();
  }
}
