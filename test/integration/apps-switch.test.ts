import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestMethods } from '../../protocol/methods';
import type { ServerSummary } from '../../protocol/servers';
import { HostHarness, ROOT } from './host-harness';

// The popup's "MCP Apps for <server>" switch (issue 12 part 4) through the real bundled host:
// `servers/setApps` writes config.json, servers/list and tools/list follow, and the server is
// never asked to be approved again. The dangerous direction: a switch that changes what runs or
// slips past the launch gate, or apps still shown after they were turned off.

const PROBE_SERVER = join(ROOT, 'test/fixtures/app-server.mjs');
const PROBE = { command: process.execPath, args: [PROBE_SERVER] };
const APP_URI = 'ui://probe/app.html';

type Method = keyof typeof requestMethods;

async function result<M extends Method>(host: HostHarness, method: M, params?: unknown) {
  const answer = await host.call(method, params);
  return requestMethods[method].result.parse(answer) as ReturnType<
    (typeof requestMethods)[M]['result']['parse']
  >;
}

function entryOf(host: HostHarness, name: string): Record<string, unknown> {
  const config = JSON.parse(readFileSync(join(host.home, 'config.json'), 'utf8')) as {
    mcpServers: Record<string, Record<string, unknown>>;
  };
  return config.mcpServers[name] ?? {};
}

function trustFile(host: HostHarness): string {
  return readFileSync(join(host.home, 'trust.json'), 'utf8');
}

async function summaryOf(host: HostHarness, name: string): Promise<ServerSummary | undefined> {
  const { servers } = await result(host, 'servers/list');
  return servers.find((s) => s.name === name);
}

async function pageOf(host: HostHarness): Promise<string | undefined> {
  const listing = await result(host, 'tools/list', { server: 'probe' });
  return listing.tools.find((t) => t.tool === 'show_probe')?.ui?.resourceUri;
}

function pidOf(server: ServerSummary | undefined): number | undefined {
  return server?.status.state === 'running' ? server.status.pid : undefined;
}

describe('servers/setApps through the host', () => {
  let host: HostHarness;

  beforeAll(async () => {
    host = await HostHarness.start({
      probe: { ...PROBE, prefix: 'pr' },
      idle: { ...PROBE, disabled: true },
    });
    await host.settled();
  });
  afterAll(async () => {
    await host.close();
  });

  it('turns a running server’s apps off and on: config.json, servers/list and tools/list follow, with no new approval', async () => {
    const before = await summaryOf(host, 'probe');
    expect(before).toMatchObject({ apps: true, status: { state: 'running' } });
    expect(await pageOf(host)).toBe(APP_URI);
    const trust = trustFile(host);

    const off = await result(host, 'servers/setApps', { server: 'probe', enabled: false });
    expect(off.server).toMatchObject({ name: 'probe', apps: false, status: { state: 'running' } });
    // Reconnected to tell the server (a new process), not re-approved.
    expect(pidOf(off.server)).not.toBe(pidOf(before));
    expect(entryOf(host, 'probe')).toEqual({ ...PROBE, prefix: 'pr', apps: false });
    expect(await summaryOf(host, 'probe')).toMatchObject({ apps: false });
    expect(await pageOf(host)).toBeUndefined();
    const read = await host.request('apps/read', { server: 'probe', uri: APP_URI });
    expect(read.error?.data?.reason).toBe('not-supported');
    expect((await result(host, 'trust/pending')).requests).toEqual([]);
    expect(trustFile(host)).toBe(trust);

    const on = await result(host, 'servers/setApps', { server: 'probe', enabled: true });
    expect(on.server).toMatchObject({ apps: true, status: { state: 'running' } });
    expect(entryOf(host, 'probe')).toEqual({ ...PROBE, prefix: 'pr' });
    expect(await pageOf(host)).toBe(APP_URI);
    expect(trustFile(host)).toBe(trust);

    // Never reported as waiting for approval on the way.
    const states = host.notifications
      .filter((n) => n.method === 'notifications/servers/changed')
      .map((n) => n.params['server'] as ServerSummary)
      .filter((s) => s.name === 'probe')
      .map((s) => s.status.state);
    expect(states).not.toContain('needs-approval');
    expect(host.notifications.some((n) => n.method === 'notifications/tools/changed')).toBe(true);
  });

  it('leaves a stopped server stopped, and says when nothing needed changing', async () => {
    const off = await result(host, 'servers/setApps', { server: 'idle', enabled: false });
    expect(off.server).toMatchObject({ apps: false, status: { state: 'stopped' } });
    expect(entryOf(host, 'idle')).toMatchObject({ disabled: true, apps: false });
    const again = await result(host, 'servers/setApps', { server: 'idle', enabled: false });
    expect(again.server).toMatchObject({ apps: false, status: { state: 'stopped' } });
  });

  it('refuses a server config.json does not have, and params that are not a boolean', async () => {
    const unknown = await host.request('servers/setApps', { server: 'nope', enabled: false });
    expect(unknown.error?.data?.reason).toBe('unknown-server');
    const invalid = await host.request('servers/setApps', { server: 'probe', enabled: 'no' });
    expect(invalid.error?.data?.reason).toBe('invalid-params');
    expect(entryOf(host, 'probe')).toEqual({ ...PROBE, prefix: 'pr' });
  });
});
