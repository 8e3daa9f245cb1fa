import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server';
import type { ProcessInfo } from './support/chromium';
import { useSwitchyard } from './support/session';

// Journey (issue 4, extension security; design §2): a web page can never reach the extension,
// its settings, the agent or the native host. The manifest declares no externally_connectable
// and no web_accessible_resources; these tests check what a page actually gets.

const HOSTILE_PAGE = `<!doctype html>
<meta charset="utf-8">
<title>Totally normal page</title>
<p>Nothing to see here.</p>`;

/** The worker's page-port request that would stop a server, were a page able to send it. */
const STOP_MEMORY = {
  kind: 'request',
  id: 1,
  method: 'host/request',
  params: { method: 'servers/stop', params: { server: 'memory' } },
};
/** The host's own JSON-RPC for the same, in case something relayed raw frames. */
const STOP_MEMORY_RPC = {
  jsonrpc: '2.0',
  id: 1,
  method: 'servers/stop',
  params: { server: 'memory' },
};

// `chrome` as a web page sees it in Chromium: an object, with `runtime` only when some extension
// lists the page in its externally_connectable.
declare const chrome: { readonly runtime?: unknown };

const session = useSwitchyard();
let site: LoopbackServer | undefined;
let page: Page;

interface Baseline {
  readonly host: ProcessInfo;
  readonly servers: readonly number[];
  readonly workerLog: number;
  readonly audit: number;
}
let baseline: Baseline;

beforeAll(async () => {
  site = await startLoopbackServer(() => ({
    kind: 'text',
    status: 200,
    contentType: 'text/html; charset=utf-8',
    body: HOSTILE_PAGE,
  }));
  const { browser, profile } = session;
  await browser.waitForConnection('connected');
  await vi.waitFor(
    () => {
      expect(browser.processes().servers).toHaveLength(2);
    },
    { timeout: 15_000, interval: 50 },
  );
  const { hosts, servers } = browser.processes();
  baseline = {
    host: hosts[0]!,
    servers: servers.map((p) => p.pid),
    workerLog: browser.workerLog.length,
    audit: profile.auditLog().length,
  };
  page = await browser.context.newPage();
  await page.goto(innocentUrl());
});

afterAll(async () => {
  await site?.close();
});

const byNumber = (a: number, b: number): number => a - b;

function innocentUrl(): string {
  if (site === undefined) throw new Error('the site starts in beforeAll');
  return new URL('/innocent.html', site.baseURL).href;
}

const extensionUrls = (): string[] =>
  [
    'manifest.json',
    'background.js',
    'sidepanel.html',
    'popup.html',
    'options.html',
    'privacy.html',
  ].map((path) => `${session.browser.origin}/${path}`);

describe('a hostile web page', () => {
  it('has no extension messaging API: no chrome.runtime at all', async () => {
    const seen = await page.evaluate(() => ({
      chrome: typeof chrome,
      runtime: typeof chrome.runtime,
    }));

    expect(seen).toEqual({ chrome: 'object', runtime: 'undefined' });
  });

  it('cannot fetch any extension resource', async () => {
    const results = await page.evaluate(
      (urls) =>
        Promise.all(
          urls.map((url) =>
            fetch(url).then(
              (response) => `${url}: HTTP ${response.status}`,
              (error: unknown) => `${url}: ${String(error)}`,
            ),
          ),
        ),
      extensionUrls(),
    );

    expect(results).toEqual(extensionUrls().map((url) => `${url}: TypeError: Failed to fetch`));
  });

  it('cannot load extension files as scripts or images', async () => {
    const results = await page.evaluate(
      (urls) =>
        Promise.all(
          urls.flatMap((url) =>
            (['script', 'img'] as const).map(
              (tag) =>
                new Promise<string>((resolve) => {
                  const element = document.createElement(tag);
                  element.addEventListener('load', () => {
                    resolve(`${tag} ${url}: loaded`);
                  });
                  element.addEventListener('error', () => {
                    resolve(`${tag} ${url}: blocked`);
                  });
                  element.src = url;
                  document.body.append(element);
                }),
            ),
          ),
        ),
      extensionUrls(),
    );

    expect(results.filter((result) => !result.endsWith(': blocked'))).toEqual([]);
  });

  it('cannot frame, open or navigate to an extension page', async () => {
    const [target] = extensionUrls();

    await page.evaluate(
      (url) =>
        new Promise<void>((resolve) => {
          const frame = document.createElement('iframe');
          frame.addEventListener('load', () => {
            resolve();
          });
          frame.src = url;
          document.body.append(frame);
        }),
      target!,
    );
    const popupOpened = page.waitForEvent('popup');
    await page.evaluate((url) => {
      window.open(url);
    }, target!);
    const popup = await popupOpened;
    await popup.waitForLoadState();
    const navigated = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame());
    await page.evaluate((url) => {
      window.location.href = url;
    }, target!);
    const topLevel = await navigated;

    const reached = [...page.frames(), ...popup.frames(), topLevel].map((frame) => frame.url());
    expect(reached.filter((url) => url.startsWith(session.browser.origin))).toEqual([]);
    expect(reached).toContain('chrome-error://chromewebdata/');
    await popup.close();
    await page.goto(innocentUrl());
  });

  it('gets nothing from postMessage: no content script listens', async () => {
    await page.evaluate(
      ({ ui, rpc, origin }) => {
        for (const message of [ui, rpc, JSON.stringify(ui), JSON.stringify(rpc)]) {
          window.postMessage(message, '*');
          window.postMessage(message, window.location.origin);
          window.dispatchEvent(new CustomEvent('switchyard', { detail: message }));
        }
        // A page cannot target the extension's origin: this throws or is dropped.
        try {
          window.postMessage(ui, origin);
        } catch {
          // SyntaxError for a non-matching target origin is one of the allowed outcomes.
        }
      },
      { ui: STOP_MEMORY, rpc: STOP_MEMORY_RPC, origin: session.browser.origin },
    );
    // A barrier: the worker still answers (its event loop has run past anything the page
    // could have caused), and then nothing the page asked for has happened.
    expect(await session.browser.worker.evaluate(() => 1 + 1)).toBe(2);

    const { hosts, servers } = session.browser.processes();
    expect(hosts.map((p) => p.pid)).toEqual([baseline.host.pid]);
    expect(servers.map((p) => p.pid).sort(byNumber)).toEqual([...baseline.servers].sort(byNumber));
    expect(session.browser.workerLog.slice(baseline.workerLog)).toEqual([]);
    expect(session.profile.auditLog()).toHaveLength(baseline.audit);
  });

  it('after all of the above, started no host and changed nothing the host records', () => {
    const { hosts, servers } = session.browser.processes();

    expect(hosts.map((p) => p.pid)).toEqual([baseline.host.pid]);
    expect(servers.map((p) => p.pid).sort(byNumber)).toEqual([...baseline.servers].sort(byNumber));
    expect(session.browser.workerLog.slice(baseline.workerLog)).toEqual([]);
    expect(session.profile.auditLog()).toHaveLength(baseline.audit);
  });
});
