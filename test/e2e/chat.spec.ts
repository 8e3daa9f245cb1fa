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
import { clickButton, openSidePanel, useScriptedModel, waitForTools } from './support/ui';

// Journey (issue 4): the chat itself. Stop ends a reply mid-stream and leaves a transcript the
// model can be sent again (every tool call answered, even one stopped at its approval card); the
// conversation survives a browser restart; New Chat starts over; and the same ask, approve,
// answer round works against a model speaking the Anthropic messages format.

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
