import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { requestMethods, type ParamsOf } from '../../protocol/methods';
import { FILESYSTEM_SERVER, MEMORY_SERVER, ROOT } from '../integration/host-harness';
import { useSwitchyard } from './support/session';
import { expectFitsWidth, openPopup, POPUP_VIEWPORT, screenshot, uiRequest } from './support/ui';

// Journey (issue 5, popup server manager): add a server by typing its command line into the
// popup, see it start without a consent prompt (Switchyard wrote and approved it) and its tools
// listed with token costs; deny one tool and the host stops offering it to the model; revoke the
// server's launch trust and it stops and asks again until it is approved in the popup. Then add a
// remote server by pasting its URL into the same field (issue 11): the form trades env and folder
// for headers and a transport, refuses plain http to another machine before sending, and the
// header's ${VAR} is written as typed and expanded by the host only when it connects.

/** The remote server's token: in the browser's (so the host's) environment, never in the UI. */
const REMOTE_TOKEN_VAR = 'POPUP_E2E_REMOTE_TOKEN';
const REMOTE_TOKEN = 'popup-e2e-remote-token-value';
// Before useSwitchyard's beforeAll, which copies process.env into the browser's environment.
process.env[REMOTE_TOKEN_VAR] = REMOTE_TOKEN;

/** Only the filesystem server is configured: the journey adds memory from the popup. */
const session = useSwitchyard({
  servers: (paths) => ({
    filesystem: { command: process.execPath, args: [FILESYSTEM_SERVER, paths.workspace] },
  }),
});

const ConfigFileSchema = z.looseObject({
  mcpServers: z.record(z.string(), z.unknown()),
  toolPolicy: z.record(z.string(), z.string()).optional(),
});

/** A tool of the memory server that the journey denies. */
const DENIED_TOOL = 'memory__delete_entities';
/** Server processes are found by their entry point in `ps`. */
const PROCESS_WAIT = { timeout: 15_000, interval: 50 } as const;

let popup: Page;
let remote: { readonly child: ChildProcess; readonly port: number } | undefined;

/** A remote MCP server on 127.0.0.1 (test/fixtures): resolves with its port. */
function startRemoteServer(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [join(ROOT, 'test/fixtures/remote-modern-server.mjs')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let text = '';
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const port = /LISTENING (\d+)/.exec(text)?.[1];
      if (port !== undefined) resolve({ child, port: Number(port) });
    });
    child.once('exit', (code) => {
      reject(new Error(`the remote fixture exited (${String(code)}): ${text}`));
    });
  });
}

/** The headers of the last MCP request the remote fixture received. */
async function remoteSeen(): Promise<Record<string, unknown>> {
  if (remote === undefined) throw new Error('the remote fixture is not running');
  const response = await fetch(`http://127.0.0.1:${remote.port}/seen`);
  return z.record(z.string(), z.unknown()).parse(await response.json());
}

function configFile(): z.infer<typeof ConfigFileSchema> {
  const text = readFileSync(join(session.profile.switchyardHome, 'config.json'), 'utf8');
  return ConfigFileSchema.parse(JSON.parse(text));
}

/** The `memory.jsonl` the added server keeps its graph in (inside the temp folder). */
function memoryFile(): string {
  return join(session.profile.root, 'memory.jsonl');
}

/**
 * The memory server's entry point under a folder with a space in its name (a link to the
 * package: Node resolves its imports from the real path), so the typed command line needs quotes.
 */
function memoryEntry(): string {
  return join(session.profile.root, 'My Servers', 'server-memory', 'dist', 'index.js');
}

/** The argv as typed into the Command field: an argument with spaces is quoted. */
function commandLine(argv: readonly string[]): string {
  return argv.map((arg) => (/\s/.test(arg) ? `"${arg}"` : arg)).join(' ');
}

/** A server's row in the list named "Servers": the list item holding its expand button. */
function row(name: string): Locator {
  return popup
    .getByRole('list', { name: 'Servers' })
    .getByRole('listitem')
    .filter({ has: popup.getByRole('button', { name, exact: true }) });
}

/** Waits until the row's state badge reads `state`. */
async function waitForState(name: string, state: string): Promise<void> {
  await row(name).getByText(state, { exact: true }).waitFor();
}

/** The popup's narrowest width the shots check, besides its own 400 px. */
const NARROW_WIDTH = 360;

/**
 * `<name>`, `<name>-dark`, `<name>-narrow` and `<name>-narrow-dark` of the popup scrolled to
 * `focus`: its own width and NARROW_WIDTH, light and dark. Leaves the popup as it was.
 */
async function shootModes(page: Page, name: string, focus: Locator): Promise<void> {
  await page.mouse.move(0, 0);
  for (const [width, suffix] of [
    [POPUP_VIEWPORT.width, ''],
    [NARROW_WIDTH, '-narrow'],
  ] as const) {
    await page.setViewportSize({ width, height: POPUP_VIEWPORT.height });
    await expectFitsWidth(page, name);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await focus.scrollIntoViewIfNeeded();
      await screenshot(page, `${name}${suffix}${scheme === 'dark' ? '-dark' : ''}`);
    }
  }
  await page.setViewportSize(POPUP_VIEWPORT);
  await page.emulateMedia({ colorScheme: 'light' });
}

function memoryProcesses(): number {
  return session.browser.processes().servers.filter((p) => p.args.includes(memoryEntry())).length;
}

async function hostTools(params: ParamsOf<'tools/list'>) {
  return requestMethods['tools/list'].result.parse(
    await uiRequest(popup, 'host/request', { method: 'tools/list', params }),
  );
}

beforeAll(async () => {
  remote = await startRemoteServer();
  const folder = join(session.profile.root, 'My Servers');
  mkdirSync(folder);
  symlinkSync(dirname(dirname(MEMORY_SERVER)), join(folder, 'server-memory'));
  await session.browser.waitForConnection('connected');
  popup = await openPopup(session.browser);
  await waitForState('filesystem', 'running');
});

afterAll(() => {
  remote?.child.kill('SIGKILL');
});

describe('the popup server manager', () => {
  it('splits the typed command line into argument chips before anything is sent', async () => {
    const argv = ['node', memoryEntry()];

    await popup.getByRole('textbox', { name: 'Name' }).fill('memory');
    const typed = commandLine(argv);
    expect(typed).toBe(`node "${memoryEntry()}"`);
    await popup.getByRole('textbox', { name: 'URL or command' }).fill(typed);
    await popup
      .getByRole('textbox', { name: 'Environment' })
      .fill(`MEMORY_FILE_PATH=${memoryFile()}`);

    const chips = popup.getByRole('list', { name: 'Parsed arguments' }).getByRole('listitem');
    await chips.first().waitFor();
    expect(await chips.allInnerTexts()).toEqual(argv);
    expect(memoryProcesses()).toBe(0);
    await popup.getByRole('button', { name: 'Add server' }).scrollIntoViewIfNeeded();
    await screenshot(popup, 'popup-add-server');
  });

  it('adds the server: it starts without a consent prompt and lists its tools with costs', async () => {
    await popup.getByRole('button', { name: 'Add server' }).click();

    await popup.getByRole('status').getByText('Added memory.').waitFor();
    await waitForState('memory', 'running');
    await vi.waitFor(() => {
      expect(memoryProcesses()).toBe(1);
    }, PROCESS_WAIT);

    // Written to the user tier through the host, exactly as typed.
    expect(configFile().mcpServers['memory']).toEqual({
      command: 'node',
      args: [memoryEntry()],
      env: { MEMORY_FILE_PATH: memoryFile() },
    });
    // Approved because Switchyard wrote it: never held at the launch gate.
    const audit = session.profile.auditLog();
    expect(audit).toContainEqual(
      expect.objectContaining({
        event: 'trust',
        server: 'memory',
        decision: 'written-by-switchyard',
      }),
    );
    expect(
      audit.filter((line) => line['server'] === 'memory' && line['event'] === 'launch'),
    ).toEqual([]);
    const pending = requestMethods['trust/pending'].result.parse(
      await uiRequest(popup, 'host/request', { method: 'trust/pending', params: {} }),
    );
    expect(pending.requests).toEqual([]);
    await expect(row('memory').getByRole('alert').count()).resolves.toBe(0);

    // Expanded: each tool with its exposed and raw name, policy and token cost.
    const expand = row('memory').getByRole('button', { name: 'memory', exact: true });
    await expand.click();
    expect(await expand.getAttribute('aria-expanded')).toBe('true');
    const tools = popup.getByRole('group', { name: 'Tools of memory' });
    await tools.waitFor();
    const listed = await hostTools({ server: 'memory', includeDenied: true });
    expect(listed.tools.length).toBeGreaterThan(0);
    for (const tool of listed.tools) {
      const item = tools.getByRole('group', { name: tool.name, exact: true });
      expect(await item.innerText()).toContain(`${tool.tokens.toLocaleString('en-US')} tokens`);
      expect(await item.getByRole('combobox', { name: `Policy for ${tool.name}` }).count()).toBe(1);
    }
    expect(await row('memory').innerText()).toContain(
      `${listed.tools.length} tools · ${listed.tokens.total.toLocaleString('en-US')} tokens`,
    );
    // Both rows, the expanded one's first tools below.
    await popup.evaluate(() => {
      window.scrollTo(0, 0);
    });
    await screenshot(popup, 'popup-servers');
  });

  it('denies one tool: the host no longer offers it to the model', async () => {
    expect((await hostTools({})).tools.map((tool) => tool.name)).toContain(DENIED_TOOL);
    const added = popup.getByRole('status').getByText('Added memory.');
    expect(await added.count()).toBe(1);

    await popup.getByRole('combobox', { name: `Policy for ${DENIED_TOOL}` }).selectOption('deny');

    // The next action: "Added memory." told the outcome of the last one, and goes (issue 14).
    expect(await added.count()).toBe(0);
    await popup
      .getByRole('group', { name: DENIED_TOOL, exact: true })
      .getByText('deny', { exact: true })
      .waitFor();
    const offered = (await hostTools({})).tools.map((tool) => tool.name);
    expect(offered).not.toContain(DENIED_TOOL);
    expect(offered).toEqual(expect.arrayContaining(['memory__create_entities']));
    // Still listed for the popup, marked denied; written to config.json.
    const all = await hostTools({ server: 'memory', includeDenied: true });
    expect(all.tools.find((tool) => tool.name === DENIED_TOOL)?.policy).toBe('deny');
    expect(configFile().toolPolicy).toEqual({ [DENIED_TOOL]: 'deny' });
  });

  it('turns the server’s MCP Apps off and on with its switch: written, reported, no new approval', async () => {
    const toggle = row('memory').getByRole('switch', { name: 'MCP Apps for memory' });
    expect(await toggle.isChecked()).toBe(true);
    expect(await row('memory').innerText()).toContain('show in the chat, sandboxed.');
    const launchesBefore = session.profile
      .auditLog()
      .filter((line) => line['server'] === 'memory' && line['event'] === 'launch').length;

    await toggle.click();

    await vi.waitFor(async () => {
      expect(await toggle.getAttribute('aria-busy')).toBe('false');
    }, PROCESS_WAIT);
    expect(await toggle.isChecked()).toBe(false);
    expect(await row('memory').innerText()).toContain('Off: its tools answer in text;');
    expect(configFile().mcpServers['memory']).toMatchObject({ apps: false });
    const listed = requestMethods['servers/list'].result.parse(
      await uiRequest(popup, 'host/request', { method: 'servers/list', params: {} }),
    );
    expect(listed.servers.find((s) => s.name === 'memory')).toMatchObject({
      apps: false,
      status: { state: 'running' },
    });
    // Not a new launch: nothing asked, nothing held at the gate.
    const pending = requestMethods['trust/pending'].result.parse(
      await uiRequest(popup, 'host/request', { method: 'trust/pending', params: {} }),
    );
    expect(pending.requests).toEqual([]);
    expect(
      session.profile
        .auditLog()
        .filter((line) => line['server'] === 'memory' && line['event'] === 'launch'),
    ).toHaveLength(launchesBefore);
    await vi.waitFor(() => {
      expect(memoryProcesses()).toBe(1);
    }, PROCESS_WAIT);
    await toggle.scrollIntoViewIfNeeded();
    await shootModes(popup, 'popup-apps-switch', row('memory'));

    await toggle.click();

    await vi.waitFor(async () => {
      expect(await toggle.isChecked()).toBe(true);
      expect(await toggle.getAttribute('aria-busy')).toBe('false');
    }, PROCESS_WAIT);
    expect(configFile().mcpServers['memory']).not.toHaveProperty('apps');
  });

  it('keeps keyboard focus on the row: after Cancel, and after a Restart it ran', async () => {
    const focused = () => popup.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    await row('memory').getByRole('button', { name: 'Revoke memory', exact: true }).focus();
    await popup.keyboard.press('Enter');
    const confirm = row('memory').getByRole('group', { name: 'Revoke memory?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Cancel revoking memory', exact: true }).focus();
    await popup.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    await vi.waitFor(async () => {
      expect(await focused()).toBe('Revoke memory');
    }, PROCESS_WAIT);

    await row('memory').getByRole('button', { name: 'Restart memory', exact: true }).focus();
    await popup.keyboard.press('Enter');
    await waitForState('memory', 'running');
    // Disabled while it ran, and gone while the server started again: focus stays on the row's
    // actions (Restart, or Stop when Restart was not there to return to), not on the page.
    await vi.waitFor(async () => {
      expect(await focused()).toMatch(/^(Restart|Stop) memory$/);
    }, PROCESS_WAIT);
  });

  it('revokes launch trust: the server stops and asks for approval again', async () => {
    await row('memory').getByRole('button', { name: 'Revoke memory', exact: true }).click();
    // Asked first, in plain words (issue 14): nothing happened yet.
    const confirm = row('memory').getByRole('group', { name: 'Revoke memory?' });
    expect(await confirm.innerText()).toContain(
      'Revoke launch trust for memory? It stops now and will not start again until you approve it.',
    );
    expect(memoryProcesses()).toBe(1);
    await shootModes(popup, 'popup-revoke-confirm', row('memory'));
    await confirm.getByRole('button', { name: 'Revoke memory', exact: true }).click();

    await waitForState('memory', 'needs approval');
    const consent = row('memory').getByRole('article', { name: 'Start server “memory”?' });
    await consent.waitFor();
    // Every button of the row says which server it acts on (issue 14).
    for (const name of ['Remove memory', 'Logs of memory', 'Approve memory']) {
      expect(await row('memory').getByRole('button', { name, exact: true }).count()).toBe(1);
    }
    await vi.waitFor(() => {
      expect(memoryProcesses()).toBe(0);
    }, PROCESS_WAIT);
    // The user's own entry, revoked here: not "edited outside Switchyard" (the host cannot tell).
    const text = await row('memory').innerText();
    expect(text).toContain('You revoked its launch trust.');
    // Said once (issue 14 measured it three times: the row, the card's summary and its reason).
    expect(text.split('You revoked its launch trust').length).toBe(2);
    expect(text).not.toContain('not approved to run');
    expect(text).not.toContain('added or changed by hand');
    expect(text).not.toContain('edited outside Switchyard');
    expect(
      await row('memory').getByRole('button', { name: 'Start memory', exact: true }).count(),
    ).toBe(0);
    expect((await hostTools({})).tools.filter((tool) => tool.server === 'memory')).toEqual([]);
    const servers = requestMethods['servers/list'].result.parse(
      await uiRequest(popup, 'host/request', { method: 'servers/list', params: {} }),
    );
    expect(servers.servers.find((s) => s.name === 'memory')?.status.state).toBe('needs-approval');
    await popup.evaluate(() => {
      window.scrollTo(0, 0);
    });
    await screenshot(popup, 'popup-needs-approval');
  });

  it('approves it in the consent card: running again', async () => {
    const consent = row('memory').getByRole('article', { name: 'Start server “memory”?' });

    await consent.getByRole('button', { name: 'Approve memory', exact: true }).click();

    await waitForState('memory', 'running');
    await vi.waitFor(() => {
      expect(memoryProcesses()).toBe(1);
    }, PROCESS_WAIT);
    expect(await consent.count()).toBe(0);
    expect(session.profile.auditLog()).toContainEqual(
      expect.objectContaining({ event: 'trust', server: 'memory', decision: 'approved' }),
    );
    expect((await hostTools({})).tools.map((tool) => tool.name)).toContain(
      'memory__create_entities',
    );
  });
});

describe('adding a remote server by URL', () => {
  const target = () => popup.getByRole('textbox', { name: 'URL or command' });
  const remoteUrl = () => `http://127.0.0.1:${String(remote?.port)}/mcp`;

  it('trades env and folder for headers and a transport once the field holds a URL', async () => {
    await popup.getByRole('textbox', { name: 'Name' }).fill('remote');
    await target().fill('npx -y some-server');
    expect(await popup.getByRole('textbox', { name: 'Environment' }).count()).toBe(1);

    await target().fill(remoteUrl());

    await popup.getByRole('textbox', { name: 'Headers' }).waitFor();
    expect(await popup.getByRole('textbox', { name: 'Environment' }).count()).toBe(0);
    expect(await popup.getByRole('textbox', { name: 'Working folder' }).count()).toBe(0);
    expect(await popup.getByRole('list', { name: 'Parsed arguments' }).count()).toBe(0);
    const transport = popup.getByRole('combobox', { name: 'Transport' });
    expect(await transport.inputValue()).toBe('auto');
    // The field's description names where data would go.
    expect(await target().getAttribute('aria-describedby')).not.toBeNull();
    await popup.getByText(`http://127.0.0.1:${String(remote?.port)}`, { exact: true }).waitFor();
  });

  it('refuses plain http to another machine at the field, sending nothing', async () => {
    await target().fill('http://mcp.example.com/mcp');
    await popup.getByRole('button', { name: 'Add server' }).click();

    const field = target();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
    const error = describedBy
      .split(' ')
      .map((id) => popup.locator(`[id="${id}"]`))
      .at(-1);
    expect(await error?.innerText()).toMatch(/^The URL must use https:\/\//);
    expect(configFile().mcpServers['remote']).toBeUndefined();
  });

  it('adds it: the header written as typed, expanded by the host, shown by name only', async () => {
    await target().fill(remoteUrl());
    await popup
      .getByRole('textbox', { name: 'Headers' })
      .fill(`Authorization: Bearer \${${REMOTE_TOKEN_VAR}}\nX-Team: blue`);
    await popup.getByRole('combobox', { name: 'Transport' }).selectOption('http');
    await popup.getByRole('button', { name: 'Add server' }).scrollIntoViewIfNeeded();
    await screenshot(popup, 'popup-add-remote-server');

    await popup.getByRole('button', { name: 'Add server' }).click();

    await popup.getByRole('status').getByText('Added remote.').waitFor();
    await waitForState('remote', 'running');
    expect(configFile().mcpServers['remote']).toEqual({
      type: 'http',
      url: remoteUrl(),
      headers: { Authorization: `Bearer \${${REMOTE_TOKEN_VAR}}`, 'X-Team': 'blue' },
    });
    expect(await remoteSeen()).toMatchObject({
      authorization: `Bearer ${REMOTE_TOKEN}`,
      'x-team': 'blue',
    });
    // The form is empty again: the header line is gone from the page with the rest.
    expect(await target().inputValue()).toBe('');
    await popup.getByRole('textbox', { name: 'Environment' }).waitFor();

    // The row shows where it connects, not a command; expanded, the header names only.
    const origin = `http://127.0.0.1:${String(remote?.port)}`;
    expect(await row('remote').locator('code.pp-command').innerText()).toBe(origin);
    await row('remote').getByRole('button', { name: 'remote', exact: true }).click();
    const text = await row('remote').innerText();
    expect(text).toContain(remoteUrl());
    expect(text).toContain('Authorization, X-Team');
    expect(text).not.toContain('not found on PATH');
    expect(await popup.locator('body').innerText()).not.toContain(REMOTE_TOKEN);
    expect((await hostTools({ server: 'remote' })).tools.map((tool) => tool.name)).toEqual([
      'remote__echo',
      'remote__slow',
    ]);
  });

  it('clears "Added remote." once remote is gone (issue 14)', async () => {
    const added = popup.getByRole('status').getByText('Added remote.');
    expect(await added.count()).toBe(1);

    // Removed elsewhere (the CLI, another window): the popup only sees the list change.
    await uiRequest(popup, 'host/request', {
      method: 'servers/remove',
      params: { server: 'remote' },
    });

    await row('remote').waitFor({ state: 'detached' });
    expect(await added.count()).toBe(0);
  });
});
