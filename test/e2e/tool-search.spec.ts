import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { unwrapUntrusted } from '../../protocol/untrusted/block';
import { startScriptedModel } from './support/scripted-model';
import { useSwitchyard } from './support/session';
import { approvalCard, cardField, conversationLog, sendMessage } from './support/side-panel';
import {
  openSidePanel,
  screenshot,
  screenshotSidePanelModes,
  uiRequest,
  useScriptedModel,
  waitForTools,
} from './support/ui';

// Journey (issue 15 item 5, docs/decisions/0027): the default profile's tools are over its token
// budget, so the model is offered search_tools and the one pinned tool instead of every tool. The
// scripted model searches, reads the definition it found (inside an untrusted-data block), calls
// that tool by name, and the call waits at the same approval card as any MCP call; Allow once
// runs it. Real extension, host and reference servers; the model is the loopback server.

const READ = 'filesystem__read_text_file';
const PINNED = 'memory__read_graph';
const NOTES = 'Water the plants on Thursday.';

const session = useSwitchyard({ workspaceFiles: { 'notes.txt': NOTES } });
const model = await startScriptedModel();
let panel: Page;

beforeAll(async () => {
  panel = await openSidePanel(session.browser);
  await useScriptedModel(panel, model, 'openai');
  await waitForTools(panel, [READ, PINNED]);
  await uiRequest(panel, 'host/request', {
    method: 'profiles/set',
    params: {
      profile: {
        id: 'default',
        name: 'Default',
        match: [],
        mode: 'full',
        tokenBudget: 500,
        pinnedTools: [PINNED],
      },
    },
  });
});

afterAll(async () => {
  await model.close();
});

describe('tool search mode', () => {
  it('the model searches, then calls the tool it found through the approval card', async () => {
    const path = join(session.profile.workspace, 'notes.txt');
    const answer = 'The note says to water the plants on Thursday.';
    const first = model.requests.length;
    model.script(
      { kind: 'tool-call', name: 'search_tools', arguments: { query: 'read a text file' } },
      { kind: 'tool-call', name: READ, arguments: { path } },
      {
        kind: 'text',
        text: (seen) =>
          unwrapUntrusted(seen.toolResults.at(-1)?.content ?? '')?.payload === NOTES
            ? answer
            : 'I could not read it.',
      },
    );

    await sendMessage(panel, 'What does my note say?');
    const card = approvalCard(panel, READ);
    await card.waitFor();

    // First turn: search_tools and the pinned tool, not the rest of the listing.
    const offered = (await model.request(first)).tools;
    expect(offered).toContain('search_tools');
    expect(offered).toContain(PINNED);
    expect(offered).not.toContain(READ);
    // Second turn: the search's result is the found tool's definition, as untrusted data, and
    // the found tool is offered from then on.
    const second = await model.request(first + 1);
    const found = unwrapUntrusted(second.toolResults[0]?.content ?? '');
    expect(found).toMatchObject({ server: 'switchyard', tool: 'search_tools' });
    expect(found?.payload).toContain(`{"name":"${READ}"`);
    expect(second.tools).toContain(READ);

    // The found tool asks like any MCP call: same card, same fields.
    expect(await cardField(card, 'Called as').textContent()).toBe(READ);
    await screenshot(panel, 'sidepanel-tool-search-approval');
    await card.getByRole('button', { name: 'Allow once' }).click();
    await conversationLog(panel).getByText(answer).waitFor();

    // The side panel says search mode is on, and why.
    const meter = panel.getByRole('region', { name: 'Context used per turn' });
    await meter.getByText(/tool search on/).click();
    await meter.getByText(/^Tool search is on \(over this profile's budget\)/).waitFor();
    await screenshotSidePanelModes(panel, 'sidepanel-tool-search');
  });
});
