import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestMethods } from '../../protocol/methods';
import { HostHarness, ROOT } from './host-harness';

// MCP Apps (issue 12 part 4) through the real bundled host: server-pdf (a real ext-apps server
// from npm, whose viewer page is 4.3 MB) and the probe fixture (v2 SDK and ext-apps' own server
// helpers), with a second copy of it whose apps are turned off.

const PDF_SERVER = join(ROOT, 'node_modules/@modelcontextprotocol/server-pdf/dist/index.js');
const PDF_FILE = join(ROOT, 'test/fixtures/apps/hello.pdf');
const PROBE_SERVER = join(ROOT, 'test/fixtures/app-server.mjs');
const PDF_VIEWER = join(ROOT, 'node_modules/@modelcontextprotocol/server-pdf/dist/mcp-app.html');

const SERVERS = {
  pdf: { command: process.execPath, args: [PDF_SERVER, '--stdio', PDF_FILE] },
  probe: { command: process.execPath, args: [PROBE_SERVER, '--bad-csp'] },
  quiet: { command: process.execPath, args: [PROBE_SERVER], apps: false },
};

type Method = keyof typeof requestMethods;

async function result<M extends Method>(host: HostHarness, method: M, params?: unknown) {
  const answer = await host.call(method, params);
  return requestMethods[method].result.parse(answer) as ReturnType<
    (typeof requestMethods)[M]['result']['parse']
  >;
}

/** Reads a whole app page part by part, as the extension does. */
async function readPage(host: HostHarness, server: string, uri: string) {
  const first = await result(host, 'apps/read', { server, uri });
  const parts = [first.text];
  for (let part = 1; part < first.parts; part += 1) {
    const next = await result(host, 'apps/read', { server, uri, part });
    expect(next.hash).toBe(first.hash);
    parts.push(next.text);
  }
  return { ...first, text: parts.join('') };
}

describe('MCP Apps through the host', () => {
  let host: HostHarness;

  beforeAll(async () => {
    host = await HostHarness.start(SERVERS);
    await host.settled();
  });
  afterAll(async () => {
    await host.close();
  });

  it('keeps app-only tools out of the model’s listing and its token count', async () => {
    const model = await result(host, 'tools/list', { server: 'pdf' });
    const all = await result(host, 'tools/list', { server: 'pdf', includeAppOnly: true });
    const appOnly = all.tools.filter((t) => t.ui?.visibility.includes('model') === false);
    // server-pdf 2.0.4 marks six of its tools callable by its viewer only.
    expect(appOnly.map((t) => t.tool).sort()).toEqual([
      'poll_pdf_commands',
      'read_pdf_bytes',
      'save_pdf',
      'submit_page_data',
      'submit_save_data',
      'submit_viewer_state',
    ]);
    expect(appOnly.every((t) => t.tokens === 0)).toBe(true);
    expect(model.tools.map((t) => t.tool)).not.toContain('read_pdf_bytes');
    expect(model.tools.length).toBe(all.tools.length - appOnly.length);
    expect(model.tokens.total).toBe(model.tools.reduce((sum, t) => sum + t.tokens, 0));
    const display = model.tools.find((t) => t.tool === 'display_pdf');
    expect(display?.ui).toEqual({
      visibility: ['model', 'app'],
      resourceUri: 'ui://pdf-viewer/mcp-app.html',
    });
  });

  it('reads server-pdf’s 4.3 MB viewer in parts that each fit a frame, byte for byte', async () => {
    const page = await readPage(host, 'pdf', 'ui://pdf-viewer/mcp-app.html');
    const original = readFileSync(PDF_VIEWER, 'utf8');
    expect(page.parts).toBeGreaterThan(1);
    expect(page.text.length).toBe(original.length);
    expect(page.hash).toBe(createHash('sha256').update(original).digest('hex'));
    expect(page.csp.connectDomains).toEqual(['https://unpkg.com']);
    expect(page.permissions).toEqual(['clipboardWrite']);
  });

  it('drops declared CSP entries that are not origins, and frames it never grants', async () => {
    const page = await readPage(host, 'probe', 'ui://probe/app.html');
    expect(page.csp.connectDomains).toEqual(['https://api.example.com']);
    expect(page.ignored).toEqual([
      "connectDomains: 'unsafe-eval'",
      'connectDomains: *',
      'connectDomains: https://x.test; script-src *',
      'frameDomains: not granted',
    ]);
    expect(page.prefersBorder).toBe(true);
  });

  it('refuses a page that is not an app, and a URI that is not ui://', async () => {
    const notUi = await host.request('apps/read', { server: 'probe', uri: 'file:///etc/passwd' });
    expect(notUi.error?.data?.reason).toBe('invalid-params');
    const missing = await host.request('apps/read', { server: 'probe', uri: 'ui://probe/none' });
    expect(missing.error).toBeDefined();
  });

  it('lets an app call its own server’s app-only tool, and never the model', async () => {
    const listing = await result(host, 'tools/list', { server: 'probe', includeAppOnly: true });
    const report = listing.tools.find((t) => t.tool === 'probe_report');
    expect(report).toBeDefined();
    const name = report?.name ?? '';
    const byModel = await host.request('tools/call', { name, arguments: { results: {} } });
    expect(byModel.error?.data?.reason).toBe('unknown-tool');
    const byApp = await host.call('tools/call', {
      name,
      arguments: { results: { ok: true } },
      app: { server: 'probe' },
    });
    expect(JSON.stringify(byApp)).toContain('recorded');
    // Another server's app may not call it.
    const byOther = await host.request('tools/call', {
      name,
      arguments: { results: {} },
      app: { server: 'pdf' },
    });
    expect(byOther.error?.data?.reason).toBe('unknown-tool');
    // The audit log says the app asked.
    const activity = await result(host, 'activity/list', { limit: 20 });
    const entry = activity.entries.find((e) => e.exposedName === name && e.outcome === 'ok');
    expect(entry?.caller).toBe('app');
  });

  it('with "apps": false shows no page, reads none, and takes no call from an app', async () => {
    const listing = await result(host, 'tools/list', { server: 'quiet', includeAppOnly: true });
    const show = listing.tools.find((t) => t.tool === 'show_probe');
    expect(show?.ui).toEqual({ visibility: ['model', 'app'] });
    const read = await host.request('apps/read', { server: 'quiet', uri: 'ui://probe/app.html' });
    expect(read.error?.data?.reason).toBe('not-supported');
    const report = listing.tools.find((t) => t.tool === 'probe_report');
    const call = await host.request('tools/call', {
      name: report?.name,
      arguments: { results: {} },
      app: { server: 'quiet' },
    });
    expect(call.error?.data?.reason).toBe('not-supported');
  });
});
