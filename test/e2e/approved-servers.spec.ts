import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useSwitchyard } from './support/session';
import { openOptions, screenshotOptionsModes } from './support/ui';

// Journey (design D6, the approvals Switchyard keeps): the user takes a server out of config.json
// by hand. Its launch approval stays in trust.json and would approve the same launch again if
// the entry came back; the options page's "Approved servers" shows it as not in use, and Forget
// removes it (and only it), while the servers in use keep theirs.

const session = useSwitchyard();
let options: Page;

const ConfigSchema = z.looseObject({ mcpServers: z.record(z.string(), z.unknown()) });

function section(page: Page): Locator {
  return page.getByRole('region', { name: 'Approved servers' });
}

function item(page: Page, server: string): Locator {
  return section(page)
    .getByRole('listitem')
    .filter({ has: page.getByText(server, { exact: true }) });
}

beforeAll(async () => {
  await session.browser.waitForConnection('connected');
  options = await openOptions(session.browser);
});

describe('approved servers on the options page', () => {
  it('lists what each approval let run, all in use, with nothing to forget', async () => {
    await item(options, 'memory').getByText('In use', { exact: true }).waitFor();
    await item(options, 'filesystem').getByText('In use', { exact: true }).waitFor();
    expect(await item(options, 'memory').locator('code').first().textContent()).toContain(
      process.execPath,
    );
    expect(
      await section(options)
        .getByRole('button', { name: /^Forget/ })
        .count(),
    ).toBe(0);
  });

  it('shows an approval left behind by a server taken out of config.json, first, with Forget', async () => {
    const file = join(session.profile.switchyardHome, 'config.json');
    const config = ConfigSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    const kept = Object.fromEntries(
      Object.entries(config.mcpServers).filter(([name]) => name !== 'memory'),
    );
    writeFileSync(`${file}.swp`, JSON.stringify({ ...config, mcpServers: kept }, null, 2));
    renameSync(`${file}.swp`, file);

    await item(options, 'memory')
      .getByText('Not in use: no server of that name runs from here', { exact: true })
      .waitFor();
    const names = await section(options).locator('li strong').allTextContents();
    expect(names[0]).toBe('memory');
    expect(names).toContain('filesystem');

    await screenshotOptionsModes(options, 'options-approvals', 'Approved servers');
  });

  it('forgets that one approval and keeps the others', async () => {
    await section(options)
      .getByRole('button', { name: 'Forget the approval of memory from your config.json' })
      .click();
    await section(options)
      .getByRole('status')
      .getByText(/^Forgot the approval of memory/)
      .waitFor();
    await item(options, 'memory').waitFor({ state: 'detached' });
    // No other Forget button is left, so keyboard focus lands on the section, not the page.
    await expect
      .poll(() => options.evaluate(() => document.activeElement?.id))
      .toBe('approvals-heading');
    await item(options, 'filesystem').getByText('In use', { exact: true }).waitFor();
    const trust = readFileSync(join(session.profile.switchyardHome, 'trust.json'), 'utf8');
    expect(trust).not.toContain('"server": "memory"');
    expect(trust).toContain('"server": "filesystem"');
  });

  it('shows the tool pins a revoke kept once the server is gone too, and forgets them', async () => {
    // A call pins the tool's definition; the revoke keeps the pin (so a re-approved server
    // cannot swap its tools unseen); then the entry goes from config.json by hand.
    session.profile.cli(['call', 'filesystem__list_allowed_directories', '{}', '--yes']);
    session.profile.cli(['revoke', 'filesystem']);
    const file = join(session.profile.switchyardHome, 'config.json');
    const config = ConfigSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    const kept = Object.fromEntries(
      Object.entries(config.mcpServers).filter(([name]) => name !== 'filesystem'),
    );
    writeFileSync(`${file}.swp`, JSON.stringify({ ...config, mcpServers: kept }, null, 2));
    renameSync(`${file}.swp`, file);

    const row = item(options, 'filesystem');
    await row.getByText('Tool pins, no approval', { exact: true }).waitFor();
    expect(await row.textContent()).toContain('1 tool pin kept when its approval was revoked');
    await screenshotOptionsModes(options, 'options-approvals-pins', 'Approved servers');

    await section(options)
      .getByRole('button', { name: 'Forget the tool pins of filesystem from your config.json' })
      .click();
    await section(options)
      .getByRole('status')
      .getByText('Forgot 1 tool pin of filesystem.', { exact: true })
      .waitFor();
    await row.waitFor({ state: 'detached' });
    const trust = readFileSync(join(session.profile.switchyardHome, 'trust.json'), 'utf8');
    expect(trust).not.toContain('"server": "filesystem"');
  });
});
