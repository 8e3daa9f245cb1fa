import { describe, expect, it, vi } from 'vitest';
import { PROTOCOL_VERSION } from '../../protocol/methods';
import { FILESYSTEM_SERVER, MEMORY_SERVER } from '../integration/host-harness';
import { helloRequest, probeHost } from './support/host-probe';
import { useSwitchyard } from './support/session';
import { uiRequest } from './support/ui';

// Journey: the built extension, loaded in Chromium, reaches the real bundled host through the
// host manifest registered for its profile, and the host runs the user's trusted servers.

const session = useSwitchyard();

describe('the service worker and the installed host', () => {
  it('loads the extension with the pinned id', () => {
    expect(session.browser.worker.url()).toBe(`${session.browser.origin}/background.js`);
  });

  it('connects: the worker reports the host version', async () => {
    const version = session.profile.cli(['version']).trim();

    const line = await session.browser.waitForConnection('connected');

    expect(line).toBe(`[switchyard] Connected to Switchyard host ${version}.`);
  });

  it('runs one host, a child of the browser, called with this extension origin', () => {
    const { browser: chromium, hosts } = session.browser.processes();

    expect(hosts).toHaveLength(1);
    expect(hosts[0]?.args).toMatch(new RegExp(` host ${session.browser.origin}/$`));
    expect(chromium.map((p) => p.pid)).toContain(hosts[0]?.ppid);
  });

  it("starts the trusted servers as the host's children", async () => {
    await vi.waitFor(
      () => {
        const { hosts, servers } = session.browser.processes();
        const hostPid = hosts[0]?.pid;
        expect(servers.filter((p) => p.ppid === hostPid).map((p) => p.args)).toEqual(
          expect.arrayContaining([
            expect.stringContaining(`${FILESYSTEM_SERVER} ${session.profile.workspace}`),
            expect.stringContaining(MEMORY_SERVER),
          ]),
        );
      },
      { timeout: 15_000, interval: 50 },
    );
  });

  it("answers the extension's own port, with this profile's SWITCHYARD_HOME", async () => {
    const outcome = await probeHost(session.browser.worker, [
      helloRequest(PROTOCOL_VERSION),
      { method: 'servers/list' },
    ]);

    expect(outcome.kind).toBe('replies');
    const [hello, list] = outcome.kind === 'replies' ? outcome.replies : [];
    expect(hello?.result).toMatchObject({
      protocolVersion: PROTOCOL_VERSION,
      home: session.profile.switchyardHome,
      configWarnings: [],
    });
    expect(list?.result).toMatchObject({
      servers: expect.arrayContaining([
        expect.objectContaining({ name: 'filesystem' }),
        expect.objectContaining({ name: 'memory' }),
      ]) as unknown,
    });
  });

  it("tells the extension's pages: the session snapshot says connected", async () => {
    const page = await session.browser.openExtensionPage('sidepanel.html');

    const snapshot = await uiRequest(page, 'session/snapshot', {});

    expect(snapshot).toMatchObject({
      connection: { state: 'connected', home: session.profile.switchyardHome },
    });
    await page.close();
  });

  it('keeps one host for the worker once the probe has disconnected', async () => {
    await vi.waitFor(() => {
      expect(session.browser.processes().hosts).toHaveLength(1);
    });
  });
});
