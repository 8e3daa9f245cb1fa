import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { requestMethods, type ParamsOf } from '../../protocol/methods';
import { FILESYSTEM_SERVER, MEMORY_SERVER } from '../integration/host-harness';
import { useSwitchyard } from './support/session';
import { openPopup, screenshot, uiRequest } from './support/ui';

// Journey (issue 5, popup server manager): add a server by typing its command line into the
// popup, see it start without a consent prompt (Switchyard wrote and approved it) and its tools
// listed with token costs; deny one tool and the host stops offering it to the model; revoke the
// server's launch trust and it stops and asks again until it is approved in the popup.

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

function memoryProcesses(): number {
  return session.browser.processes().servers.filter((p) => p.args.includes(memoryEntry())).length;
}

async function hostTools(params: ParamsOf<'tools/list'>) {
  return requestMethods['tools/list'].result.parse(
    await uiRequest(popup, 'host/request', { method: 'tools/list', params }),
  );
}

beforeAll(async () => {
  const folder = join(session.profile.root, 'My Servers');
  mkdirSync(folder);
  symlinkSync(dirname(dirname(MEMORY_SERVER)), join(folder, 'server-memory'));
  await session.browser.waitForConnection('connected');
  popup = await openPopup(session.browser);
  await waitForState('filesystem', 'running');
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

    await popup.getByRole('combobox', { name: `Policy for ${DENIED_TOOL}` }).selectOption('deny');

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

  it('revokes launch trust: the server stops and asks for approval again', async () => {
    await row('memory').getByRole('button', { name: 'Revoke', exact: true }).click();

    await waitForState('memory', 'needs approval');
    const consent = row('memory').getByRole('article', { name: 'Start server “memory”?' });
    await consent.waitFor();
    await vi.waitFor(() => {
      expect(memoryProcesses()).toBe(0);
    }, PROCESS_WAIT);
    // The user's own entry, revoked here: not "edited outside Switchyard" (the host cannot tell).
    const text = await row('memory').innerText();
    expect(text).toContain('You revoked its launch trust.');
    expect(text).not.toContain('edited outside Switchyard');
    expect(await row('memory').getByRole('button', { name: 'Start', exact: true }).count()).toBe(0);
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

    await consent.getByRole('button', { name: 'Approve', exact: true }).click();

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
