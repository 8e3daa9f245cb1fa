import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { FILESYSTEM_SERVER } from '../integration/host-harness';
import type { ProcessInfo } from './support/chromium';
import { useSwitchyard } from './support/session';
import { cardField, consentCard } from './support/side-panel';
import { screenshotSidePanelModes, waitForTools } from './support/ui';
import { openWithWorkspaceServers } from './support/workspace';

// Journey (issue 4, design D5/D6): a repository's `.mcp.json` names a server. The host reads it
// (the folder is listed in config.json `workspaces`) but runs nothing from it until the user has
// seen the literal launch definition in the side panel's consent card and pressed Approve.

const SERVER = 'repo-files';
/** The tool-name prefix the repository asks for: on the card, and part of what is approved. */
const PREFIX = 'notes';
const session = useSwitchyard({ launch: false });
let repo: string;
let panel: Page;

/** The workspace server's process: the filesystem server on the repository folder. */
function repoServer(): ProcessInfo | undefined {
  return session.browser
    .processes()
    .servers.find((p) => p.args.endsWith(`${FILESYSTEM_SERVER} ${repo}`));
}

beforeAll(async () => {
  // The user's own servers are approved (createProfile ran `switchyard trust --all --yes`).
  ({ repo, panel } = await openWithWorkspaceServers(session, (folder) => ({
    [SERVER]: {
      command: process.execPath,
      args: [FILESYSTEM_SERVER, folder],
      env: { NOTES_HOME: '${HOME}' },
      prefix: PREFIX,
    },
  })));
});

describe('a workspace server asks before it first runs', () => {
  it('shows the consent card with the literal command, args, env, tool prefix and where it came from', async () => {
    const card = consentCard(panel, SERVER);
    await card.waitFor();

    expect(await cardField(card, 'Program').textContent()).toBe(process.execPath);
    expect(
      await card.getByRole('list', { name: '2 arguments' }).getByRole('listitem').allTextContents(),
    ).toEqual([FILESYSTEM_SERVER, repo]);
    expect(await cardField(card, 'Command line').textContent()).toContain(
      `${FILESYSTEM_SERVER} ${repo}`,
    );
    // Environment values as written: `${HOME}` is filled in at launch, not shown expanded.
    expect(await cardField(card, 'Environment').getByRole('row').allTextContents()).toEqual([
      'NOTES_HOME${HOME}',
    ]);
    expect(await cardField(card, 'Working folder').textContent()).toBe(repo);
    expect(await cardField(card, 'Tool names').textContent()).toBe(
      `${PREFIX} (what its tool names start with)`,
    );
    expect(await cardField(card, 'Comes from').textContent()).toContain(join(repo, '.mcp.json'));
    // The answers are in view although the card is taller than the region it scrolls in.
    for (const name of ['Approve', 'Not now']) {
      const onTop = await card.getByRole('button', { name }).evaluate((button) => {
        const box = button.getBoundingClientRect();
        const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        return box.bottom <= window.innerHeight && hit !== null && button.contains(hit);
      });
      expect(onTop, name).toBe(true);
    }
    await screenshotSidePanelModes(panel, 'sidepanel-consent-card');
  });

  it('runs nothing before Approve', () => {
    expect(repoServer()).toBeUndefined();
    expect(
      session.browser
        .processes()
        .servers.map((p) => p.args)
        .join('\n'),
    ).not.toContain(repo);
    expect(session.profile.auditLog()).toContainEqual(
      expect.objectContaining({ event: 'launch', server: SERVER, outcome: 'needs-approval' }),
    );
  });

  it('Escape on the card is "Not now", as it says: the card goes, focus is in the message box, nothing runs', async () => {
    const card = consentCard(panel, SERVER);
    expect(await card.getByText('Esc: not now').count()).toBe(1);
    // A consent card does not take focus by itself (it waits for no run): the user goes to it.
    await card.getByRole('heading').focus();
    await panel.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });
    expect(
      await panel.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null),
    ).toBe('Message');
    expect(repoServer()).toBeUndefined();
    // "Not now" hides the card in this panel only; reopened, the panel asks again.
    await panel.reload();
    await card.waitFor();
  });

  it('starts the server once approved, and its tools join the chat', async () => {
    const card = consentCard(panel, SERVER);

    await card.getByRole('button', { name: 'Approve' }).click();

    await vi.waitFor(
      () => {
        expect(repoServer()).toBeDefined();
      },
      { timeout: 15_000, interval: 50 },
    );
    const hostPid = session.browser.processes().hosts[0]?.pid;
    expect(repoServer()?.ppid).toBe(hostPid);
    await waitForTools(panel, [`${PREFIX}__read_text_file`]);
    await card.waitFor({ state: 'detached' });
  });
});
