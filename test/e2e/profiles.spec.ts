import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { UNKNOWN_PROFILE_CHIP } from '../../extension/ui/sidepanel/profile-chip';
import { PROTOCOL_VERSION, requestMethods, type ParamsOf } from '../../protocol/methods';
import { startLoopbackServer, urlTitlePage, type LoopbackServer } from '../support/loopback-server';
import { FILESYSTEM_SERVER, MEMORY_SERVER } from '../integration/host-harness';
import { helloRequest, probeHost, type ProbeReply } from './support/host-probe';
import { useSwitchyard } from './support/session';
import {
  SIDE_PANEL_VIEWPORT,
  openOptions,
  openSidePanel,
  screenshot,
  screenshotSidePanelModes,
  uiRequest,
} from './support/ui';

// Journey (issue 5, per-site profiles, design D10): a "GitHub" profile made on the options page
// for one site, with only the memory server; switching the active tab between that site and
// another switches the side panel's profile and the tools the agent is offered; and a tool the
// profile hides, called anyway straight at the host, is refused before it reaches its server.

/**
 * Loaded into the filesystem server with `node --import`, before its own code: every JSON-RPC
 * method that arrives on its stdin (and the tool name of a `tools/call`) is written to stderr,
 * which the host keeps as the server's log. The test reads from `servers/logs` what reached it.
 */
const STDIN_LOGGER = `
let partial = '';
const emit = process.stdin.emit;
process.stdin.emit = function (event, ...args) {
  if (event === 'data') {
    const lines = (partial + String(args[0])).split('\\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      try {
        const message = JSON.parse(line);
        const tool = message.method === 'tools/call' ? ' ' + message.params?.name : '';
        if (typeof message.method === 'string') process.stderr.write('seen: ' + message.method + tool + '\\n');
      } catch {
        process.stderr.write('seen: a line that is not JSON\\n');
      }
    }
  }
  return emit.call(this, event, ...args);
};
`;

const session = useSwitchyard({
  servers: (paths) => {
    const logger = join(paths.root, 'stdin-logger.mjs');
    writeFileSync(logger, STDIN_LOGGER);
    return {
      filesystem: {
        command: process.execPath,
        args: ['--import', logger, FILESYSTEM_SERVER, paths.workspace],
      },
      memory: {
        command: process.execPath,
        args: [MEMORY_SERVER],
        env: { MEMORY_FILE_PATH: join(paths.root, 'memory.jsonl') },
      },
    };
  },
  workspaceFiles: { 'notes.txt': 'hello from the workspace' },
});

const ConfigFileSchema = z.looseObject({ profiles: z.array(z.unknown()).optional() });
const SnapshotSchema = z.looseObject({
  profile: z.object({ id: z.string(), name: z.string(), matchedPattern: z.string().nullable() }),
  context: z.object({ mcpByServer: z.array(z.object({ server: z.string() })) }),
});

const UnknownSnapshotSchema = z.looseObject({
  profile: z.null(),
  context: z.object({ mcpByServer: z.array(z.object({ server: z.string() })) }),
});

/** Tools the GitHub profile hides (their server is not enabled there). */
const HIDDEN_TOOL = 'filesystem__read_text_file';
const ALLOWED_TOOL = 'filesystem__list_allowed_directories';

let site: LoopbackServer;
let githubPattern: string;
let panel: Page;

function siteUrl(path: string): string {
  return new URL(path, site.baseURL).href;
}

async function hostTools(page: Page, params: ParamsOf<'tools/list'>) {
  return requestMethods['tools/list'].result.parse(
    await uiRequest(page, 'host/request', { method: 'tools/list', params }),
  );
}

const serversOf = (tools: readonly { server: string }[]): string[] =>
  [...new Set(tools.map((tool) => tool.server))].sort();

/** Scrolls the page so that `element` is at the top of the viewport (for a screenshot). */
async function scrollToTop(element: Locator): Promise<void> {
  await element.evaluate((node) => {
    node.scrollIntoView({ block: 'start' });
  });
}

/**
 * How the side panel header lays out: the chip's name as shown, whether it is cut (its text wider
 * than its box, or its box past the chip's edge), whether anything sticks out of the header, and
 * whether "New Chat" is wholly inside the window.
 */
async function headerFit(page: Page) {
  return page.locator('.sy-header').evaluate((header) => {
    const name = header.querySelector('.sy-chip__name');
    const chip = header.querySelector('.sy-chip');
    const button = header.querySelector('button');
    if (name === null || chip === null || button === null) throw new Error('header incomplete');
    const nameBox = name.getBoundingClientRect();
    const chipBox = chip.getBoundingClientRect();
    const buttonBox = button.getBoundingClientRect();
    const title = header.querySelector('h1');
    return {
      titleShown: title !== null && title.getBoundingClientRect().width > 1,
      nameShown: name.textContent,
      nameCut: name.scrollWidth > name.clientWidth || nameBox.right > chipBox.right + 0.5,
      overflows: header.scrollWidth > header.clientWidth,
      buttonVisible: buttonBox.left >= 0 && buttonBox.right <= window.innerWidth,
    };
  });
}

/** Waits until the side panel's chip names `profile`, selected by `pattern`. */
async function waitForChip(profile: string, pattern: string): Promise<void> {
  await panel.getByText(`Profile ${profile}, matched by ${pattern}`, { exact: true }).waitFor();
}

beforeAll(async () => {
  site = await startLoopbackServer(urlTitlePage);
  githubPattern = `${new URL(site.baseURL).origin}/github/*`;
  await session.browser.waitForConnection('connected');
});

afterAll(async () => {
  await site.close();
});

describe('per-site profiles', () => {
  it('creates a GitHub profile on the options page: one site, only the memory server', async () => {
    const options = await openOptions(session.browser);
    await options.getByRole('button', { name: 'New profile' }).click();

    await options.getByRole('textbox', { name: 'Profile name' }).fill('GitHub');
    await options.getByRole('textbox', { name: 'Sites' }).fill(githubPattern);
    await options
      .getByRole('checkbox', { name: 'All servers, including ones added later' })
      .uncheck();
    await options.getByRole('checkbox', { name: 'memory', exact: true }).check();
    await options.getByRole('combobox', { name: 'Mode' }).selectOption('full');
    await scrollToTop(options.getByRole('heading', { name: 'Profiles', exact: true }));
    await screenshot(options, 'options-profile-editor');
    await options.getByRole('button', { name: 'Save profile' }).click();

    await options.getByRole('status').getByText('Saved GitHub.').waitFor();
    const listed = requestMethods['profiles/list'].result.parse(
      await uiRequest(options, 'host/request', { method: 'profiles/list', params: {} }),
    );
    expect(listed.profiles).toEqual([
      { id: 'github', name: 'GitHub', match: [githubPattern], servers: ['memory'], mode: 'full' },
    ]);
    expect(listed.defaultProfile).toMatchObject({ id: 'default', match: [] });
    expect(listed.defaultProfile.servers).toBeUndefined();
    // Stored by the host in config.json.
    const config = ConfigFileSchema.parse(
      JSON.parse(readFileSync(join(session.profile.switchyardHome, 'config.json'), 'utf8')),
    );
    expect(config.profiles).toEqual(listed.profiles);
    await scrollToTop(options.getByRole('heading', { name: 'Profiles', exact: true }));
    await screenshot(options, 'options-profiles');
    await options.close();
  });

  it('switches the side panel profile and the tool set with the active tab', async () => {
    const github = await session.browser.context.newPage();
    await github.goto(siteUrl('/github/x'));
    panel = await openSidePanel(session.browser, { beside: github });

    await waitForChip('GitHub', githubPattern);
    const onGithub = SnapshotSchema.parse(await uiRequest(panel, 'session/snapshot', {}));
    expect(onGithub.profile).toEqual({
      id: 'github',
      name: 'GitHub',
      matchedPattern: githubPattern,
    });
    expect(onGithub.context.mcpByServer.map((s) => s.server)).toEqual(['memory']);

    const other = await session.browser.context.newPage();
    await other.goto(siteUrl('/other/'));
    await other.bringToFront();
    await waitForChip('Default', 'default profile');
    const onOther = SnapshotSchema.parse(await uiRequest(panel, 'session/snapshot', {}));
    expect(onOther.profile).toEqual({ id: 'default', name: 'Default', matchedPattern: null });
    expect(onOther.context.mcpByServer.map((s) => s.server).sort()).toEqual([
      'filesystem',
      'memory',
    ]);

    await github.bringToFront();
    await waitForChip('GitHub', githubPattern);

    // The host lists different tools for the two profiles: GitHub's are memory's alone.
    const forGithub = await hostTools(panel, { profile: 'github' });
    const forDefault = await hostTools(panel, {});
    expect(serversOf(forGithub.tools)).toEqual(['memory']);
    expect(serversOf(forDefault.tools)).toEqual(['filesystem', 'memory']);
    expect(forDefault.tools.map((tool) => tool.name)).toContain(HIDDEN_TOOL);
    expect(forGithub.tools.map((tool) => tool.name)).toEqual(
      forDefault.tools.filter((tool) => tool.server === 'memory').map((tool) => tool.name),
    );
    expect(forGithub.tokens.total).toBeLessThan(forDefault.tokens.total);
  });

  // Firefox opens its sidebar about 300 px wide (issue 16: the chip read "Defaul" there; its
  // fonts run wider than Chromium's here, hence 260 px too). The whole profile name and "New
  // Chat" stay in view; the title and then the pattern give way, never the name.
  it("fits the header into Firefox's default sidebar width: the profile name is never cut", async () => {
    const github = await session.browser.context.newPage();
    await github.goto(siteUrl('/github/y'));
    const other = await session.browser.context.newPage();
    await other.goto(siteUrl('/other/y'));
    for (const [front, name, pattern] of [
      [other, 'Default', 'default profile'],
      [github, 'GitHub', githubPattern],
    ] as const) {
      await front.bringToFront();
      await waitForChip(name, pattern);
      for (const width of [260, 300, 360]) {
        await panel.setViewportSize({ width, height: 600 });
        if (width === 300) await screenshot(panel, `sidepanel-header-${name.toLowerCase()}-300`);
        await panel.getByRole('heading', { name: 'Switchyard' }).waitFor({ state: 'attached' });
        expect({ name, width, ...(await headerFit(panel)) }).toEqual({
          name,
          width,
          // Below 340 px the title is only for screen readers (still the page's heading).
          titleShown: width >= 340,
          nameShown: name,
          nameCut: false,
          overflows: false,
          buttonVisible: true,
        });
      }
    }
    await panel.setViewportSize(SIDE_PANEL_VIEWPORT);
    await github.close();
    await other.close();
  });

  it("a page that makes its own address unresolvable gets no MCP tools, never the default's", async () => {
    const page = await session.browser.context.newPage();
    await page.goto(siteUrl('/github/z'));
    await page.bringToFront();
    await waitForChip('GitHub', githubPattern);
    const chipTitle = (): Promise<string | null> =>
      panel.locator('.sy-profile-chip').getAttribute('title');

    // A query as long as the page likes is not sent for the lookup: the profile stays.
    await page.evaluate(() => {
      history.replaceState(null, '', `?q=${'x'.repeat(9_000)}`);
    });
    await vi.waitFor(async () => {
      expect(await chipTitle()).toContain('?q=xxxx');
    });
    await waitForChip('GitHub', githubPattern);

    // A path over the host's limit cannot be resolved: no profile, so no MCP tools, where the
    // default profile (every server) was what a failed lookup used to give.
    await page.evaluate(() => {
      history.replaceState(null, '', `/github/${'a'.repeat(9_000)}`);
    });
    await panel.getByText(UNKNOWN_PROFILE_CHIP.label, { exact: true }).waitFor();
    await vi.waitFor(async () => {
      const snapshot = UnknownSnapshotSchema.parse(await uiRequest(panel, 'session/snapshot', {}));
      expect(snapshot).toMatchObject({ profile: null, context: { mcpByServer: [] } });
    });
    await screenshotSidePanelModes(panel, 'sidepanel-profile-unknown');
    // Nor does "Add context" list the default's servers' resources: it says why it lists none.
    // (Clicked in the page: a pointer click would focus the panel's own window here, whose tab is
    // the panel, where in the browser the side panel is no tab at all.)
    const addContext = panel.getByRole('button', { name: 'Add context' });
    await addContext.evaluate((button) => {
      if (button instanceof HTMLElement) button.click();
    });
    await panel.getByText('The profile of the active tab could not be resolved').waitFor();

    await page.close();
  });

  it('refuses a hidden tool called anyway; its server never sees the call', async () => {
    const call = (name: string, profile?: string): { method: string; params: unknown } => ({
      method: 'tools/call',
      params: {
        name,
        arguments:
          name === HIDDEN_TOOL ? { path: join(session.profile.workspace, 'notes.txt') } : {},
        ...(profile === undefined ? {} : { profile }),
      },
    });

    // A host of its own, on a second native port. The restart makes sure its filesystem server
    // is up (a call before that would be refused for another reason); the allowed call shows
    // that a call which does reach the server is in its log.
    const outcome = await probeHost(session.browser.worker, [
      helloRequest(PROTOCOL_VERSION),
      { method: 'servers/restart', params: { server: 'filesystem' } },
      call(HIDDEN_TOOL, 'github'),
      call(HIDDEN_TOOL),
      { method: 'policy/set', params: { tool: ALLOWED_TOOL, policy: 'allow' } },
      call(ALLOWED_TOOL, 'github'),
      call(ALLOWED_TOOL),
      { method: 'servers/logs', params: { server: 'filesystem' } },
    ]);

    expect(outcome.kind).toBe('replies');
    const replies: readonly ProbeReply[] = outcome.kind === 'replies' ? outcome.replies : [];
    const [, restart, hidden, asked, , hiddenAllowed, allowed, logs] = replies;
    expect(restart?.result).toMatchObject({ server: { status: { state: 'running' } } });
    expect(hidden?.error?.data).toMatchObject({ reason: 'unknown-tool', name: HIDDEN_TOOL });
    // Under the default profile the same tool exists: it asks first (no allow rule).
    expect(asked?.error?.data).toMatchObject({ reason: 'approval-required' });
    // An allow rule does not bring a hidden tool back.
    expect(hiddenAllowed?.error?.data).toMatchObject({
      reason: 'unknown-tool',
      name: ALLOWED_TOOL,
    });
    expect(allowed?.error).toBeUndefined();
    expect(JSON.stringify(allowed?.result)).toContain(session.profile.workspace);
    const lines = requestMethods['servers/logs'].result.parse(logs?.result).lines;
    expect(lines).toContain('seen: tools/list');
    expect(lines.filter((line) => line.startsWith('seen: tools/call'))).toEqual([
      'seen: tools/call list_allowed_directories',
    ]);
    // The probe's host is gone with its port; the worker's own stays.
    await vi.waitFor(
      () => {
        expect(session.browser.processes().hosts).toHaveLength(1);
      },
      { timeout: 5_000, interval: 50 },
    );
  });
});
