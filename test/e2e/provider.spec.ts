import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageParamsOf } from '../../extension/messaging/ui-protocol';
import { startLoopbackServer } from '../support/loopback-server';
import { startScriptedModel } from './support/scripted-model';
import { useSwitchyard } from './support/session';
import { conversationLog, sendMessage } from './support/side-panel';
import {
  expectFitsWidth,
  openOptions,
  openSidePanel,
  SCREENSHOT_DIR,
  uiRequest,
  useScriptedModel,
} from './support/ui';

// Journey (issue 14, provider setup): on the options page "Test connection" makes one request to
// the provider from the service worker and names the real cause — success with the model count,
// a refused key, nothing listening, and the browser's site access not granted (with the button
// that asks for it). The chat names missing access the same way, where it used to say only
// "Failed to fetch". The model is the loopback scripted model; for "no access" it sends no CORS
// headers, as a local server may not.
//
// OpenAI's Responses API, chosen on the form, carries the chat (the loopback speaks its stream).
//
// Not driven here: answering the browser's own permission prompt (a browser dialog, which
// headless Chromium offers no way to accept); the button that opens it is checked to be there.

const session = useSwitchyard({ launch: true });
const model = await startScriptedModel();
/** A model that sends no CORS headers: only the site access lets the worker read it. */
const noCors = await startScriptedModel([], { cors: false });
let options: Page;

afterAll(async () => {
  await model.close();
  await noCors.close();
});

function providerSection(page: Page): Locator {
  return page.locator('section', { has: page.locator('#provider-heading') });
}

async function testConnection(page: Page): Promise<Locator> {
  const section = providerSection(page);
  await section.getByRole('button', { name: 'Test connection' }).click();
  // The result replaces "Testing the connection…".
  await section.getByText('Testing the connection…').waitFor({ state: 'detached' });
  return section;
}

/** Points the worker at `settings` and reopens the options page so its form shows them. */
async function configure(settings: PageParamsOf<'settings/set'>['provider']): Promise<void> {
  await uiRequest(options, 'settings/set', { provider: settings });
  await options.reload();
  await providerSection(options).getByLabel('Model', { exact: true }).waitFor();
  await expect
    .poll(() => providerSection(options).getByLabel('Model', { exact: true }).inputValue())
    .toBe(settings.model);
}

/** The provider section alone, as `<name>[-narrow][-dark].png`. */
async function screenshotSection(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const [width, suffix] of [
    [1280, ''],
    [360, '-narrow'],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await expectFitsWidth(page, name);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await providerSection(page).screenshot({
        path: join(SCREENSHOT_DIR, `${name}${suffix}${scheme === 'dark' ? '-dark' : ''}.png`),
        animations: 'disabled',
        caret: 'hide',
      });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 720 });
}

beforeAll(async () => {
  options = await openOptions(session.browser);
});

describe('Test connection names the real cause', () => {
  it('succeeds against the model, counting the models its list has', async () => {
    await configure(model.settings('openai'));
    const section = await testConnection(options);
    await section.getByText('Connection works').waitFor();
    await section
      .getByText("Connected to OpenAI: 4 models available, including 'gpt-4.1'.")
      .waitFor();
    await screenshotSection(options, 'options-provider-test');

    // An empty Model field shows an example that reads as one (issue 14), not a value.
    const field = section.getByLabel('Model', { exact: true });
    await field.fill('');
    expect(await field.getAttribute('placeholder')).toBe('e.g. gpt-4.1-mini');
    // The edit made the result stale: it is gone.
    expect(await section.getByText('Connection works').count()).toBe(0);
    await section.screenshot({
      path: join(SCREENSHOT_DIR, 'options-provider-placeholder.png'),
      animations: 'disabled',
      caret: 'hide',
    });
  });

  it('a 401 names the key (Anthropic too)', async () => {
    await configure(model.settings('anthropic'));
    model.failNext(401, 'invalid x-api-key');
    const section = await testConnection(options);
    await section.getByText('Anthropic rejected the API key (HTTP 401): check the key.').waitFor();
  });

  it('a 404 names the base URL, a 500 the server', async () => {
    await configure(model.settings('openai'));
    model.failNext(404);
    let section = await testConnection(options);
    await section
      .getByText(/has no http:\/\/127\.0\.0\.1:\d+\/v1\/models \(HTTP 404\): check the base URL/)
      .waitFor();
    model.failNext(500, 'upstream exploded');
    section = await testConnection(options);
    await section
      .getByText(
        'OpenAI had a server error (HTTP 500): try again later. It said: "upstream exploded"',
      )
      .waitFor();
  });

  it('a closed port names the refused connection', async () => {
    const closed = await startLoopbackServer(() => ({ kind: 'json', status: 200, body: {} }));
    await closed.close();
    await configure({
      kind: 'openai-compatible',
      name: 'Local',
      baseURL: closed.baseURL,
      model: 'llama3.1',
    });
    const section = await testConnection(options);
    await section.getByText('Connection failed').waitFor();
    await section
      .getByText(
        /Cannot reach 127\.0\.0\.1:\d+: the name does not resolve or the connection was refused/,
      )
      .waitFor();
  });

  it('a server that needs the site access names it and offers it', async () => {
    await configure(noCors.settings('openai'));
    const origin = new URL(noCors.baseURL).host;
    const section = await testConnection(options);
    await section.getByText('Access not granted').waitFor();
    await section
      .getByText(`Switchyard has no permission to reach ${origin}`, { exact: false })
      .waitFor();
    await section.getByRole('button', { name: `Allow access to ${origin}` }).waitFor();
    // The server was reached by the plain request only: no model request got through.
    expect(noCors.requests).toEqual([]);
    await screenshotSection(options, 'options-provider-no-access');
  });
});

describe('the chat', () => {
  it('names missing site access where it said "Failed to fetch", with the same button', async () => {
    // Still pointed at the model without CORS headers (previous test).
    const origin = new URL(noCors.baseURL).host;
    const panel = await openSidePanel(session.browser);
    await sendMessage(panel, 'hello?');
    const log = conversationLog(panel);
    // The SDK retries a network failure twice (with backoff) before the run reports it.
    await log
      .getByText(`Switchyard has no permission to reach ${origin}`, { exact: false })
      .waitFor({ timeout: 30_000 });
    await log.getByRole('button', { name: `Allow access to ${origin}` }).waitFor();
    expect(await log.getByText('Failed to fetch').count()).toBe(0);
    await panel.close();
  });

  it("speaks OpenAI's Responses API when the form says so", async () => {
    await configure(model.settings('openai-responses'));
    expect(await providerSection(options).getByLabel('API', { exact: true }).inputValue()).toBe(
      'responses',
    );
    const before = model.requests.length;
    model.script({ kind: 'text', text: 'answered over Responses' });
    const panel = await openSidePanel(session.browser);
    await sendMessage(panel, 'which API?');
    await conversationLog(panel).getByText('answered over Responses').waitFor();
    expect(model.requests.slice(before).map((request) => [request.api, request.raw.url])).toEqual([
      ['openai-responses', '/v1/responses'],
    ]);
    await panel.close();
  });

  it('and a running server with CORS still answers without it', async () => {
    await useScriptedModel(options, model);
    model.script({ kind: 'text', text: 'still fine' });
    const panel = await openSidePanel(session.browser);
    await sendMessage(panel, 'hi');
    await conversationLog(panel).getByText('still fine').waitFor();
    await panel.close();
  });
});
