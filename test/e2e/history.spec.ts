import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'wxt/browser';
import { startScriptedModel } from './support/scripted-model';
import { useSwitchyard } from './support/session';
import { conversationLog, newChat, sendMessage } from './support/side-panel';
import {
  clickButton,
  openOptions,
  openSidePanel,
  screenshot,
  screenshotSidePanelModes,
  useScriptedModel,
} from './support/ui';

// Journey (issue 14): conversations are kept. Two chats survive a browser relaunch and are
// listed newest first; the older one opens with its transcript; it is renamed in place, found by
// a word of the model's answer, exported as Markdown and JSON (real downloads), and the other is
// deleted after a confirmation; the bound is set in the options page. Real extension and host; the model is the scripted loopback server.

declare const chrome: typeof Browser;

const session = useSwitchyard({ servers: () => ({}) });
const model = await startScriptedModel();
let panel: Page;

beforeAll(async () => {
  panel = await openSidePanel(session.browser);
  await useScriptedModel(panel, model, 'openai');
});

afterAll(async () => {
  await model.close();
});

function historyList(): Locator {
  return panel.getByRole('list', { name: 'Conversations, newest first' });
}

/** The titles the list shows, top to bottom. */
async function titles(): Promise<string[]> {
  return historyList().locator('.sy-history__title').allTextContents();
}

/** Waits until the worker has written `count` listed conversations to storage.local. */
async function waitUntilStored(count: number, text: string): Promise<void> {
  await session.browser.worker.evaluate(
    async ({ count: wanted, text: words }) => {
      for (;;) {
        const all = await chrome.storage.local.get(null);
        const index = all['conversations.v2'] as { entries?: unknown[] } | undefined;
        if ((index?.entries?.length ?? 0) >= wanted && JSON.stringify(all).includes(words)) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    { count, text },
  );
}

async function chat(question: string, answer: string): Promise<void> {
  model.script({ kind: 'text', text: answer });
  await sendMessage(panel, question);
  await conversationLog(panel).getByText(answer).waitFor();
}

async function openHistory(): Promise<void> {
  await clickButton(panel, 'History');
  await historyList().waitFor();
}

describe('conversation history', () => {
  it('two conversations survive a relaunch and are listed newest first', async () => {
    await chat('Plan a trip to Lisbon', 'Pack light and book the tram 28 early.');
    await newChat(panel);
    await chat('How do I bake sourdough bread?', 'Feed the starter the night before.');
    await waitUntilStored(2, 'Feed the starter the night before.');

    await session.relaunch();
    panel = await openSidePanel(session.browser);
    // The current conversation is back in the chat.
    await conversationLog(panel).getByText('Feed the starter the night before.').waitFor();

    await openHistory();
    expect(await titles()).toEqual(['How do I bake sourdough bread?', 'Plan a trip to Lisbon']);
    await expect.poll(() => historyList().getByText('open now').count()).toBe(1);
    await screenshotSidePanelModes(panel, 'sidepanel-history');
  });

  it('opens the older one with its transcript and its model', async () => {
    await historyList()
      .getByRole('button', { name: /^Plan a trip to Lisbon/ })
      .click();
    const log = conversationLog(panel);
    await log.getByText('Pack light and book the tram 28 early.').waitFor();
    expect(await log.getByText('Feed the starter the night before.').count()).toBe(0);
    await openHistory();
    // Opening does not make it the newest.
    expect(await titles()).toEqual(['How do I bake sourdough bread?', 'Plan a trip to Lisbon']);
    const older = historyList().getByRole('listitem').nth(1);
    expect(await older.textContent()).toContain('open now');
    expect(await older.textContent()).toContain('2 messages');
  });

  it('renames in place, from the keyboard', async () => {
    await panel.getByRole('button', { name: 'Rename “Plan a trip to Lisbon”' }).click();
    const box = panel.getByRole('textbox', { name: 'New name for “Plan a trip to Lisbon”' });
    await box.fill('Lisbon weekend');
    await box.press('Enter');
    await expect.poll(titles).toEqual(['How do I bake sourdough bread?', 'Lisbon weekend']);
  });

  it("finds a conversation by a word of the model's answer", async () => {
    await panel.getByRole('searchbox', { name: 'Search conversations' }).fill('starter');
    await expect.poll(titles).toEqual(['How do I bake sourdough bread?']);
    await historyList().getByText('Feed the starter the night before.').waitFor();
    await screenshotSidePanelModes(panel, 'sidepanel-history-search');
    await panel.getByRole('searchbox', { name: 'Search conversations' }).fill('no such words');
    await panel.getByText('No conversation mentions “no such words”.').waitFor();
    await panel.getByRole('searchbox', { name: 'Search conversations' }).fill('');
    await expect.poll(titles).toEqual(['How do I bake sourdough bread?', 'Lisbon weekend']);
  });

  it('exports as Markdown and as JSON', async () => {
    const exported = async (format: 'Markdown' | 'JSON'): Promise<[string, string]> => {
      await panel.getByRole('button', { name: 'Export “Lisbon weekend”' }).click();
      const [download] = await Promise.all([
        panel.waitForEvent('download'),
        historyList().getByRole('button', { name: format, exact: true }).click(),
      ]);
      return [download.suggestedFilename(), await readFile(await download.path(), 'utf8')];
    };
    const [mdName, markdown] = await exported('Markdown');
    expect(mdName).toMatch(/^switchyard-\d{4}-\d{2}-\d{2}-lisbon-weekend\.md$/);
    expect(markdown).toContain('# Lisbon weekend');
    expect(markdown).toContain('## You\n\nPlan a trip to Lisbon');
    expect(markdown).toContain('## Assistant\n\nPack light and book the tram 28 early.');

    const [jsonName, json] = await exported('JSON');
    expect(jsonName).toMatch(/lisbon-weekend\.json$/);
    expect(JSON.parse(json)).toMatchObject({
      format: 'switchyard-conversation',
      version: 1,
      conversation: { version: 1, title: 'Lisbon weekend', provider: { kind: 'openai' } },
    });
  });

  it('deletes after a confirmation, and the transcript is gone from storage', async () => {
    await panel.getByRole('button', { name: 'Delete “How do I bake sourdough bread?”' }).click();
    const confirm = panel.getByRole('group', { name: 'Confirm deletion' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(titles).toEqual(['Lisbon weekend']);
    const stored = await session.browser.worker.evaluate(async () =>
      JSON.stringify(await chrome.storage.local.get(null)),
    );
    expect(stored).not.toContain('Feed the starter');
    expect(stored).toContain('Pack light');
  });

  it('the bound is set in the options page', async () => {
    const options = await openOptions(session.browser);
    const field = options.getByRole('spinbutton', { name: 'Conversations to keep' });
    await expect.poll(() => field.inputValue()).toBe('100');
    await field.fill('2');
    await options.getByRole('button', { name: 'Save' }).last().click();
    await options.getByText('Enter a whole number from 5 to 1000.').waitFor();
    await field.fill('5');
    await options.getByRole('button', { name: 'Save' }).last().click();
    await options.getByText('Keeping the newest 5 conversations.').waitFor();
    await options.getByRole('heading', { name: 'Conversation history' }).scrollIntoViewIfNeeded();
    await screenshot(options, 'options-history');
    const stored = await session.browser.worker.evaluate(
      async () => (await chrome.storage.local.get('conversations.v2'))['conversations.v2'],
    );
    expect(stored).toMatchObject({ version: 2, limit: 5 });
  });
});
