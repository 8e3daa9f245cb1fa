import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedModel } from './support/scripted-model';
import { useSwitchyard } from './support/session';
import { conversationLog, sendMessage, workerConversation } from './support/side-panel';
import { openSidePanel, screenshotSidePanelModes, useScriptedModel } from './support/ui';

// Journey (issue 14): after a failed turn the user retries it; an answered one can be
// regenerated; a message of theirs can be edited and sent again, and what followed it is gone
// (the transcript stays paired). Real extension and host; the model is the scripted loopback
// server, made to fail one request with an HTTP 500.

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

/** The roles and texts of the worker's stored conversation. */
async function transcript(): Promise<Array<[string, string]>> {
  const { conversation } = await workerConversation(panel);
  return conversation.messages.map((m) => [
    m.role,
    m.role === 'user'
      ? m.content
      : m.role === 'assistant'
        ? m.content.map((p) => (p.type === 'text' ? p.text : `[${p.name}]`)).join('')
        : 'tool results',
  ]);
}

describe('recovering a turn', () => {
  it('Retry after a failure sends the same message again', async () => {
    // A 500 is retried by the provider's SDK (twice) before the turn fails: fail all three.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      model.failNext(500, 'the scripted model is down');
    }
    await sendMessage(panel, 'What is 6 times 7?');
    const log = conversationLog(panel);
    await log.getByText('the scripted model is down', { exact: false }).waitFor();
    await screenshotSidePanelModes(panel, 'sidepanel-retry');

    const before = model.requests.length;
    model.script({ kind: 'text', text: 'It is 42.' });
    await log.getByRole('button', { name: 'Retry' }).click();
    await log.getByText('It is 42.').waitFor();
    expect((await model.request(before)).lastUserText).toBe('What is 6 times 7?');
    // The message was sent again, not added twice.
    expect(await transcript()).toEqual([
      ['user', 'What is 6 times 7?'],
      ['assistant', 'It is 42.'],
    ]);
  });

  it('Regenerate replaces the last answer', async () => {
    model.script({ kind: 'text', text: 'Forty-two.' });
    await conversationLog(panel).getByRole('button', { name: 'Regenerate' }).click();
    await conversationLog(panel).getByText('Forty-two.').waitFor();
    expect(await conversationLog(panel).getByText('It is 42.').count()).toBe(0);
    expect(await transcript()).toEqual([
      ['user', 'What is 6 times 7?'],
      ['assistant', 'Forty-two.'],
    ]);
  });

  it('Edit and resend drops what followed the edited message', async () => {
    model.script({ kind: 'text', text: 'Paris.' });
    await sendMessage(panel, 'And the capital of France?');
    const log = conversationLog(panel);
    await log.getByText('Paris.').waitFor();

    // Edit the first message: the second turn goes with everything after the first.
    await log.getByRole('button', { name: 'Edit message' }).first().click();
    const box = log.getByRole('textbox', { name: 'Edit your message' });
    expect(await box.inputValue()).toBe('What is 6 times 7?');
    await box.fill('What is 6 times 8?');
    model.script({ kind: 'text', text: 'It is 48.' });
    await log.getByRole('button', { name: 'Send' }).click();
    await log.getByText('It is 48.').waitFor();
    expect(await log.getByText('Paris.').count()).toBe(0);
    expect(await transcript()).toEqual([
      ['user', 'What is 6 times 8?'],
      ['assistant', 'It is 48.'],
    ]);
    expect(model.requests.at(-1)?.lastUserText).toBe('What is 6 times 8?');
  });

  it('Escape leaves a message being edited as it was', async () => {
    const log = conversationLog(panel);
    await log.getByRole('button', { name: 'Edit message' }).first().click();
    const box = log.getByRole('textbox', { name: 'Edit your message' });
    await box.fill('Something else');
    await box.press('Escape');
    await box.waitFor({ state: 'detached' });
    await log.getByText('What is 6 times 8?').waitFor();
  });
});
