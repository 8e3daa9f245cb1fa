import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OUTCOME_TEXT } from '../../extension/background/tool-outcome';
import { EVERYTHING_SERVER } from '../integration/host-harness';
import { startScriptedModel } from './support/scripted-model';
import { useSwitchyard } from './support/session';
import { approvalCard, conversationLog, sendMessage, toolRow } from './support/side-panel';
import {
  openSidePanel,
  screenshotSidePanelModes,
  useScriptedModel,
  waitForTools,
} from './support/ui';

// Journey (issue 14): a long tool call shows its server's progress and how long it has run, and
// the user cancels that call alone: the host cancels it at the server, the model is told the user
// cancelled it, and the run goes on to an answer (Stop would have ended the run). Real extension,
// host and server-everything (its long-running operation reports progress at every step); the
// model is the scripted loopback server.

const LONG = 'everything__trigger-long-running-operation';

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
  await waitForTools(panel, [LONG]);
});

afterAll(async () => {
  await model.close();
});

describe('a long tool call', () => {
  it('shows its progress, and Cancel ends that call while the run goes on', async () => {
    const told = 'I stopped the operation as you asked.';
    model.script(
      // Sixty steps a second apart: far longer than the test, so only Cancel ends it.
      { kind: 'tool-call', name: LONG, arguments: { duration: 60, steps: 60 } },
      {
        kind: 'text',
        text: (seen) =>
          seen.toolResults.at(-1)?.content === OUTCOME_TEXT.cancelledDuringRun
            ? told
            : 'The operation did not end as cancelled.',
      },
    );
    await sendMessage(panel, 'Run the long operation.');
    await approvalCard(panel, LONG).getByRole('button', { name: 'Allow once' }).click();

    // The server's steps arrive as progress: a bar with "n of 60" and the time it has run.
    const log = conversationLog(panel);
    const bar = log.getByRole('progressbar', { name: `Progress of ${LONG}` });
    await bar.waitFor();
    await log
      .getByRole('status')
      .filter({ hasText: /\d+ of 60 · \d+ s/ })
      .waitFor();
    const fraction = Number(await bar.getAttribute('value'));
    expect(fraction).toBeGreaterThan(0);
    expect(fraction).toBeLessThan(1);
    await screenshotSidePanelModes(panel, 'sidepanel-call-progress');

    await log.getByRole('button', { name: `Cancel ${LONG}` }).click();
    await log.getByText(told).waitFor();
    expect(await toolRow(panel, LONG).textContent()).toContain('cancelled');
    await bar.waitFor({ state: 'detached' });
    // The run went on (the model answered after the cancelled call), and the panel is idle.
    await panel.getByRole('button', { name: 'Send' }).waitFor();

    // The host ended the call at the server: the audit log says it was cancelled (its lines are
    // written in batches, off the call's path, so wait for this one).
    await vi.waitFor(
      () => {
        const calls = session.profile.auditLog().filter((e) => e.exposedName === LONG);
        expect(calls.at(-1)?.outcome).toBe('cancelled');
      },
      { timeout: 10_000 },
    );
  });
});
