import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { endOfLifeNote, nodeSupport } from '../../native-host/shared/node-support';
import { useSwitchyard } from './support/session';
import {
  expectFitsWidth,
  openOptions,
  openPopup,
  POPUP_VIEWPORT,
  screenshot,
  uiRequest,
} from './support/ui';

// Journey: the installer recorded the Node that ran it, and the browser's host runs on it. When
// that Node is past its end of life (no more security fixes), the popup and the settings page
// say so, name what to install and what to run; the popup's notice can be hidden for that
// version, the settings page keeps it. The side panel, where the user chats, does not have it.
// The e2e host runs on the tests' own Node (the oldest the product supports, Node 20, past its
// end of life since 2026-04-30), so in CI this is the warning case; on a maintained Node the
// same journey checks that nothing is shown.

const session = useSwitchyard();
const support = nodeSupport(process.versions.node, new Date());
const ended = endOfLifeNote(support) !== null;
const TITLE = 'The host runs on a Node without security fixes';

let popup: Page;

beforeAll(async () => {
  await session.browser.waitForConnection('connected');
  popup = await openPopup(session.browser);
  await popup.getByRole('list', { name: 'Servers' }).waitFor();
});

describe('a host on a Node past its end of life', () => {
  it('the session snapshot carries the Node the host runs on', async () => {
    const snapshot = await uiRequest(popup, 'session/snapshot', {});
    expect(snapshot).toMatchObject({
      connection: {
        state: 'connected',
        runtime: { node: process.versions.node, ended },
      },
    });
  });

  it.runIf(ended)('the popup says so, with what to install and what to run', async () => {
    const notice = popup.getByText(TITLE);
    await notice.waitFor();
    const body = popup.locator('.sy-notice', { has: notice });
    const text = await body.innerText();
    expect(text).toContain(`Node ${process.versions.node} stopped getting security fixes on`);
    expect(text).toContain(`Install Node ${String(support?.suggested)} or later, then run this`);
    expect(text).toContain('switchyard install');

    await popup.mouse.move(0, 0);
    for (const [width, suffix] of [
      [POPUP_VIEWPORT.width, ''],
      [360, '-narrow'],
    ] as const) {
      await popup.setViewportSize({ width, height: POPUP_VIEWPORT.height });
      await expectFitsWidth(popup, `popup-runtime-notice${suffix}`);
      for (const scheme of ['light', 'dark'] as const) {
        await popup.emulateMedia({ colorScheme: scheme });
        await screenshot(popup, `popup-runtime-notice${suffix}${scheme === 'dark' ? '-dark' : ''}`);
      }
    }
    await popup.setViewportSize(POPUP_VIEWPORT);
    await popup.emulateMedia({ colorScheme: 'light' });
  });

  it.runIf(ended)('Hide hides it in the popup for this Node, also when reopened', async () => {
    await popup.getByRole('button', { name: `Hide for Node ${process.versions.node}` }).click();
    await popup.getByText(TITLE).waitFor({ state: 'detached' });

    await popup.close();
    popup = await openPopup(session.browser);
    await popup.getByRole('list', { name: 'Servers' }).waitFor();
    await popup.getByRole('listitem').first().waitFor();
    expect(await popup.getByText(TITLE).count()).toBe(0);
  });

  it('the settings page shows it whatever the popup hid, and offers no Hide', async () => {
    const options = await openOptions(session.browser);
    try {
      await options.getByRole('heading', { name: 'Switchyard settings' }).waitFor();
      if (!ended) {
        await options.getByRole('heading', { level: 2 }).first().waitFor();
        expect(await options.getByText(TITLE).count()).toBe(0);
        return;
      }
      await options.getByText(TITLE).waitFor();
      expect(await options.getByRole('button', { name: /^Hide for Node/ }).count()).toBe(0);
      for (const [width, suffix] of [
        [1000, ''],
        [360, '-narrow'],
      ] as const) {
        await options.setViewportSize({ width, height: 700 });
        await expectFitsWidth(options, `options-runtime-notice${suffix}`);
        for (const scheme of ['light', 'dark'] as const) {
          await options.emulateMedia({ colorScheme: scheme });
          await screenshot(
            options,
            `options-runtime-notice${suffix}${scheme === 'dark' ? '-dark' : ''}`,
          );
        }
      }
    } finally {
      await options.close();
    }
  });
});
