import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { unwrapUntrusted } from '../../protocol/untrusted/block';
import { EVERYTHING_SERVER } from '../integration/host-harness';
import { startScriptedModel } from './support/scripted-model';
import { useSwitchyard } from './support/session';
import { approvalCard, conversationLog, newChat, sendMessage } from './support/side-panel';
import {
  openSidePanel,
  screenshot,
  screenshotSidePanelModes,
  useScriptedModel,
  waitForTools,
} from './support/ui';

// Journey (issue 12): a server asks the user something in the middle of a tool call. The real
// server-everything sends `elicitation/create` with a form of every field type MCP has; the side
// panel shows it as a card naming the server, the user's invalid value is refused on the card
// before anything is sent, a fixed answer reaches the server (and through it the model), and a
// Decline is passed on as a decline. Real extension, host and server; the model is the scripted
// loopback server.

const ASK = 'everything__trigger-elicitation-request';

const session = useSwitchyard({
  servers: () => ({
    everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
  }),
});
const model = await startScriptedModel();
let panel: Page;

function questionCard(page: Page): Locator {
  return page.getByRole('article', { name: 'everything asks you' });
}

/** The payload of the last tool result the model was sent, unwrapped. */
function lastToolResult(): string {
  const seen = model.requests.at(-1)?.toolResults.at(-1)?.content ?? '';
  return seen
    .split('\n\n')
    .map((block) => unwrapUntrusted(block)?.payload ?? block)
    .join('\n');
}

/** Asks the model to use the tool, and allows the call once from its approval card. */
async function askViaTool(prompt: string): Promise<Locator> {
  model.script(
    { kind: 'tool-call', name: ASK, arguments: {}, text: 'Let me ask you.' },
    { kind: 'text', text: (seen) => `The tool said: ${seen.toolResults.at(-1)?.content ?? ''}` },
  );
  await sendMessage(panel, prompt);
  const approval = approvalCard(panel, ASK);
  await approval.waitFor();
  await approval.getByRole('button', { name: 'Allow once' }).click();
  const card = questionCard(panel);
  await card.waitFor();
  return card;
}

beforeAll(async () => {
  panel = await openSidePanel(session.browser);
  await useScriptedModel(panel, model, 'openai');
  await waitForTools(panel, [ASK]);
});

afterAll(async () => {
  await model.close();
});

describe('a server asks the user', () => {
  it('shows the form, refuses an invalid value on the card, and sends the fixed answer', async () => {
    const card = await askViaTool('Ask me for my details.');
    // The server's words and what it asks for, with its defaults filled in.
    await card.getByText('Please provide inputs for the following fields:').waitFor();
    expect(await card.getByLabel('String with default').inputValue()).toBe(
      'It was a dark and stormy night.',
    );
    expect(await card.getByLabel('Integer').inputValue()).toBe('42');
    expect(await card.getByLabel('Legacy Titled Single Select Enum').inputValue()).toBe('pet-1');
    // The card takes focus, so a keyboard user lands on it.
    expect(await card.evaluate((node) => node === document.activeElement)).toBe(true);
    await screenshot(panel, 'sidepanel-question-card');

    const requestsBefore = model.requests.length;
    await card.getByLabel('String (required)').fill('Ada Lovelace');
    await card.getByLabel('String with email format').fill('not-an-email');
    await card.getByLabel('Integer').fill('500');
    await card.getByRole('button', { name: 'Accept' }).click();
    await card.getByText('String with email format is not an email address.').waitFor();
    await card.getByText('Integer must be at most 100.').waitFor();
    // Nothing was sent: the card is still there and the model has not been answered.
    expect(model.requests).toHaveLength(requestsBefore);

    await card.getByLabel('String with email format').fill('ada@example.com');
    await card.getByLabel('Integer').fill('7');
    await card.getByRole('button', { name: 'Accept' }).click();
    await conversationLog(panel)
      .getByText(/The tool said:/)
      .waitFor();
    await questionCard(panel).waitFor({ state: 'detached' });
    const result = lastToolResult();
    expect(result).toContain('- Name: Ada Lovelace');
    expect(result).toContain('- Email: ada@example.com');
    expect(result).toContain('- Favorite Integer: 7');
  });

  it('passes a Decline on to the server', async () => {
    await newChat(panel);
    const card = await askViaTool('Ask me again.');
    await card.getByRole('button', { name: 'Decline' }).click();
    await conversationLog(panel)
      .getByText(/The tool said:/)
      .waitFor();
    expect(lastToolResult()).toContain('User declined to provide the requested information');
  });

  it('Escape cancels the question, as the card says; focus returns to the message box', async () => {
    await newChat(panel);
    const card = await askViaTool('Ask, and I will wave it away.');
    expect(await card.getByText('Esc cancels').count()).toBe(1);
    await card.getByLabel('String (required)').focus();
    await panel.keyboard.press('Escape');
    await conversationLog(panel)
      .getByText(/The tool said:/)
      .waitFor();
    expect(lastToolResult()).toContain('User cancelled the elicitation dialog');
    await vi.waitFor(async () => {
      expect(
        await panel.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null),
      ).toBe('Message');
    });
  });

  it('takes the screenshots for the docs: default width and 360 px, light and dark', async () => {
    await newChat(panel);
    await askViaTool('One more time.');
    await screenshotSidePanelModes(panel, 'sidepanel-question');
    await questionCard(panel).getByRole('button', { name: 'Cancel' }).click();
    await questionCard(panel).waitFor({ state: 'detached' });
  });
});
