import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER } from '../integration/host-harness';
import { startScriptedModel } from './support/scripted-model';
import { useSwitchyard } from './support/session';
import { conversationLog } from './support/side-panel';
import {
  clickButton,
  openSidePanel,
  screenshotSidePanelModes,
  useScriptedModel,
  waitForTools,
} from './support/ui';

// Journey (issue 12): `/` in the message box opens the prompts of the site's servers; the user
// picks server-everything's, fills in its arguments (with the server's completions), reads the
// messages the server wrote, marked as that server's, and only then puts them in the message box,
// where they can still be edited before sending. Real extension, host and server; the model is
// the scripted loopback server.

const session = useSwitchyard({
  servers: () => ({
    everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
  }),
});
const model = await startScriptedModel();
let panel: Page;

beforeAll(async () => {
  panel = await openSidePanel(session.browser);
  await useScriptedModel(panel, model, 'openai');
  await waitForTools(panel, ['everything__echo']);
});

afterAll(async () => {
  await model.close();
});

describe('a server prompt from /', () => {
  it('is chosen, filled in, previewed as the server’s, and edited before it is sent', async () => {
    const box = panel.getByRole('textbox', { name: 'Message' });
    await box.click();
    await panel.keyboard.type('/');
    await panel.getByRole('searchbox', { name: 'Search prompts' }).waitFor();
    await panel.keyboard.type('everything:args');
    await panel
      .getByRole('list', { name: 'Prompts' })
      .getByText('/everything:args-prompt')
      .waitFor();
    await panel.keyboard.press('Enter');

    // The required argument must be filled in before the server is asked.
    await clickButton(panel, 'Preview');
    await panel.getByText('Required.').waitFor();
    await panel.getByRole('combobox', { name: 'city (required)' }).fill('Lisbon');
    await clickButton(panel, 'Preview');

    const preview = panel.getByRole('list', { name: 'Messages from everything' });
    await preview.getByText("What's weather in Lisbon?").waitFor();
    expect(await preview.getByText('From everything · user').count()).toBe(1);
    await screenshotSidePanelModes(panel, 'sidepanel-prompt-preview');
    await clickButton(panel, 'Use in message');

    // In the box, where the user can change it; nothing has been sent yet.
    const requests = model.requests.length;
    expect(await box.inputValue()).toBe("What's weather in Lisbon?");
    await box.press('End');
    await box.pressSequentially(' In Celsius.');
    expect(model.requests).toHaveLength(requests);

    model.script({ kind: 'text', text: 'Mild, 18 degrees.' });
    await clickButton(panel, 'Send');
    await conversationLog(panel).getByText('Mild, 18 degrees.').waitFor();
    expect(model.requests.at(-1)?.lastUserText).toBe("What's weather in Lisbon? In Celsius.");
  });

  it('offers the server’s completions for an argument', async () => {
    const box = panel.getByRole('textbox', { name: 'Message' });
    await box.fill('');
    await box.click();
    await panel.keyboard.type('/');
    await panel.keyboard.type('completable');
    await panel.keyboard.press('Enter');
    const department = panel.getByRole('combobox', { name: 'department (required)' });
    await department.fill('Eng');
    const options = panel.locator('datalist option');
    await options.first().waitFor({ state: 'attached' });
    expect(
      await options.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('value'))),
    ).toContain('Engineering');
    await panel.keyboard.press('Escape');
    await panel.getByRole('searchbox', { name: 'Search prompts' }).waitFor({ state: 'detached' });
  });
});
