import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../integration/host-harness';
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server';
import { startScriptedModel } from './support/scripted-model';
import { useSwitchyard } from './support/session';
import { approvalCard, conversationLog, newChat, sendMessage } from './support/side-panel';
import {
  openSidePanel,
  screenshotSidePanelModes,
  useScriptedModel,
  waitForTools,
} from './support/ui';

// Journey (issue 12 part 4): a tool's MCP App shown in the side panel's sandbox. server-pdf (a
// real ext-apps server from npm) renders a PDF in its viewer, which fetches the bytes through its
// app-only tool, on an approval card marked as the app's. The probe fixture's hostile app tries
// to reach the network (a loopback server that records every request), the extension's APIs,
// its parent, cookies, storage, other frames, popups and navigation, and fails at each. Real
// extension, host and servers; the model is the scripted loopback server.

const PDF_SERVER = join(ROOT, 'node_modules/@modelcontextprotocol/server-pdf/dist/index.js');
const PDF_FILE = join(ROOT, 'test/fixtures/apps/hello.pdf');
const PROBE_SERVER = join(ROOT, 'test/fixtures/app-server.mjs');
const REPORT = join(mkdtempSync(join(tmpdir(), 'switchyard-apps-')), 'report.jsonl');

const session = useSwitchyard({
  servers: () => ({
    pdf: { command: process.execPath, args: [PDF_SERVER, '--stdio', PDF_FILE] },
    probe: { command: process.execPath, args: [PROBE_SERVER, `--report=${REPORT}`] },
  }),
});
const model = await startScriptedModel();
let target: LoopbackServer;
let panel: Page;

beforeAll(async () => {
  target = await startLoopbackServer(() => ({
    kind: 'text',
    status: 200,
    contentType: 'text/plain',
    body: 'reached',
  }));
  panel = await openSidePanel(session.browser);
  await useScriptedModel(panel, model, 'openai');
  await waitForTools(panel, ['pdf__display_pdf', 'probe__show_probe']);
});

afterAll(async () => {
  await model.close();
  await target.close();
});

/** The app's own frame: the srcdoc document inside the sandbox page. */
async function appFrame(page: Page, marker: string): Promise<Frame> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    for (const frame of page.frames()) {
      if (frame.url() !== 'about:srcdoc') continue;
      const found = await frame
        .evaluate((text) => document.body.innerHTML.includes(text), marker)
        .catch(() => false);
      if (found) return frame;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no app frame shows '${marker}'`);
}

/** The probe app frame that was given a message to propose (its button is shown). */
async function proposingFrame(page: Page): Promise<Frame> {
  for (let tries = 0; tries < 100; tries += 1) {
    for (const frame of page.frames()) {
      if (frame.url() !== 'about:srcdoc') continue;
      const proposing = await frame
        .evaluate(() => document.querySelector('#propose:not([hidden])') !== null)
        .catch(() => false);
      if (proposing) return frame;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no app frame proposes a message');
}

/** Has the model call `name` and allows the call once from its card. */
async function callThroughModel(name: string, args: Record<string, unknown>): Promise<void> {
  model.script(
    { kind: 'tool-call', name, arguments: args, text: 'Showing it.' },
    { kind: 'text', text: 'Here it is.' },
  );
  await sendMessage(panel, 'Show it to me.');
  const card = approvalCard(panel, name);
  await card.waitFor();
  await card.getByRole('button', { name: 'Allow once' }).click();
  await conversationLog(panel).getByText('Here it is.').waitFor();
}

describe('MCP Apps in the side panel', () => {
  it('shows a hostile app that fails at every way out of its sandbox', async () => {
    await callThroughModel('probe__show_probe', { target: target.baseURL });
    // Tools only an app may call were never offered to the model.
    const offered = model.requests.at(-1)?.tools ?? [];
    expect(offered).toContain('pdf__display_pdf');
    expect(offered).not.toContain('pdf__read_pdf_bytes');
    expect(offered).not.toContain('probe__probe_report');
    const log = conversationLog(panel);
    await log.getByText('App from probe').waitFor();
    // The app reports through its app-only tool: the card says the app asks, not the model.
    const card = approvalCard(panel, 'probe__probe_report');
    await card.waitFor();
    await card.getByText('From the probe app, not the model', { exact: false }).waitFor();
    const frame = await appFrame(panel, 'Probe app');
    // The theme reached the app through ui/initialize, and a change after it loaded follows.
    await frame.locator('#title', { hasText: 'Probe app (light)' }).waitFor();
    await panel.emulateMedia({ colorScheme: 'dark' });
    await frame.locator('#title', { hasText: 'Probe app (dark)' }).waitFor();
    await panel.emulateMedia({ colorScheme: 'light' });
    await frame.locator('#title', { hasText: 'Probe app (light)' }).waitFor();
    const results = JSON.parse((await frame.locator('#results').textContent()) ?? '{}') as Record<
      string,
      string
    >;
    // What the user sees: the app's findings, and its call waiting on a card marked as the app's.
    await screenshotSidePanelModes(panel, 'sidepanel-app-sandbox');
    await card.getByRole('button', { name: 'Allow once' }).click();

    for (const probe of [
      'fetch',
      'image',
      'websocket',
      'cookie',
      'localStorage',
      'parent.document',
      'top.document',
      'other frame',
      'window.open',
      'top.location',
      'nested frame fetch',
      'chrome.runtime',
    ]) {
      expect(results[probe], probe).toMatch(/^blocked/u);
    }
    await frame
      .locator('#state', { hasText: 'done' })
      .waitFor()
      .catch(() => undefined);
    // Its own navigation away (last) and the beacon it queued reached nothing either.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(target.requests).toEqual([]);
    // The report came through the bridge once; the message it forged to the panel did nothing.
    const lines = existsSync(REPORT) ? readFileSync(REPORT, 'utf8').trim().split('\n') : [];
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('forged');
  });

  it("puts an app's proposed message into an empty box only, never over the user's draft", async () => {
    await newChat(panel);
    const text = 'Proposed by the probe app.';
    await callThroughModel('probe__show_probe', { target: '', message: text });
    const box = panel.getByRole('textbox', { name: 'Message' });
    // The user's message had just gone, so the box was empty: the app's text is in it, marked.
    await panel.getByText('app: read it before you send it.', { exact: false }).waitFor();
    expect(await box.inputValue()).toBe(text);
    const frame = await proposingFrame(panel);
    await frame.locator('#proposal', { hasText: 'proposal 1: placed' }).waitFor();

    // The user writes their own words; the app proposes again: the draft stays, and says so.
    await box.fill('My own question.');
    await frame.locator('#propose').click();
    await frame.locator('#proposal', { hasText: 'proposal 2: not placed' }).waitFor();
    await panel.getByText('your draft was kept', { exact: false }).waitFor();
    expect(await box.inputValue()).toBe('My own question.');
    await box.fill('');
  });

  it('renders server-pdf’s viewer, its page bytes fetched by the app on its own card', async () => {
    await newChat(panel);
    await callThroughModel('pdf__display_pdf', { url: PDF_FILE });
    await conversationLog(panel).getByText('App from pdf').waitFor();
    const card = approvalCard(panel, 'pdf__read_pdf_bytes');
    await card.waitFor();
    await card.getByText('From the pdf app, not the model', { exact: false }).waitFor();
    await card.getByRole('button', { name: 'Always allow this tool' }).click();
    const frame = await appFrame(panel, 'canvas');
    // The viewer drew the page (the canvas shows once rendered) and counts its one page.
    await frame.locator('canvas').first().waitFor();
    await frame.getByText('of 1').waitFor();
    await screenshotSidePanelModes(panel, 'sidepanel-app-pdf');
  });
});
