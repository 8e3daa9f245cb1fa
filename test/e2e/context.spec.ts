import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrapUntrusted } from '../../protocol/untrusted/block';
import { EVERYTHING_SERVER } from '../integration/host-harness';
import { startScriptedModel } from './support/scripted-model';
import { referenceServers } from './support/profile';
import { useSwitchyard } from './support/session';
import { conversationLog, newChat } from './support/side-panel';
import {
  clickButton,
  openSidePanel,
  screenshot,
  screenshotSidePanelModes,
  useScriptedModel,
} from './support/ui';

// Journey (issue 12): the user attaches a server's resource to a message, with `@` in the
// composer or the "Add context" button, and the model receives it as untrusted data naming the
// server, after the user's words; a resource template is filled in first. Real extension, host,
// server-memory (its knowledge graph is a resource) and server-everything (its dynamic resources
// are templates); the model is the scripted loopback server.

const session = useSwitchyard({
  servers: (paths) => ({
    ...referenceServers(paths),
    everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
  }),
});
const model = await startScriptedModel();
let panel: Page;

beforeAll(async () => {
  panel = await openSidePanel(session.browser);
  await useScriptedModel(panel, model, 'openai');
});

afterAll(async () => {
  await model.close();
});

/** The untrusted-data blocks of the last user message the model was sent. */
function attachedBlocks() {
  return model.requests
    .at(-1)
    ?.lastUserText.split('\n\n')
    .map((part) => unwrapUntrusted(part))
    .filter((block) => block !== undefined);
}

describe('attaching a resource to a message', () => {
  it('picks a resource with @, shows it as a chip, and sends it to the model', async () => {
    const box = panel.getByRole('textbox', { name: 'Message' });
    await box.click();
    await box.pressSequentially('What is in @');
    const search = panel.getByRole('searchbox', { name: 'Search resources' });
    await search.waitFor();
    // The search box has the focus: typing narrows the list at once.
    await panel.keyboard.type('knowledge');
    const list = panel.getByRole('list', { name: 'Resources' });
    await list.getByText('Knowledge Graph').waitFor();
    await screenshot(panel, 'sidepanel-add-context');
    await panel.keyboard.press('Enter');
    const chips = panel.getByRole('list', { name: 'Attached to the next message' });
    await chips.getByText('Knowledge Graph').waitFor();
    // The `@` that opened the picker became the chip; the words stay.
    expect(await box.inputValue()).toBe('What is in ');
    await box.pressSequentially('my memory?');

    model.script({ kind: 'text', text: 'Your memory graph is empty.' });
    await clickButton(panel, 'Send');
    await conversationLog(panel).getByText('Your memory graph is empty.').waitFor();

    expect(model.requests.at(-1)?.lastUserText.startsWith('What is in my memory?\n\n')).toBe(true);
    const blocks = attachedBlocks() ?? [];
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.server).toBe('memory');
    expect(blocks[0]?.tool).toBe('resource');
    expect(blocks[0]?.payload).toContain('attached by the user');
    expect(blocks[0]?.payload).toContain('"entities"');
    // The sent message keeps its chip; the composer's is gone.
    await conversationLog(panel)
      .getByRole('list', { name: 'Attached' })
      .getByText('Knowledge Graph')
      .waitFor();
    expect(await chips.count()).toBe(0);
  });

  it('adds context from the button, and a removed chip is not sent', async () => {
    await newChat(panel);
    await clickButton(panel, 'Add context');
    await panel.getByRole('list', { name: 'Resources' }).getByText('Knowledge Graph').click();
    const chips = panel.getByRole('list', { name: 'Attached to the next message' });
    await chips.getByText('Knowledge Graph').waitFor();
    await panel.getByRole('button', { name: 'Remove Knowledge Graph' }).click();
    await chips.waitFor({ state: 'detached' });

    await panel.getByRole('textbox', { name: 'Message' }).fill('Hello');
    model.script({ kind: 'text', text: 'Hi there.' });
    await clickButton(panel, 'Send');
    await conversationLog(panel).getByText('Hi there.').waitFor();
    expect(model.requests.at(-1)?.lastUserText).toBe('Hello');
  });

  it('fills in a resource template, with the server’s completions, and sends what it names', async () => {
    await newChat(panel);
    await clickButton(panel, 'Add context');
    await panel.keyboard.type('dynamic text');
    const list = panel.getByRole('list', { name: 'Resources' });
    await list.getByText('fill in', { exact: false }).first().waitFor();
    await list.getByText('Dynamic Text Resource').click();
    const field = panel.getByRole('combobox', { name: /resourceId/ });
    await field.waitFor();
    // The first field has the focus; Attach with it blank says what is missing.
    expect(await panel.evaluate(() => document.activeElement?.id)).toBe(
      await field.getAttribute('id'),
    );
    await clickButton(panel, /^Attach$/);
    await panel.getByText('Required.').waitFor();
    await field.fill('7');
    await panel.getByText('Required.').waitFor({ state: 'detached' });
    // The server's completion for the variable is offered as a suggestion.
    const listId = await field.getAttribute('list');
    await panel
      .locator(`datalist[id="${listId ?? ''}"] option[value="7"]`)
      .waitFor({ state: 'attached' });
    await screenshotSidePanelModes(panel, 'sidepanel-fill-template');
    await clickButton(panel, /^Attach$/);
    const chips = panel.getByRole('list', { name: 'Attached to the next message' });
    await chips.getByText('Dynamic Text Resource (resourceId: 7)').waitFor();

    await panel.getByRole('textbox', { name: 'Message' }).fill('Summarise this.');
    model.script({ kind: 'text', text: 'It is resource 7.' });
    await clickButton(panel, 'Send');
    await conversationLog(panel).getByText('It is resource 7.').waitFor();
    const blocks = attachedBlocks() ?? [];
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.server).toBe('everything');
    expect(blocks[0]?.payload).toContain('demo://resource/dynamic/text/7');
  });

  it('takes the screenshots for the docs: default width and 360 px, light and dark', async () => {
    await clickButton(panel, 'Add context');
    await panel.getByRole('list', { name: 'Resources' }).getByText('Knowledge Graph').waitFor();
    await screenshotSidePanelModes(panel, 'sidepanel-add-context');
    await clickButton(panel, 'Close');
  });

  it('closes the picker with Escape and gives the message box its focus back', async () => {
    await clickButton(panel, 'Add context');
    await panel.getByRole('searchbox', { name: 'Search resources' }).waitFor();
    await panel.keyboard.press('Escape');
    await panel.getByRole('searchbox', { name: 'Search resources' }).waitFor({ state: 'detached' });
    const focused = await panel.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    expect(focused).toBe('Message');
  });
});
