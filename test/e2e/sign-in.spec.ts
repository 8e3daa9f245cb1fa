import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'wxt/browser';
import { z } from 'zod';
import { unwrapUntrusted } from '../../protocol/untrusted/block';
import { BASE_SCOPE, startOAuthFixture, TEST_USER, type OAuthFixture } from '../fixtures/oauth';
import { startScriptedModel } from './support/scripted-model';
import { useSwitchyard } from './support/session';
import { approvalCard, conversationLog, sendMessage, toolRow } from './support/side-panel';
import {
  POPUP_VIEWPORT,
  openPopup,
  openSidePanel,
  uiRequest,
  useScriptedModel,
  waitForTools,
} from './support/ui';

// Journey (issue 11, sign-in to a remote server): add an OAuth-protected server by pasting its
// URL into the popup; its row asks for sign-in; Sign in opens the browser's own sign-in window
// (identity.launchWebAuthFlow) on the authorization server, here a real one (oidc-provider) on
// loopback whose page the test fills in; closing that window cancels, Allow brings the browser
// back and the row says it is signed in with which scopes while the server starts; a tool
// called from the side panel runs as the AS's user; no token ever reaches the extension (its
// storage, its pages, its worker's log); Sign out puts the row back to asking for sign-in.

declare const chrome: typeof Browser;

/** The server's name in config.json, and the prefix of its tools. */
const SERVER = 'linear';
const WHOAMI = `${SERVER}__whoami`;

// Before useSwitchyard's beforeAll, which copies process.env into the browser's (so the host's)
// environment: the 0600 file under SWITCHYARD_HOME, no keyring on a CI machine, and the test
// can read what the host stored to look for it where it must not be.
process.env['SWITCHYARD_SECRET_STORE'] = 'file';
const session = useSwitchyard({ servers: () => ({}) });
const model = await startScriptedModel();

/** Row screenshots for review (not the docs' screenshots: the fixture's port changes per run). */
const SHOT_DIR = process.env['SIGN_IN_SHOTS'] ?? join(tmpdir(), 'sign-in-shots');
/** The narrowest popup the shots check besides the usual 400 px. */
const NARROW_WIDTH = 360;

let fixture: OAuthFixture;
let popup: Page;
let panel: Page | undefined;

/** A server's row in the list named "Servers": the list item holding its expand button. */
function row(name: string): Locator {
  return popup
    .getByRole('list', { name: 'Servers' })
    .getByRole('listitem')
    .filter({ has: popup.getByRole('button', { name, exact: true }) });
}

function signIn(): Locator {
  return row(SERVER).getByRole('group', { name: `Sign-in for ${SERVER}` });
}

/** Waits until the row's state badge reads `state`. */
async function waitForState(state: string): Promise<void> {
  await row(SERVER).getByText(state, { exact: true }).waitFor();
}

/**
 * Clicks Sign in and returns the browser's sign-in window: launchWebAuthFlow opens it as a
 * window of its own, which Playwright sees as a page of the context, on the AS's login form.
 */
async function openSignInWindow(): Promise<Page> {
  const opened = session.browser.context.waitForEvent('page', (page) =>
    page.url().startsWith(`${fixture.issuer}/interaction/`),
  );
  await signIn()
    .getByRole('button', { name: `Sign in to ${SERVER}`, exact: true })
    .click();
  const page = await opened;
  await page.locator('#allow').waitFor();
  return page;
}

/**
 * Screenshots of the row, light and dark, at the popup's width and at NARROW_WIDTH: what the
 * viewport shows of it (so a row wider than the window shows cut off), and the row whole.
 */
async function shootRow(name: string): Promise<void> {
  mkdirSync(SHOT_DIR, { recursive: true });
  // The pointer rests where the last click was: off the row, so no button shows its hover.
  await popup.mouse.move(0, 0);
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [POPUP_VIEWPORT.width, NARROW_WIDTH]) {
      await popup.emulateMedia({ colorScheme });
      await popup.setViewportSize({ width, height: POPUP_VIEWPORT.height });
      const options = { animations: 'disabled', caret: 'hide' } as const;
      const stem = join(SHOT_DIR, `${name}-${String(width)}-${colorScheme}`);
      await row(SERVER).screenshot({ ...options, path: `${stem}-row.png` });
      const box = await row(SERVER).boundingBox();
      if (box === null) throw new Error(`the row of ${SERVER} is not visible`);
      await popup.screenshot({
        ...options,
        path: `${stem}.png`,
        clip: { x: 0, y: Math.max(0, box.y - 8), width, height: box.height + 16 },
      });
    }
  }
  await popup.emulateMedia({ colorScheme: 'light' });
  await popup.setViewportSize(POPUP_VIEWPORT);
}

const SecretsFileSchema = z.object({ secrets: z.record(z.string(), z.string()) });
const SECRET_FIELDS = ['access_token', 'refresh_token', 'id_token', 'client_secret', 'verifier'];

interface HostSecret {
  /** The field it was found under (`access_token`, …), or `value` for a plain string. */
  readonly field: string;
  readonly value: string;
}

/** The values of the host's secret store (its 0600 file), parsed where they are JSON. */
function hostRecords(): unknown[] {
  const file = join(session.profile.switchyardHome, 'secrets.json');
  if (!existsSync(file)) return [];
  const { secrets } = SecretsFileSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  return Object.values(secrets).map((text): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  });
}

/**
 * Every secret the host keeps: the tokens, the PKCE verifier and any client secret inside each
 * record, and any value that is not JSON as a whole.
 */
function hostSecrets(): HostSecret[] {
  const found: HostSecret[] = [];
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    for (const [field, inner] of Object.entries(value)) {
      if (SECRET_FIELDS.includes(field) && typeof inner === 'string') {
        found.push({ field, value: inner });
      } else {
        visit(inner);
      }
    }
  };
  for (const record of hostRecords()) {
    if (typeof record === 'string') found.push({ field: 'value', value: record });
    else visit(record);
  }
  return found;
}

const ToolNamesSchema = z.object({ tools: z.array(z.object({ name: z.string() })) });

/** The tools the host offers the model now. */
async function offeredTools(): Promise<string[]> {
  const listed = ToolNamesSchema.parse(
    await uiRequest(popup, 'host/request', { method: 'tools/list', params: {} }),
  );
  return listed.tools.map((tool) => tool.name);
}

/** Field names and shapes of a token anywhere: OAuth's field names, a JWT's header. */
const TOKEN_SHAPE = /access_token|refresh_token|id_token|eyJ[\w-]{4,}\.[\w-]{4,}/;

beforeAll(async () => {
  // `form`: the authorization page waits for the user's Allow, so the window can be seen, and
  // closed, before anything is granted.
  fixture = await startOAuthFixture({ consent: 'form' });
  await session.browser.waitForConnection('connected');
  popup = await openPopup(session.browser);
});

afterAll(async () => {
  await panel?.close();
  await model.close();
  await fixture.stop();
  delete process.env['SWITCHYARD_SECRET_STORE'];
});

describe('signing in to a remote server from the popup', () => {
  it('adds the server by URL: the host needs a sign-in and the row offers one', async () => {
    await popup.getByRole('textbox', { name: 'Name' }).fill(SERVER);
    await popup.getByRole('textbox', { name: 'URL or command' }).fill(fixture.mcpUrl);
    await popup.getByRole('button', { name: 'Add server' }).click();

    await popup.getByRole('status').getByText(`Added ${SERVER}.`).waitFor();
    await waitForState('needs sign-in');
    const host = new URL(fixture.mcpUrl).host;
    await signIn().getByText(`Sign in to ${host} to use this server.`).waitFor();
    expect(
      await signIn()
        .getByRole('button', { name: `Sign in to ${SERVER}`, exact: true })
        .count(),
    ).toBe(1);
    // The server answered 401 and nothing more happened: no client registered, no page shown.
    expect(fixture.counters.mcp.unauthorized).toBeGreaterThan(0);
    expect(fixture.counters.as.registrations).toBe(0);
    expect(fixture.counters.as.interactions).toBe(0);
    await shootRow('sign-in-needed');
  });

  it('closing the sign-in window cancels: nothing is issued and Sign in is offered again', async () => {
    const window = await openSignInWindow();

    await window.close();

    await signIn().getByRole('alert').waitFor();
    expect(await signIn().getByRole('alert').innerText()).toBe(
      `'${SERVER}': sign-in stopped: the sign-in window was closed.`,
    );
    await signIn()
      .getByRole('button', { name: `Sign in to ${SERVER}`, exact: true })
      .waitFor();
    expect(fixture.counters.as.issued).toBe(0);
    await waitForState('needs sign-in');
    await shootRow('sign-in-cancelled');
  });

  it('signs in through the browser window: the row names the scopes and the server runs', async () => {
    const window = await openSignInWindow();
    // The AS's own page, asking for the scope the server's 401 named.
    expect(await window.locator('#scopes').innerText()).toContain(BASE_SCOPE);
    expect(new URL(window.url()).origin).toBe(fixture.issuer);
    // A real popup closes when this window takes focus; the worker finishes the sign-in anyway.
    const closed = window.waitForEvent('close');

    await window.locator('#allow').click();

    // launchWebAuthFlow closes its window once the AS redirects to chromiumapp.org.
    await closed;
    // No "as …": the host asks for the resource's scope only, not `openid`, so the AS sends no
    // ID token to name the user from.
    await signIn().getByText(`Signed in (${BASE_SCOPE})`, { exact: true }).waitFor();
    await waitForState('running');
    // The client the host registered names the extension's own redirect, identity.getRedirectURL().
    expect(JSON.stringify(hostRecords())).toContain(
      JSON.stringify(`https://${session.browser.extensionId}.chromiumapp.org/`),
    );
    expect(
      await signIn()
        .getByRole('button', { name: `Sign out of ${SERVER}`, exact: true })
        .count(),
    ).toBe(1);
    expect(await signIn().getByRole('alert').count()).toBe(0);
    expect(await signIn().innerText()).toMatch(/expires in \d+ min, renews/);
    expect(fixture.counters.as.issued).toBe(1);
    await shootRow('signed-in');
  });

  it('calls a tool from the side panel as the signed-in user', async () => {
    panel = await openSidePanel(session.browser);
    await useScriptedModel(panel, model);
    await waitForTools(panel, [WHOAMI]);
    model.script(
      { kind: 'tool-call', name: WHOAMI, arguments: {} },
      {
        kind: 'text',
        text: (seen) =>
          `The server says: ${unwrapUntrusted(seen.toolResults.at(-1)?.content ?? '')?.payload ?? '(nothing)'}`,
      },
    );
    const first = model.requests.length;

    await sendMessage(panel, 'Who am I on linear?');
    const card = approvalCard(panel, WHOAMI);
    await card.waitFor();
    await card.getByRole('button', { name: 'Allow once' }).click();

    const answer = `The server says: user ${TEST_USER} with ${BASE_SCOPE}`;
    await conversationLog(panel).getByText(answer).waitFor();
    expect((await model.request(first)).tools).toContain(WHOAMI);
    expect(await toolRow(panel, WHOAMI).textContent()).toContain('done');
    expect(fixture.counters.mcp.calls).toBeGreaterThan(0);
  });

  it('keeps every token out of the extension: its storage and its pages', async () => {
    const held = hostSecrets();
    // The host holds them (the file read is the host's own), so searching for them means something.
    expect(held.map((secret) => secret.field)).toEqual(
      expect.arrayContaining(['access_token', 'refresh_token']),
    );
    const secrets = held.map((secret) => secret.value);
    expect(secrets.every((secret) => secret.length >= 16)).toBe(true);

    const stored = await session.browser.worker.evaluate(async () =>
      JSON.stringify({
        local: await chrome.storage.local.get(null),
        session: await chrome.storage.session.get(null),
      }),
    );
    if (panel === undefined) throw new Error('the side panel opens in the test before');
    for (const [where, text] of [
      ['chrome.storage', stored],
      ["the popup's text", await popup.locator('body').innerText()],
      ["the popup's markup", await popup.content()],
      ["the side panel's text", await panel.locator('body').innerText()],
      ["the side panel's markup", await panel.content()],
      ["the worker's console", session.browser.workerLog.join('\n')],
    ] as const) {
      expect(TOKEN_SHAPE.test(text), where).toBe(false);
      for (const secret of secrets) expect(text.includes(secret), where).toBe(false);
    }
    // The conversation the worker stored is there: the dump is not empty by mistake.
    expect(stored).toContain(`user ${TEST_USER}`);
  });

  it('signs out: the host forgets the tokens and the row asks for sign-in again', async () => {
    await signIn()
      .getByRole('button', { name: `Sign out of ${SERVER}`, exact: true })
      .click();

    await signIn()
      .getByRole('button', { name: `Sign in to ${SERVER}`, exact: true })
      .waitFor();
    await waitForState('needs sign-in');
    expect(await signIn().getByText('Signed in', { exact: false }).count()).toBe(0);
    const fields = hostSecrets().map((secret) => secret.field);
    expect(fields).not.toContain('access_token');
    expect(fields).not.toContain('refresh_token');
    expect(fixture.counters.as.revoked).toBeGreaterThan(0);
    expect(await offeredTools()).not.toContain(WHOAMI);
  });
});
