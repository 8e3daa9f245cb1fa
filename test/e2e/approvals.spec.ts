import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OUTCOME_TEXT } from '../../extension/background/tool-outcome';
import { unwrapUntrusted } from '../../protocol/untrusted/block';
import { startScriptedModel } from './support/scripted-model';
import { useSwitchyard } from './support/session';
import {
  approvalCard,
  cardField,
  conversationLog,
  newChat,
  sendMessage,
  toolPolicy,
  toolRow,
} from './support/side-panel';
import {
  SIDE_PANEL_VIEWPORT,
  openSidePanel,
  screenshot,
  screenshotSidePanelModes,
  useScriptedModel,
  waitForTools,
} from './support/ui';

// Journey (issue 4, design D8): the model asks for an MCP tool, the side panel's approval card
// shows exactly what would run, and the user's answer is what happens: Allow once runs it once,
// Deny runs nothing and the model is told, Always allow writes the allow-list through the host so
// the next call of that tool runs without a card. Real extension, host and filesystem server; the
// model is the scripted loopback server speaking OpenAI chat completions.

const READ = 'filesystem__read_text_file';
const LIST = 'filesystem__list_directory';
/** Annotated `destructiveHint: true` by the reference filesystem server. */
const WRITE = 'filesystem__write_file';
const NOTES = 'Buy oat milk.\nCall the plumber on Tuesday.';
const PLAN = 'Ship the side panel by Friday.';

const session = useSwitchyard({ workspaceFiles: { 'notes.txt': NOTES, 'plan.txt': PLAN } });
const model = await startScriptedModel();
let panel: Page;

const inWorkspace = (file: string): string => join(session.profile.workspace, file);

/** What the model's last request carried as the payload of its last tool result, unwrapped. */
function lastPayload(content: string | undefined): string | undefined {
  return unwrapUntrusted(content ?? '')?.payload;
}

beforeAll(async () => {
  panel = await openSidePanel(session.browser);
  await useScriptedModel(panel, model, 'openai');
  await waitForTools(panel, [READ, LIST, WRITE]);
});

afterAll(async () => {
  await model.close();
});

describe('a tool call waits for the user', () => {
  it('shows server, tool and the exact arguments; Allow once runs it and the answer streams back', async () => {
    const path = inWorkspace('notes.txt');
    const answer = 'Two things: buy oat milk, and call the plumber on Tuesday.';
    const first = model.requests.length;
    model.script(
      { kind: 'tool-call', name: READ, arguments: { path }, text: 'Let me open notes.txt.' },
      {
        kind: 'text',
        text: (seen) =>
          lastPayload(seen.toolResults.at(-1)?.content) === NOTES ? answer : 'I could not read it.',
      },
    );

    await sendMessage(panel, 'What is in notes.txt?');
    const card = approvalCard(panel, READ);
    await card.waitFor();

    expect(await cardField(card, 'Server').textContent()).toBe('filesystem');
    expect(await cardField(card, 'Tool').textContent()).toBe('read_text_file (the server’s name)');
    expect(await cardField(card, 'Called as').textContent()).toBe(READ);
    expect(await card.getByLabel(`Arguments for ${READ}`).textContent()).toBe(
      JSON.stringify({ path }, null, 2),
    );
    // The model waits for the result: nothing has run.
    expect(model.requests).toHaveLength(first + 1);
    expect(await toolRow(panel, READ).textContent()).toContain('waiting for your approval');
    await screenshot(panel, 'sidepanel-approval-card');

    await card.getByRole('button', { name: 'Allow once' }).click();
    await conversationLog(panel).getByText(answer).waitFor();

    expect(await card.count()).toBe(0);
    expect(await toolRow(panel, READ).textContent()).toContain('done');
    const second = await model.request(first + 1);
    expect(second.toolResults).toHaveLength(1);
    expect(second.toolResults[0]?.callId).toBe(`call_${first}`);
    // The file's text reached the model inside the host's untrusted-data block, verbatim.
    expect(unwrapUntrusted(second.toolResults[0]?.content ?? '')).toMatchObject({
      server: 'filesystem',
      tool: 'read_text_file',
      payload: NOTES,
    });
    await vi.waitFor(() => {
      expect(session.profile.auditLog()).toContainEqual(
        expect.objectContaining({
          event: 'call',
          exposedName: READ,
          decision: 'approved',
          by: 'user',
        }),
      );
    });
    // The row opens to what the model read, labelled as a server's untrusted output.
    await toolRow(panel, READ).click();
    const output = conversationLog(panel).getByText(
      'Untrusted output from filesystem/read_text_file',
    );
    await output.waitFor();
    expect(await output.locator('xpath=..').textContent()).toContain(NOTES);
    await screenshot(panel, 'sidepanel-answer');
  });

  it('meters the context: system prompt, conversation, built-in and MCP tools, by server', async () => {
    const meter = panel.getByRole('region', { name: 'Context used per turn' });

    await meter.getByText(/ tokens( per turn)? · MCP tools/).click();

    expect(await meter.getByRole('img').getAttribute('aria-label')).toMatch(
      /^Tokens per turn: System prompt [\d,]+, Conversation [\d,]+, Built-in tools [\d,]+, MCP tools [\d,]+$/,
    );
    expect(await meter.getByText('Largest MCP servers:').textContent()).toMatch(
      /^Largest MCP servers: (filesystem|memory) \S+, (filesystem|memory) \S+$/,
    );
    await screenshot(panel, 'sidepanel-context-meter');
    await meter.getByText(/ tokens( per turn)? · MCP tools/).click();
  });

  it('Deny runs nothing; the model is told the user denied the call, and the panel shows it', async () => {
    await newChat(panel);
    const understood = 'Understood: I will not open plan.txt.';
    const first = model.requests.length;
    model.script(
      { kind: 'tool-call', name: READ, arguments: { path: inWorkspace('plan.txt') } },
      {
        kind: 'text',
        text: (seen) =>
          seen.toolResults.at(-1)?.content === OUTCOME_TEXT.userDenied
            ? understood
            : 'Something else happened.',
      },
    );
    const auditBefore = session.profile.auditLog().length;

    await sendMessage(panel, 'Summarize plan.txt.');
    await approvalCard(panel, READ).getByRole('button', { name: 'Deny' }).click();
    await conversationLog(panel).getByText(understood).waitFor();

    const after = await model.request(first + 1);
    expect(after.toolResults).toEqual([
      { callId: `call_${first}`, content: OUTCOME_TEXT.userDenied, isError: false },
    ]);
    expect(await toolRow(panel, READ).textContent()).toContain('denied');
    expect(await approvalCard(panel, READ).count()).toBe(0);
    // The host retired the approval; nothing reached the server.
    await vi.waitFor(() => {
      expect(session.profile.auditLog().slice(auditBefore)).toContainEqual(
        expect.objectContaining({
          event: 'call',
          exposedName: READ,
          decision: 'denied',
          by: 'user',
          via: 'browser',
          outcome: 'denied',
        }),
      );
    });
    expect(
      session.profile
        .auditLog()
        .slice(auditBefore)
        .filter((line) => line['decision'] === 'approved' || line['decision'] === 'allow'),
    ).toEqual([]);
  });

  it('after "Always allow this tool" the host allow-lists it, and a later call runs with no card', async () => {
    await newChat(panel);
    expect(toolPolicy(session.profile)).toEqual({});
    const first = model.requests.length;
    model.script(
      { kind: 'tool-call', name: READ, arguments: { path: inWorkspace('notes.txt') } },
      { kind: 'text', text: 'That was notes.txt.' },
    );

    await sendMessage(panel, 'Open notes.txt, and from now on read files without asking.');
    await approvalCard(panel, READ).getByRole('button', { name: 'Always allow this tool' }).click();
    await conversationLog(panel).getByText('That was notes.txt.').waitFor();

    expect(toolPolicy(session.profile)).toEqual({ [READ]: 'allow' });
    expect(lastPayload((await model.request(first + 1)).toolResults.at(-1)?.content)).toBe(NOTES);

    // From here on, any approval card showing up at all is a failure, however briefly.
    await panel.evaluate(() => {
      new MutationObserver(() => {
        if (document.querySelector('[aria-label="Tool calls waiting for your approval"]')) {
          document.body.dataset['sawApproval'] = 'yes';
        }
      }).observe(document.body, { childList: true, subtree: true });
    });
    model.script(
      { kind: 'tool-call', name: READ, arguments: { path: inWorkspace('plan.txt') } },
      {
        kind: 'text',
        text: (seen) =>
          lastPayload(seen.toolResults.at(-1)?.content) === PLAN
            ? 'The plan: ship the side panel by Friday.'
            : 'I could not read it.',
      },
    );
    await sendMessage(panel, 'Now plan.txt.');
    await conversationLog(panel).getByText('The plan: ship the side panel by Friday.').waitFor();

    expect(await panel.evaluate(() => document.body.dataset['sawApproval'])).toBeUndefined();
    expect(await approvalCard(panel, READ).count()).toBe(0);
    expect(await toolRow(panel, READ).last().textContent()).toContain('done');
    // The host ran it on the allow-list, not on an approval.
    await vi.waitFor(() => {
      expect(session.profile.auditLog()).toContainEqual(
        expect.objectContaining({ event: 'policy', rule: READ, decision: 'allow', by: 'user' }),
      );
      expect(session.profile.auditLog().slice(-1)).toEqual([
        expect.objectContaining({
          event: 'call',
          exposedName: READ,
          decision: 'allow',
          rule: READ,
          by: 'policy',
        }),
      ]);
    });
  });
});

/** What has keyboard focus: its accessible label or text, and whether it is a card's answer. */
async function focused(page: Page): Promise<{ name: string; tag: string; isAnswer: boolean }> {
  return page.evaluate(() => {
    const active = document.activeElement;
    return {
      name: (active?.getAttribute('aria-label') ?? active?.textContent ?? '').trim(),
      tag: active?.tagName.toLowerCase() ?? '',
      isAnswer: active?.closest('.sy-card__actions') !== null && active?.tagName === 'BUTTON',
    };
  });
}

/** Presses Tab until focus is on one of a card's answers; returns that button's name. */
async function tabToFirstAnswer(page: Page): Promise<string> {
  for (let presses = 0; presses < 12; presses += 1) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (now.isAnswer) return now.name;
  }
  throw new Error('Tab never reached an answer of the card');
}

/**
 * Presses `key` on the focused answer once the card offers it: a card holds its answers for a
 * moment after it (or its second step) appears, so a key or click already on its way does not
 * answer it (ApprovalCard's ANSWER_DELAY_MS).
 */
async function pressOnAnswer(page: Page, key: string): Promise<void> {
  await vi.waitFor(async () => {
    expect(
      await page.evaluate(() => document.activeElement?.getAttribute('aria-disabled') ?? null),
    ).toBeNull();
  });
  await page.keyboard.press(key);
}

/** Types into the message box from the keyboard and sends with Enter. */
async function typeAndSend(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).focus();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

async function expectFocusInComposer(page: Page): Promise<void> {
  await vi.waitFor(async () => {
    expect(await focused(page)).toMatchObject({ tag: 'textarea', name: 'Message' });
  });
}

// Journey (issue 14): the same gate with the keyboard alone. A new card takes focus on its
// heading (a screen reader reads the request before any answer), Tab reaches the default answer
// first, Escape denies, and focus comes back to the message box, never <body>. A tool whose
// server calls it destructive defaults to Deny, and "Always allow" asks once more in words.
describe('the approval gate by keyboard alone', () => {
  it('send, the card takes focus, Tab to Allow once, Enter allows; focus returns to the message box', async () => {
    await newChat(panel);
    const listed = 'The workspace holds notes.txt and plan.txt.';
    model.script(
      { kind: 'tool-call', name: LIST, arguments: { path: session.profile.workspace } },
      {
        kind: 'text',
        text: (seen) =>
          /notes\.txt/.test(seen.toolResults.at(-1)?.content ?? '') ? listed : 'Nothing listed.',
      },
    );

    await typeAndSend(panel, 'What files are in my workspace?');
    const card = approvalCard(panel, LIST);
    await card.waitFor();
    await vi.waitFor(async () => {
      expect(await focused(panel)).toMatchObject({ tag: 'h3', name: `Allow ${LIST}?` });
    });
    expect(await card.getByText('Esc denies').count()).toBe(1);

    expect(await tabToFirstAnswer(panel)).toBe('Allow once');
    await pressOnAnswer(panel, 'Enter');
    await conversationLog(panel).getByText(listed).waitFor();

    expect(await card.count()).toBe(0);
    await expectFocusInComposer(panel);
  });

  it('Escape on the next card denies it; the model is told, and focus is in the message box again', async () => {
    const understood = 'Understood: I will not list it.';
    const first = model.requests.length;
    model.script(
      { kind: 'tool-call', name: LIST, arguments: { path: session.profile.workspace } },
      {
        kind: 'text',
        text: (seen) =>
          seen.toolResults.at(-1)?.content === OUTCOME_TEXT.userDenied ? understood : 'Hmm.',
      },
    );

    await typeAndSend(panel, 'List it again, please.');
    await approvalCard(panel, LIST).waitFor();
    await vi.waitFor(async () => {
      expect(await focused(panel)).toMatchObject({ tag: 'h3', name: `Allow ${LIST}?` });
    });
    await panel.keyboard.press('Escape');
    await conversationLog(panel).getByText(understood).waitFor();

    expect((await model.request(first + 1)).toolResults.at(-1)?.content).toBe(
      OUTCOME_TEXT.userDenied,
    );
    expect(await approvalCard(panel, LIST).count()).toBe(0);
    await expectFocusInComposer(panel);
  });

  it('a destructive tool: Deny is the default, the answers stay in view at 360 px, and "Always allow" asks once more', async () => {
    await newChat(panel);
    const target = inWorkspace('todo.txt');
    // Long arguments: the card is taller than the approvals region at 360 px.
    const content = Array.from({ length: 60 }, (_, i) => `- item ${i + 1}: water the plants`).join(
      '\n',
    );
    const first = model.requests.length;
    model.script(
      { kind: 'tool-call', name: WRITE, arguments: { path: target, content } },
      { kind: 'text', text: 'Saved your list to todo.txt.' },
    );

    await typeAndSend(panel, 'Write my to-do list to todo.txt.');
    const card = approvalCard(panel, WRITE);
    await card.waitFor();
    await card.getByText(/marks this tool as destructive/).waitFor();
    await vi.waitFor(async () => {
      expect(await focused(panel)).toMatchObject({ tag: 'h3', name: `Allow ${WRITE}?` });
    });
    const deny = card.getByRole('button', { name: 'Deny', exact: true });
    expect(await deny.getAttribute('class')).toContain('sy-button--primary');
    const region = panel.getByRole('region', { name: 'Tool calls waiting for your approval' });
    expect(await region.evaluate((element) => element.scrollTop)).toBe(0);
    // As the card arrives (nothing scrolled), at 360 px and at the default width, the answers are
    // on screen and not under other content, although the arguments are longer than the region.
    for (const width of [360, SIDE_PANEL_VIEWPORT.width]) {
      await panel.setViewportSize({ width, height: SIDE_PANEL_VIEWPORT.height });
      for (const name of ['Deny', 'Allow once', 'Always allow this tool']) {
        const onTop = await card
          .getByRole('button', { name, exact: true })
          .evaluate((button, viewportHeight) => {
            const box = button.getBoundingClientRect();
            const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
            return (
              box.bottom <= viewportHeight && box.top >= 0 && hit !== null && button.contains(hit)
            );
          }, SIDE_PANEL_VIEWPORT.height);
        expect(onTop, `${name} at ${width} px`).toBe(true);
      }
    }
    await panel.setViewportSize(SIDE_PANEL_VIEWPORT);
    await screenshotSidePanelModes(panel, 'sidepanel-approval-destructive');

    expect(await tabToFirstAnswer(panel)).toBe('Deny');

    // Deny (focused) → Allow once → Always allow, then Enter: the second step, nothing done yet.
    await deny.focus();
    await panel.keyboard.press('Tab');
    await panel.keyboard.press('Tab');
    expect((await focused(panel)).name).toBe('Always allow this tool');
    await pressOnAnswer(panel, 'Enter');
    const question = card.getByText(`Add ${WRITE} to your allow-list?`);
    await question.waitFor();
    expect(await question.evaluate((node) => node === document.activeElement)).toBe(true);
    expect(await question.textContent()).toMatch(
      /may delete or overwrite data.*Switchyard still asks before every call/,
    );
    await screenshot(panel, 'sidepanel-approval-destructive-confirm');
    expect(toolPolicy(session.profile)[WRITE]).toBeUndefined();
    expect(existsSync(target)).toBe(false);
    expect(model.requests).toHaveLength(first + 1);

    // "No, go back" is first and returns to the three answers, focus on "Always allow".
    expect(await tabToFirstAnswer(panel)).toBe('No, go back');
    await pressOnAnswer(panel, 'Enter');
    await vi.waitFor(async () => {
      expect((await focused(panel)).name).toBe('Always allow this tool');
    });
    await pressOnAnswer(panel, 'Enter');
    await question.waitFor();
    await panel.keyboard.press('Tab');
    await panel.keyboard.press('Tab');
    expect((await focused(panel)).name).toBe('Yes, always allow');
    await pressOnAnswer(panel, 'Enter');
    await conversationLog(panel).getByText('Saved your list to todo.txt.').waitFor();

    expect(readFileSync(target, 'utf8')).toBe(content);
    expect(toolPolicy(session.profile)[WRITE]).toBe('allow');
    await expectFocusInComposer(panel);

    // What the second step said: the host still asks while the server calls the tool destructive.
    model.script(
      { kind: 'tool-call', name: WRITE, arguments: { path: target, content: 'overwritten' } },
      { kind: 'text', text: 'Left it as it was.' },
    );
    await typeAndSend(panel, 'Now overwrite it.');
    await approvalCard(panel, WRITE).waitFor();
    await panel.keyboard.press('Escape');
    await conversationLog(panel).getByText('Left it as it was.').waitFor();
    expect(readFileSync(target, 'utf8')).toBe(content);
    await expectFocusInComposer(panel);
  });
});

describe('a click meant for one card', () => {
  it('does not answer the next card that appears under it', async () => {
    await newChat(panel);
    const first = model.requests.length;
    const done = 'Listed it twice.';
    model.script(
      { kind: 'tool-call', name: LIST, arguments: { path: session.profile.workspace } },
      { kind: 'tool-call', name: LIST, arguments: { path: session.profile.workspace } },
      { kind: 'text', text: done },
    );
    await sendMessage(panel, 'List the workspace, then list it again.');
    const card = approvalCard(panel, LIST);
    await card.waitFor();
    // The second click of a double-click (or an impatient one) lands on whatever answer is under
    // the pointer when it arrives: here, the next card's first answer, the moment it is shown.
    await panel.evaluate(() => {
      const seen = new Set(
        [...document.querySelectorAll('[data-card-id]')].map((c) => c.getAttribute('data-card-id')),
      );
      const observer = new MutationObserver(() => {
        for (const next of document.querySelectorAll('[data-card-id]')) {
          if (seen.has(next.getAttribute('data-card-id'))) continue;
          const answer = next.querySelector('[data-decision="allow-once"]');
          if (!(answer instanceof HTMLElement)) continue;
          observer.disconnect();
          answer.click();
          next.setAttribute('data-clicked-at-once', '');
        }
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
    await card.getByRole('button', { name: 'Allow once' }).click();

    const next = panel.locator('[data-clicked-at-once]');
    await next.waitFor();
    const answer = next.getByRole('button', { name: 'Allow once' });
    // The card holds its answers for a moment, then offers them: the early click did nothing.
    await vi.waitFor(async () => {
      expect(await answer.getAttribute('aria-disabled')).toBeNull();
    });
    expect(model.requests).toHaveLength(first + 2);
    expect(await card.count()).toBe(1);
    expect(await toolRow(panel, LIST).last().textContent()).toContain('waiting for your approval');

    await answer.click();
    await conversationLog(panel).getByText(done).waitFor();
    expect(await card.count()).toBe(0);
  });

  it('does not answer a card shown again under it: the panel hidden and back holds its answers anew', async () => {
    await newChat(panel);
    const done = 'Listed it after all.';
    model.script(
      { kind: 'tool-call', name: LIST, arguments: { path: session.profile.workspace } },
      { kind: 'text', text: done },
    );
    await sendMessage(panel, 'List the workspace.');
    const card = approvalCard(panel, LIST);
    const answer = card.getByRole('button', { name: 'Allow once' });
    await vi.waitFor(async () => {
      expect(await answer.getAttribute('aria-disabled')).toBeNull();
    });
    // The side panel closed and opened again, or its window brought back: what the page is told.
    await panel.evaluate(() => {
      const show = (state: DocumentVisibilityState): void => {
        Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
      };
      show('hidden');
      show('visible');
    });
    expect(await answer.getAttribute('aria-disabled')).toBe('true');
    // A click already on its way lands on a held answer and does nothing.
    await answer.dispatchEvent('click');
    expect(await card.count()).toBe(1);
    await vi.waitFor(async () => {
      expect(await answer.getAttribute('aria-disabled')).toBeNull();
    });
    await answer.click();
    await conversationLog(panel).getByText(done).waitFor();
    expect(await card.count()).toBe(0);
  });
});
