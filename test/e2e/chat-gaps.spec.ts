import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TINY_PNG } from '../../extension/background/testing/images';
import { startLoopbackServer, urlTitlePage, type LoopbackServer } from '../support/loopback-server';
import { startScriptedModel } from './support/scripted-model';
import { useSwitchyard } from './support/session';
import { conversationLog, newChat, sendMessage } from './support/side-panel';
import { clickButton, openSidePanel, uiRequest, useScriptedModel } from './support/ui';

// Journeys (issue 14, the gaps left after the first pass): a message of an image alone is sent
// and reaches the model as an image part; a deleted conversation comes back with Undo; a
// conversation opened from the history brings its profile back (the chip says so), and a profile
// deleted since is said while the tab's stays. Real extension and host; the model is the scripted
// loopback server; the pages are a loopback site.

const session = useSwitchyard({ servers: () => ({}) });
const model = await startScriptedModel();
let site: LoopbackServer;
let panel: Page;
let github: Page;
let other: Page;

const siteUrl = (path: string): string => new URL(path, site.baseURL).href;

beforeAll(async () => {
  site = await startLoopbackServer(urlTitlePage);
  await session.browser.waitForConnection('connected');
  github = await session.browser.context.newPage();
  await github.goto(siteUrl('/github/x'));
  panel = await openSidePanel(session.browser, { beside: github });
  await useScriptedModel(panel, model, 'openai');
  await uiRequest(panel, 'host/request', {
    method: 'profiles/set',
    params: {
      profile: {
        id: 'github',
        name: 'GitHub',
        match: [`${new URL(site.baseURL).origin}/github/*`],
        mode: 'full',
      },
    },
  });
});

afterAll(async () => {
  await model.close();
  await site.close();
});

function historyList(): Locator {
  return panel.getByRole('list', { name: 'Conversations, newest first' });
}

async function openHistory(): Promise<void> {
  await clickButton(panel, 'History');
  await historyList().waitFor();
}

async function chat(question: string, answer: string): Promise<void> {
  model.script({ kind: 'text', text: answer });
  await sendMessage(panel, question);
  await conversationLog(panel).getByText(answer).waitFor();
}

const chip = (label: string): Locator => panel.getByText(label, { exact: true });

const UserContentSchema = z.object({
  messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() })),
});

describe('a conversation opened from the history', () => {
  // A click in the panel focuses its window here (a test opens it as a popup window beside the
  // tab; the real side panel is in the tab's window): the chats are started through the page
  // requests the buttons send, so the tab stays the active one when each records its profile.
  const chatBeside = async (tab: Page, question: string, answer: string): Promise<void> => {
    await tab.bringToFront();
    await uiRequest(panel, 'chat/new', {});
    model.script({ kind: 'text', text: answer });
    await uiRequest(panel, 'chat/send', { text: question });
    await conversationLog(panel).getByText(answer).waitFor();
  };

  it('goes on with the profile it began with, and says so when that profile is gone', async () => {
    const pattern = `${new URL(site.baseURL).origin}/github/*`;
    await github.bringToFront();
    await chip(`Profile GitHub, matched by ${pattern}`).waitFor();
    await chatBeside(github, 'A GitHub question', 'A GitHub answer.');
    other = await session.browser.context.newPage();
    await other.goto(siteUrl('/other/'));
    await chatBeside(other, 'A question elsewhere', 'An answer elsewhere.');
    await chip('Profile Default, matched by default profile').waitFor();

    await openHistory();
    await historyList()
      .getByRole('button', { name: /^A GitHub question/ })
      .click();
    await conversationLog(panel).getByText('A GitHub answer.').waitFor();
    // Whatever the tab selects, the opened conversation's profile is the active one.
    await chip('Profile GitHub, the one this conversation began with').waitFor();

    // New Chat: the tab selects again.
    await newChat(panel);
    await other.bringToFront();
    await chip('Profile Default, matched by default profile').waitFor();

    await uiRequest(panel, 'host/request', { method: 'profiles/remove', params: { id: 'github' } });
    await openHistory();
    await historyList()
      .getByRole('button', { name: /^A GitHub question/ })
      .click();
    await conversationLog(panel)
      .getByText(
        'This conversation began with the profile “GitHub”, which has been deleted. It goes on with “Default”, the active tab’s profile.',
      )
      .waitFor();
    await chip('Profile Default, matched by default profile').waitFor();
  });
});

describe('a message of an image alone', () => {
  it('is sent with Send, and the model request carries the image part', async () => {
    await newChat(panel);
    const send = panel.getByRole('button', { name: 'Send', exact: true });
    expect(await send.isDisabled()).toBe(true);
    const before = model.requests.length;
    model.script({ kind: 'text', text: 'A one-pixel square.' });
    await panel
      .getByLabel('Files to attach')
      .setInputFiles([
        { name: 'square.png', mimeType: 'image/png', buffer: Buffer.from(TINY_PNG, 'base64') },
      ]);
    await panel
      .getByRole('list', { name: 'Files for the next message' })
      .getByText('square.png')
      .waitFor();
    expect(await panel.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('');
    await send.click();
    await conversationLog(panel).getByText('A one-pixel square.').waitFor();

    const seen = await model.request(before);
    const user = UserContentSchema.parse(seen.raw.body)
      .messages.filter((m) => m.role === 'user')
      .at(-1);
    expect(user?.content).toEqual([
      { type: 'image_url', image_url: { url: `data:image/png;base64,${TINY_PNG}` } },
    ]);
    // The meter counts the image as a part of its own.
    await expect
      .poll(() => panel.getByRole('img', { name: /^Tokens per turn:/ }).getAttribute('aria-label'))
      .toMatch(/, Conversation [\d,]+, Images [1-9][\d,]*, Built-in tools /);
  });
});

describe('Undo after deleting a conversation', () => {
  it('brings the conversation back, listed where it was, with its transcript', async () => {
    await newChat(panel);
    await chat('Keep this one about tea', 'Green tea wants 80 degrees.');
    await newChat(panel);
    await chat('And this one about coffee', 'Grind just before brewing.');
    await openHistory();
    const tea = historyList().getByRole('listitem').filter({ hasText: 'Keep this one about tea' });
    await tea.getByRole('button', { name: 'Delete “Keep this one about tea”' }).click();
    await tea
      .getByRole('group', { name: 'Confirm deletion' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await panel.getByText('Deleted “Keep this one about tea”.').waitFor();
    await expect.poll(() => historyList().getByText('Keep this one about tea').count()).toBe(0);

    await clickButton(panel, 'Undo');
    await historyList().getByText('Keep this one about tea').waitFor();
    expect(await panel.getByText('Deleted “Keep this one about tea”.').count()).toBe(0);
    await historyList()
      .getByRole('button', { name: /^Keep this one about tea/ })
      .click();
    await conversationLog(panel).getByText('Green tea wants 80 degrees.').waitFor();
  });
});
