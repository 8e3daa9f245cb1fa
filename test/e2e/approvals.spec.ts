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
import { openSidePanel, screenshot, useScriptedModel, waitForTools } from './support/ui';

// Journey (issue 4, design D8): the model asks for an MCP tool, the side panel's approval card
// shows exactly what would run, and the user's answer is what happens: Allow once runs it once,
// Deny runs nothing and the model is told, Always allow writes the allow-list through the host so
// the next call of that tool runs without a card. Real extension, host and filesystem server; the
// model is the scripted loopback server speaking OpenAI chat completions.

const READ = 'filesystem__read_text_file';
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
  await waitForTools(panel, [READ]);
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

    await meter.getByText(/tokens per turn · MCP tools/).click();

    expect(await meter.getByRole('img').getAttribute('aria-label')).toMatch(
      /^Tokens per turn: System prompt [\d,]+, Conversation [\d,]+, Built-in tools [\d,]+, MCP tools [\d,]+$/,
    );
    expect(await meter.getByText('Largest MCP servers:').textContent()).toMatch(
      /^Largest MCP servers: (filesystem|memory) \S+, (filesystem|memory) \S+$/,
    );
    await screenshot(panel, 'sidepanel-context-meter');
    await meter.getByText(/tokens per turn · MCP tools/).click();
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
