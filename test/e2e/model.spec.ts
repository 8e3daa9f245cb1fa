import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  SCRIPTED_ALTERNATE_IDS,
  SCRIPTED_MODEL_IDS,
  startScriptedModel,
  type ModelApi,
} from './support/scripted-model';
import { useSwitchyard } from './support/session';
import { conversationLog, newChat, sendMessage, workerConversation } from './support/side-panel';
import {
  expectFitsWidth,
  NARROWEST_PANEL_WIDTH,
  openSidePanel,
  screenshot,
  screenshotSidePanelModes,
  SIDE_PANEL_VIEWPORT,
  uiRequest,
} from './support/ui';

// Journey (issue 14, "the model in view"): the composer names the provider and model; its
// picker lists the models from the provider's own /v1/models and the choice goes into the next
// request; the provider's usage shows under each turn; and a chat longer than the model's
// context window leaves out its oldest turns, with a marker, and the request omits them. Real
// extension and host; the model is the scripted loopback server, in each wire format.

const session = useSwitchyard({ servers: () => ({}) });
const model = await startScriptedModel();
let panel: Page;

beforeAll(async () => {
  panel = await openSidePanel(session.browser);
});

afterAll(async () => {
  await model.close();
});

const APIS: readonly ModelApi[] = ['openai', 'openai-responses', 'anthropic'];
const MeterSchema = z.looseObject({
  context: z.looseObject({ system: z.number(), tools: z.number() }).nullable(),
});

/** `n` tokens by the extension's estimate: one short word each. */
const words = (label: string, n: number): string =>
  [label, ...Array.from({ length: n - 1 }, () => 'word')].join(' ');

function composerModelButton(): ReturnType<Page['getByRole']> {
  return panel.getByRole('button', { name: /^Model: / });
}

describe.each(APIS)('the model in view, %s', (api) => {
  const label = api === 'anthropic' ? 'Anthropic' : 'OpenAI';
  const first = api === APIS[0];

  it('the picker lists the provider models, and the choice goes into the next request', async () => {
    await uiRequest(panel, 'settings/set', { provider: model.settings(api) });
    await newChat(panel);
    const button = composerModelButton();
    await expect
      .poll(() => button.getAttribute('title'))
      .toBe(`${label} · ${SCRIPTED_MODEL_IDS[api]}`);
    await button.click();
    const picker = panel.getByRole('region', { name: `Model for this chat · ${label}` });
    const alternate = picker.getByRole('button', { name: SCRIPTED_ALTERNATE_IDS[api] });
    await alternate.waitFor();
    if (first) await screenshotSidePanelModes(panel, 'sidepanel-model-picker');
    await alternate.click();
    await expect
      .poll(() => button.getAttribute('title'))
      .toBe(`${label} · ${SCRIPTED_ALTERNATE_IDS[api]}`);
    expect((await workerConversation(panel)).conversation.model).toBe(SCRIPTED_ALTERNATE_IDS[api]);

    const before = model.requests.length;
    model.script({ kind: 'text', text: 'Answered by the other model.' });
    await sendMessage(panel, 'Which model are you?');
    await conversationLog(panel).getByText('Answered by the other model.').waitFor();
    expect((await model.request(before)).model).toBe(SCRIPTED_ALTERNATE_IDS[api]);
    // The scripted model reports 100 input and 10 output tokens per request, in its own format.
    await conversationLog(panel).getByText('100 in · 10 out').waitFor();

    // A typed-in model the provider does not list is used as written.
    await button.click();
    await picker.getByRole('searchbox', { name: 'Search or type a model id' }).fill('my-finetune');
    await picker.getByRole('button', { name: 'Use “my-finetune”' }).click();
    model.script({ kind: 'text', text: 'Typed in.' });
    await sendMessage(panel, 'And now?');
    await conversationLog(panel).getByText('Typed in.').waitFor();
    expect((await model.request(before + 1)).model).toBe('my-finetune');

    // Keyboard only: the search box has the focus, ArrowDown moves to the second row, Enter takes it.
    await button.click();
    const rows = picker.getByRole('list', { name: 'Models' }).getByRole('button');
    await expect.poll(() => rows.count()).toBeGreaterThan(1);
    const activeRow = picker.locator('.sy-picker__item--active');
    const top = await activeRow.innerText();
    await panel.keyboard.press('ArrowDown');
    await expect.poll(() => activeRow.innerText()).not.toBe(top);
    const second = (await rows.nth(1).innerText()).split(' · ')[0]!.trim();
    expect((await activeRow.innerText()).split(' · ')[0]!.trim()).toBe(second);
    await panel.keyboard.press('Enter');
    await expect.poll(() => button.getAttribute('title')).toBe(`${label} · ${second}`);

    // A new chat starts with the default from options again.
    await newChat(panel);
    await expect
      .poll(() => button.getAttribute('title'))
      .toBe(`${label} · ${SCRIPTED_MODEL_IDS[api]}`);
  });

  it('a chat over a small window leaves out its oldest turn, marked, and the request omits it', async () => {
    // A window with room for about 400 tokens of conversation beside the system prompt and tools.
    const { context } = MeterSchema.parse(await uiRequest(panel, 'session/snapshot', {}));
    const fixed = (context?.system ?? 0) + (context?.tools ?? 0);
    const contextWindow = Math.max(1_024, Math.ceil(((400 + fixed) * 4) / 3));
    await uiRequest(panel, 'settings/set', { provider: { ...model.settings(api), contextWindow } });
    await newChat(panel);
    const log = conversationLog(panel);
    for (const [index, turn] of ['alpha', 'bravo'].entries()) {
      model.script({ kind: 'text', text: `ok ${index}` });
      await sendMessage(panel, words(turn, 150));
      await log.getByText(`ok ${index}`).waitFor();
    }
    expect(await log.getByText(/earlier messages? not sent to the model/).count()).toBe(0);

    const before = model.requests.length;
    model.script({ kind: 'text', text: 'ok 2' });
    await sendMessage(panel, words('charlie', 150));
    await log.getByText('ok 2').waitFor();
    const marker = log.getByText(/^2 earlier messages not sent to the model/);
    await marker.waitFor();
    const sent = await model.request(before);
    expect(sent.userTexts.map((text) => text.split(' ')[0])).toEqual(['bravo', 'charlie']);
    expect((await workerConversation(panel)).conversation.messages).toHaveLength(6);
    if (first) {
      await panel.locator('.sy-meter__details > summary').click();
      await marker.evaluate((element) => {
        element.scrollIntoView({ block: 'start' });
      });
      await screenshotSidePanelModes(panel, 'sidepanel-context-window');
      await panel.locator('.sy-meter__details > summary').click();
    }
    await uiRequest(panel, 'settings/set', { provider: model.settings(api) });
  });
});

// Issue 14 at 320 px: a long model id gives way in the middle; its end, which tells models apart,
// stays in view, and so do the composer's buttons.
describe('the model button in the narrowest panel', () => {
  it('keeps the end of a long model id in view and cuts its head', async () => {
    const id = 'accounts/fireworks/models/llama-v3p1-70b-instruct';
    await uiRequest(panel, 'settings/set', {
      provider: { ...model.settings('openai'), model: id },
    });
    await newChat(panel);
    const button = composerModelButton();
    await expect.poll(() => button.getAttribute('title')).toBe(`OpenAI · ${id}`);
    await panel.setViewportSize({
      width: NARROWEST_PANEL_WIDTH,
      height: SIDE_PANEL_VIEWPORT.height,
    });
    const fit = await button.evaluate((element) => {
      const head = element.querySelector('.sy-model-button__head');
      const tail = element.querySelector('.sy-model-button__tail');
      if (head === null || tail === null) throw new Error('no head or tail');
      const box = element.getBoundingClientRect();
      const tailBox = tail.getBoundingClientRect();
      const send = element.parentElement?.querySelector('button[type="submit"]');
      if (send === null || send === undefined) throw new Error('no Send');
      return {
        // On Send's line: the button shrinks rather than wrapping onto a line of its own.
        besideSend: Math.abs(send.getBoundingClientRect().top - box.top) < box.height,
        tail: tail.textContent,
        tailInButton: tailBox.left >= box.left && tailBox.right <= box.right + 0.5,
        headCut: head.scrollWidth > head.clientWidth,
        providerShown: (element.querySelector('.sy-model-button__provider')?.clientWidth ?? 0) > 0,
      };
    });
    expect(fit).toEqual({
      besideSend: true,
      tail: '70b-instruct',
      tailInButton: true,
      headCut: true,
      providerShown: false,
    });
    await expectFitsWidth(panel, 'a long model id');
    await screenshot(panel, 'sidepanel-model-long-id-320');
    await panel.setViewportSize(SIDE_PANEL_VIEWPORT);
    await uiRequest(panel, 'settings/set', { provider: model.settings('openai') });
  });
});
