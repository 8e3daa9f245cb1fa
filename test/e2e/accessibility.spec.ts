import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FILESYSTEM_SERVER } from '../integration/host-harness';
import { useSwitchyard } from './support/session';
import { openOptions, openPopup, openSidePanel } from './support/ui';

// issue 14: an axe-core scan of the three pages (popup, side panel, options) finds no serious
// or critical violation, in light and in dark. axe-core is a test-only devDependency: its source
// is evaluated in the page through the DevTools protocol (which an extension page's CSP does not
// stop), never bundled into the extension.

const session = useSwitchyard({
  servers: (paths) => ({
    filesystem: { command: process.execPath, args: [FILESYSTEM_SERVER, paths.workspace] },
  }),
});

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');

const ViolationsSchema = z.array(
  z.object({
    id: z.string(),
    impact: z.string().nullable().optional(),
    help: z.string(),
    nodes: z.array(z.object({ target: z.array(z.unknown()) })),
  }),
);

/** The serious and critical violations axe finds on `page` as it is now, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const found: unknown = await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)`,
  );
  return ViolationsSchema.parse(found)
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact ?? ''} ${v.id}: ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`,
    );
}

async function scanBothSchemes(page: Page): Promise<Record<string, string[]>> {
  const result: Record<string, string[]> = {};
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    result[scheme] = await seriousViolations(page);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return result;
}

beforeAll(async () => {
  await session.browser.waitForConnection('connected');
});

describe('axe-core finds no serious or critical violation', () => {
  it('in the popup, a server expanded with its tools', async () => {
    const popup = await openPopup(session.browser);
    await popup.getByText('running', { exact: true }).first().waitFor();
    await popup.getByRole('button', { name: 'filesystem', exact: true }).click();
    await popup.getByRole('group', { name: 'Tools of filesystem' }).waitFor();
    expect(await scanBothSchemes(popup)).toEqual({ light: [], dark: [] });
    await popup.close();
  });

  it('in the side panel', async () => {
    const panel = await openSidePanel(session.browser);
    await panel.locator('main, [role="main"], textarea').first().waitFor();
    expect(await scanBothSchemes(panel)).toEqual({ light: [], dark: [] });
    await panel.close();
  });

  it('in the options page', async () => {
    const options = await openOptions(session.browser);
    await options.locator('h1').first().waitFor();
    expect(await scanBothSchemes(options)).toEqual({ light: [], dark: [] });
    await options.close();
  });
});
