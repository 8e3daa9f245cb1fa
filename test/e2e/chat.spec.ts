import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser } from 'wxt/browser';
import { pairingProblems } from '../../extension/background/pairing';
import { OUTCOME_TEXT } from '../../extension/background/tool-outcome';
import { unwrapUntrusted } from '../../protocol/untrusted/block';
import { startScriptedModel } from './support/scripted-model';
import { useSwitchyard } from './support/session';
import {
  approvalCard,
  conversationLog,
  newChat,
  sendMessage,
  toolRow,
  workerConversation,
} from './support/side-panel';
import {
  clickButton,
  openSidePanel,
  screenshotSidePanelModes,
  SIDE_PANEL_VIEWPORT,
  useScriptedModel,
  waitForTools,
} from './support/ui';

// Journey (issue 4): the chat itself. Stop ends a reply mid-stream and leaves a transcript the
// model can be sent again (every tool call answered, even one stopped at its approval card); the
// conversation survives a browser restart; New Chat starts over; and the same ask, approve,
// answer round works against a model speaking the Anthropic messages format. And (issue 14) a
// reply with a table and a code block renders as such, and its Copy buttons reach the clipboard.

declare const chrome: typeof Browser;

const READ = 'filesystem__read_text_file';
const NOTES = 'Buy oat milk.\nCall the plumber on Tuesday.';

const session = useSwitchyard({ workspaceFiles: { 'notes.txt': NOTES } });
const model = await startScriptedModel();
let panel: Page;

async function openChat(): Promise<void> {
  panel = await openSidePanel(session.browser);
  await waitForTools(panel, [READ]);
}

beforeAll(async () => {
  await openChat();
  await useScriptedModel(panel, model, 'openai');
});

afterAll(async () => {
  await model.close();
});

describe('the chat', () => {
  it('Stop ends a reply mid-stream; the transcript stays paired and the next message goes out', async () => {
    const first = model.requests.length;
    model.script({ kind: 'hang', text: 'Let me think about this for a very long time…' });

    await sendMessage(panel, 'Think hard.');
    await conversationLog(panel).getByText('Let me think about this').waitFor();
    await clickButton(panel, 'Stop');
    await conversationLog(panel).getByText('Stopped.').waitFor();

    expect(await panel.getByRole('button', { name: 'Stop' }).count()).toBe(0);
    const { conversation, running } = await workerConversation(panel);
    expect(running).toBe(false);
    expect(pairingProblems(conversation.messages)).toEqual([]);
    expect(conversation.messages[0]).toEqual({ role: 'user', content: 'Think hard.' });

    model.script({ kind: 'text', text: 'Fine, the short answer: 42.' });
    await sendMessage(panel, 'Just the short answer, then.');
    await conversationLog(panel).getByText('Fine, the short answer: 42.').waitFor();
    expect((await model.request(first + 1)).lastUserText).toBe('Just the short answer, then.');
  });

  it('Stop while a call waits at its card: nothing runs, and the call still gets a result', async () => {
    await newChat(panel);
    const first = model.requests.length;
    model.script({
      kind: 'tool-call',
      name: READ,
      arguments: { path: join(session.profile.workspace, 'notes.txt') },
    });

    await sendMessage(panel, 'Read notes.txt.');
    await approvalCard(panel, READ).waitFor();
    await clickButton(panel, 'Stop');
    await conversationLog(panel).getByText('Stopped.').waitFor();

    expect(await approvalCard(panel, READ).count()).toBe(0);
    expect(await toolRow(panel, READ).textContent()).toContain('cancelled');
    const { conversation } = await workerConversation(panel);
    expect(pairingProblems(conversation.messages)).toEqual([]);

    // The host retired the approval: the server never saw the call. The model, asked again, is
    // sent the call with its answer, which says it did not run.
    await vi.waitFor(() => {
      expect(session.profile.auditLog().at(-1)).toMatchObject({
        event: 'call',
        exposedName: READ,
        decision: 'denied',
        by: 'user',
      });
    });
    model.script({ kind: 'text', text: 'No problem, I left it closed.' });
    await sendMessage(panel, 'Never mind.');
    await conversationLog(panel).getByText('No problem, I left it closed.').waitFor();
    expect((await model.request(first + 1)).toolResults).toEqual([
      { callId: `call_${first}`, content: OUTCOME_TEXT.stoppedBeforeRun, isError: false },
    ]);
  });

  it('keeps the conversation across a browser restart; New Chat clears it', async () => {
    // The worker persists every change; wait until this one is on disk before closing.
    await waitUntilStored('No problem, I left it closed.');

    await session.relaunch();
    await openChat();

    const log = conversationLog(panel);
    await log.getByText('No problem, I left it closed.').waitFor();
    expect(await log.getByText('Read notes.txt.').count()).toBe(1);
    expect(await toolRow(panel, READ).textContent()).toContain('cancelled');

    await newChat(panel);
    expect((await workerConversation(panel)).conversation.messages).toEqual([]);
    expect(await log.getByText('No problem, I left it closed.').count()).toBe(0);
  });

  it('works the same with a model speaking the Anthropic messages format', async () => {
    await useScriptedModel(panel, model, 'anthropic');
    const path = join(session.profile.workspace, 'notes.txt');
    const answer = 'Your notes: oat milk, and the plumber on Tuesday.';
    const first = model.requests.length;
    model.script(
      { kind: 'tool-call', name: READ, arguments: { path }, text: 'Opening notes.txt.' },
      {
        kind: 'text',
        text: (seen) =>
          unwrapUntrusted(seen.toolResults.at(-1)?.content ?? '')?.payload === NOTES
            ? answer
            : 'I could not read it.',
      },
    );

    await sendMessage(panel, 'What do my notes say?');
    const card = approvalCard(panel, READ);
    expect(await card.getByLabel(`Arguments for ${READ}`).textContent()).toBe(
      JSON.stringify({ path }, null, 2),
    );
    await card.getByRole('button', { name: 'Allow once' }).click();
    await conversationLog(panel).getByText(answer).waitFor();

    const asked = await model.request(first);
    expect(asked.api).toBe('anthropic');
    expect(asked.lastUserText).toBe('What do my notes say?');
    expect(asked.tools).toContain(READ);
    const answered = await model.request(first + 1);
    expect(answered.toolResults).toEqual([
      { callId: `toolu_${first}`, content: expect.any(String) as unknown, isError: false },
    ]);
    expect(unwrapUntrusted(answered.toolResults[0]?.content ?? '')).toMatchObject({
      server: 'filesystem',
      tool: 'read_text_file',
      payload: NOTES,
    });
    expect(await toolRow(panel, READ).textContent()).toContain('done');
  });
});

const CODE =
  'const total = sizes.reduce((sum, size) => sum + size, 0);\nconsole.log(`${total} bytes`);';
const RENDERED_REPLY = [
  'Here is what I found:',
  '',
  '| File | Size | Kept |',
  '|:--|--:|:-:|',
  '| notes.txt | 44 B | ~~no~~ yes |',
  '| report.pdf | 1.2 MB | yes |',
  '',
  'To add the sizes up:',
  '',
  '```ts',
  CODE,
  '```',
].join('\n');
// More columns than a 360 px panel holds, one with a name that has no break opportunity.
const WIDE_TABLE = [
  '| File | Size | Modified | Owner | Description |',
  '|---|---|---|---|---|',
  '| quarterly_report_with_a_name_far_too_long_for_any_side_panel.pdf | 1.2 MB | 2026-11-30 14:02 | finance-team | The numbers for the quarter, as sent to the board. |',
].join('\n');

describe('the chat renders', () => {
  it('a table, and a code block with its language and a Copy button that fills the clipboard', async () => {
    await newChat(panel);
    await useScriptedModel(panel, model, 'openai');
    // The panel's page may write to and read the clipboard; the Copy buttons need it focused.
    // Chromium refuses a grant for a chrome-extension:// origin ("opaque"), so it goes to all.
    await session.browser.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await panel.bringToFront();
    model.script({ kind: 'text', text: RENDERED_REPLY });

    await sendMessage(panel, 'Which files are in the report folder?');
    const log = conversationLog(panel);
    const table = log.getByRole('table');
    await table.waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      'File',
      'Size',
      'Kept',
    ]);
    expect(await table.getByRole('row').count()).toBe(3);
    expect(await table.locator('del').textContent()).toBe('no');
    // The reply is done streaming once its own Copy button is there.
    const copyMessage = log.getByRole('button', { name: 'Copy message' });
    await vi.waitFor(async () => {
      expect(await copyMessage.count()).toBe(2);
    });

    const codeBlock = log.locator('.sy-code');
    expect(await codeBlock.locator('.sy-code__language').textContent()).toBe('ts');
    expect(await codeBlock.locator('pre').textContent()).toBe(`${CODE}\n`);

    await screenshotSidePanelModes(panel, 'sidepanel-rendering');

    const copyCode = codeBlock.getByRole('button', { name: 'Copy code' });
    await copyCode.click();
    await vi.waitFor(async () => {
      expect(await copyCode.textContent()).toBe('Copied');
    });
    expect(await readClipboard()).toBe(CODE);
    // The feedback goes (after COPY_FEEDBACK_MS); the button reads "Copy" again.
    await vi.waitFor(
      async () => {
        expect(await copyCode.textContent()).toBe('Copy');
      },
      { timeout: 10_000, interval: 100 },
    );

    // The reply's Copy gives its markdown as the model wrote it; the user's, the words typed.
    await copyMessage.last().click();
    await vi.waitFor(async () => {
      expect(await readClipboard()).toBe(RENDERED_REPLY);
    });
    await copyMessage.first().click();
    await vi.waitFor(async () => {
      expect(await readClipboard()).toBe('Which files are in the report folder?');
    });
  });

  it('a table wider than the panel scrolls inside the message; the panel does not widen', async () => {
    await panel.setViewportSize({ width: 360, height: SIDE_PANEL_VIEWPORT.height });
    model.script({ kind: 'text', text: WIDE_TABLE });
    await sendMessage(panel, 'And with every detail?');
    const table = conversationLog(panel).getByRole('table').last();
    await table.getByText('finance-team').waitFor();

    const widths = await table.evaluate((element) => {
      const wrapper = element.closest('.sy-md-table');
      const transcript = element.closest('.sy-transcript');
      if (wrapper === null || transcript === null) throw new Error('no wrapper or transcript');
      return {
        page: document.documentElement.scrollWidth,
        transcript: { scroll: transcript.scrollWidth, client: transcript.clientWidth },
        wrapper: { scroll: wrapper.scrollWidth, client: wrapper.clientWidth },
      };
    });
    expect(widths.page).toBeLessThanOrEqual(360);
    expect(widths.transcript.scroll).toBeLessThanOrEqual(widths.transcript.client);
    expect(widths.wrapper.scroll).toBeGreaterThan(widths.wrapper.client);
    // The keyboard can scroll it: the region takes focus.
    await panel.getByRole('group', { name: 'Table' }).last().focus();
    await panel.keyboard.press('ArrowRight');
    await vi.waitFor(async () => {
      expect(
        await table.evaluate((element) => element.closest('.sy-md-table')?.scrollLeft ?? 0),
      ).toBeGreaterThan(0);
    });
    await panel.setViewportSize(SIDE_PANEL_VIEWPORT);
  });
});

/** The clipboard as the side panel's page reads it (needs the permission granted above). */
function readClipboard(): Promise<string> {
  return panel.evaluate(() => navigator.clipboard.readText());
}

/** Waits until the extension's storage holds `text` (the worker saves the conversation there). */
async function waitUntilStored(text: string): Promise<void> {
  await session.browser.worker.evaluate(async (wanted) => {
    for (;;) {
      const stored = JSON.stringify(await chrome.storage.local.get(null));
      if (stored.includes(wanted)) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }, text);
}
