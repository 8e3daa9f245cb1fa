import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ActivityEntrySchema } from '../../protocol/activity';
import { PROTOCOL_VERSION, requestMethods } from '../../protocol/methods';
import { helloRequest, probeHost } from './support/host-probe';
import { startScriptedModel } from './support/scripted-model';
import { useSwitchyard } from './support/session';
import { approvalCard, conversationLog, sendMessage } from './support/side-panel';
import {
  openOptions,
  openPopup,
  openSidePanel,
  screenshot,
  screenshotOptionsModes,
  uiRequest,
  useScriptedModel,
  waitForTools,
} from './support/ui';

// Journey (issue 13, the activity view): the model calls a tool, the user allows it on the
// approval card, and the options page's Activity table shows the call with who decided it (the
// policy asked, the user approved), beside the launch approvals made in a terminal at setup.
// The server filter narrows it; "Load older activity" pages back through a log longer than a
// page; the popup links to it; `switchyard activity` reads the same log without a host.

const READ = 'filesystem__read_text_file';
const GRAPH = 'memory__read_graph';
/** More calls than one page of the view (50) holds. */
const MANY = 55;

const session = useSwitchyard({ workspaceFiles: { 'notes.txt': 'hello from the workspace' } });
const model = await startScriptedModel();
let options: Page;

function table(page: Page): Locator {
  return page.getByRole('table', { name: 'Activity' });
}

/** The table's body rows (the header row has no cells). */
function rows(page: Page): Locator {
  return table(page)
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
}

/** The text of each cell of `row`, in column order. */
async function cells(row: Locator): Promise<string[]> {
  return (await row.getByRole('cell').allInnerTexts()).map((text) => text.trim());
}

/** Scrolls so the Activity heading is at the top of the viewport (for a screenshot). */
async function scrollToActivity(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Activity', exact: true }).evaluate((node) => {
    node.scrollIntoView({ block: 'start' });
  });
}

beforeAll(async () => {
  await session.browser.waitForConnection('connected');
});

afterAll(async () => {
  await model.close();
});

describe('the activity view', () => {
  it('shows a tool call the user approved, with who decided, newest first', async () => {
    const panel = await openSidePanel(session.browser);
    await useScriptedModel(panel, model, 'openai');
    await waitForTools(panel, [READ]);
    model.script(
      {
        kind: 'tool-call',
        name: READ,
        arguments: { path: join(session.profile.workspace, 'notes.txt') },
      },
      { kind: 'text', text: 'It says hello.' },
    );
    await sendMessage(panel, 'What is in notes.txt?');
    await approvalCard(panel, READ).getByRole('button', { name: 'Allow once' }).click();
    await conversationLog(panel).getByText('It says hello.').waitFor();
    model.script(
      { kind: 'tool-call', name: READ, arguments: { path: join(session.profile.workspace, 'x') } },
      { kind: 'text', text: 'Understood, I will not.' },
    );
    await sendMessage(panel, 'And the file x?');
    await approvalCard(panel, READ).getByRole('button', { name: 'Deny' }).click();
    await conversationLog(panel).getByText('Understood, I will not.').waitFor();
    await panel.close();

    options = await openOptions(session.browser);
    await rows(options).first().waitFor();
    // The host wrote its queued entries before answering: the calls are there at once.
    const shown = await Promise.all([0, 1, 2, 3].map((i) => cells(rows(options).nth(i))));
    expect(shown.map((row) => row.slice(1, 6))).toEqual([
      ['call', 'filesystem', READ, 'denied by you on the approval card', 'denied'],
      ['call', 'filesystem', READ, 'asked you first (default policy)', 'approval-required'],
      ['call', 'filesystem', READ, 'approved by you on the approval card', 'ok'],
      ['call', 'filesystem', READ, 'asked you first (default policy)', 'approval-required'],
    ]);
    expect(shown[2]?.[0]).toMatch(/^\w{3} \d{1,2}, \d\d:\d\d:\d\d$/);
    expect(shown[2]?.[6]).toMatch(/^\d[\d,]* ms$/);
    // The launches approved at setup (`switchyard trust --all --yes`), credited to the terminal.
    const trust = rows(options).filter({ hasText: 'approved by you in a terminal' });
    expect(await trust.count()).toBe(2);
    expect(await options.getByText('That is all the log holds').count()).toBe(1);
  });

  it('narrows to one server, and says so when it has nothing of a kind', async () => {
    await options.getByRole('combobox', { name: 'Server' }).selectOption('memory');
    // Until the narrowed page arrives the table can be empty, which has no filesystem row either:
    // wait for rows, none of them filesystem's.
    await vi.waitFor(async () => {
      const shown = await rows(options).allInnerTexts();
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.join('\n')).not.toContain('filesystem');
    });
    expect(await cells(rows(options).first())).toEqual([
      expect.any(String),
      'trust',
      'memory',
      '—',
      'approved by you in a terminal',
      '—',
      '—',
    ]);

    await options.getByRole('combobox', { name: 'Show' }).selectOption('call');
    await options.getByRole('status').getByText('No tool calls of memory yet.').waitFor();
    expect(await table(options).count()).toBe(0);
    await scrollToActivity(options);
    await screenshot(options, 'options-activity-empty');

    await options.getByRole('combobox', { name: 'Server' }).selectOption('');
    await options.getByRole('combobox', { name: 'Show' }).selectOption('');
    await rows(options).filter({ hasText: READ }).first().waitFor();
  });

  it('takes the screenshots for the docs: default width and 360 px, light and dark', async () => {
    await rows(options).first().waitFor();
    await screenshotOptionsModes(options, 'options-activity', 'Activity');
  });

  it('pages back through more activity than one page holds', async () => {
    // Calls from a second host sharing the home, as another browser profile's would be.
    const outcome = await probeHost(session.browser.worker, [
      helloRequest(PROTOCOL_VERSION),
      { method: 'servers/restart', params: { server: 'memory' } },
      { method: 'policy/set', params: { tool: GRAPH, policy: 'allow' } },
      ...Array.from({ length: MANY }, () => ({
        method: 'tools/call',
        params: { name: GRAPH, arguments: {} },
      })),
    ]);
    expect(outcome.kind).toBe('replies');
    // That host writes its log within its batch delay, and on its way out.
    await vi.waitFor(
      () => {
        const calls = session.profile.auditLog().filter((line) => line['exposedName'] === GRAPH);
        expect(calls).toHaveLength(MANY);
      },
      { timeout: 10_000, interval: 50 },
    );

    await options.getByRole('button', { name: 'Refresh' }).click();
    await vi.waitFor(async () => {
      expect(await cells(rows(options).first())).toContain(
        'allowed by policy (rule memory__read_graph)',
      );
    });
    expect(await rows(options).count()).toBe(50);
    const total = session.profile.auditLog().length;

    await options.getByRole('button', { name: 'Load older activity' }).click();
    await options.getByText('That is all the log holds').waitFor();
    expect(await rows(options).count()).toBe(total);
    // Oldest last: the launch approvals made before the browser started.
    expect((await cells(rows(options).last()))[4]).toBe('approved by you in a terminal');
  });

  it('is what `switchyard activity` reads from the same files, without a host', () => {
    const printed = z
      .object({ entries: z.array(ActivityEntrySchema) })
      .parse(JSON.parse(session.profile.cli(['activity', '--server', 'filesystem', '--json'])));
    expect(
      printed.entries.slice(0, 2).map((e) => [e.exposedName, e.decision, e.by, e.via]),
    ).toEqual([
      [READ, 'denied', 'user', 'browser'],
      [READ, 'ask', 'policy', 'browser'],
    ]);
    const text = session.profile.cli(['activity', '--limit', '3']);
    expect(text).toMatch(/^TIME\s+EVENT\s+SERVER\s+TOOL\s+DECISION\s+OUTCOME\s+DURATION$/m);
    expect(text).toContain('allowed by policy (rule memory__read_graph)');
  });

  it('answers activity/list from pages through the worker, within a bounded page', async () => {
    const page = requestMethods['activity/list'].result.parse(
      await uiRequest(options, 'host/request', { method: 'activity/list', params: { limit: 200 } }),
    );
    expect(page.entries.length).toBeLessThanOrEqual(200);
    expect(page.entries[0]?.exposedName).toBe(GRAPH);
  });

  it('opens from the popup at the activity view', async () => {
    const popup = await openPopup(session.browser);
    const opened = session.browser.context.waitForEvent('page', (page) =>
      page.url().endsWith('/options.html#activity'),
    );
    await popup.getByRole('button', { name: 'Activity', exact: true }).click();
    const page = await opened;
    await rows(page).first().waitFor();
    await vi.waitFor(async () => {
      const top = await page
        .getByRole('heading', { name: 'Activity', exact: true })
        .evaluate((node) => node.getBoundingClientRect().top);
      expect(top).toBeGreaterThanOrEqual(0);
      expect(top).toBeLessThan(100);
    });
    await page.close();
    await popup.close();
  });
});
