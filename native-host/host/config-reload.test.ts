import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, test, vi } from 'vitest';
import type { ServerSummary } from '../../protocol/servers';
import { inMemoryLauncher } from '../testing/in-memory-launcher';
import { launchFingerprint } from '../trust/fingerprint';
import { TrustStore, nodeTrustFileSystem, type TrustFileSystem } from '../trust/trust-store';
import { ConfigReloader, carryOverSkipped, planReload } from './config-reload';
import { HostCore } from './core';
import { type ServerSpec } from '../shared/server-spec';
import type { HostSetup } from './setup';
import { fakeServerSpec } from '../testing/server-spec';

// The dangerous direction: a reload that lets a new or changed launch run without the gate, or
// leaves a removed server's process running. Restarting an unchanged server needlessly only
// costs a handshake; it is still a bug (pending calls fail), so it is tested too.

const spec = fakeServerSpec;

describe('planReload', () => {
  const a = spec('a');
  const cases: ReadonlyArray<readonly [string, ServerSpec, Partial<Record<string, string[]>>]> = [
    ['an identical spec is unchanged', spec('a'), { unchanged: ['a'] }],
    ['changed args replace it', spec('a', { args: ['other.js'] }), { replaced: ['a'] }],
    [
      'a changed env value replaces it',
      spec('a', { env: { K: 'v' }, definition: { ...a.definition!, env: { K: 'v' } } }),
      { replaced: ['a'] },
    ],
    [
      'another resolved executable replaces it',
      spec('a', { definition: { ...a.definition!, executable: '/opt/fake' } }),
      { replaced: ['a'] },
    ],
    ['a changed timeout replaces it', spec('a', { toolTimeoutMs: 9_000 }), { replaced: ['a'] }],
    [
      'a command no longer found replaces it',
      spec('a', { definition: null, resolutionError: { reason: 'not-found', message: 'x' } }),
      { replaced: ['a'] },
    ],
    [
      'moving into a workspace replaces it',
      spec('a', { provenance: 'workspace', workspaceRoot: '/w', scope: '/w' }),
      { replaced: ['a'] },
    ],
    ['a new prefix retunes it', spec('a', { prefix: 'x' }), { retuned: ['a'] }],
    ['disabling retunes it', spec('a', { disabled: true }), { retuned: ['a'] }],
    // Not a new launch: the popup's switch must never make a server ask to be approved again.
    ['turning apps off retunes it', spec('a', { apps: false }), { retuned: ['a'] }],
  ];
  test.each(cases)('%s', (_label, next, expected) => {
    expect(planReload([a], [next])).toEqual({
      added: [],
      removed: [],
      replaced: [],
      retuned: [],
      unchanged: [],
      ...expected,
    });
  });

  it('adds and removes by name, whatever the order', () => {
    expect(planReload([spec('a'), spec('b')], [spec('c'), spec('a')])).toEqual({
      added: ['c'],
      removed: ['b'],
      replaced: [],
      retuned: [],
      unchanged: ['a'],
    });
  });

  it('keeps the launch fingerprint when apps are turned off', () => {
    expect(launchFingerprint(spec('a', { apps: false }).definition!)).toBe(
      launchFingerprint(a.definition!),
    );
  });

  it('carries over a running server whose entry became invalid, and only that', () => {
    const running = [spec('a'), spec('b'), spec('c')];
    const next = [spec('b', { args: ['new.js'] })];
    expect(carryOverSkipped(running, next, ['a', 'b']).map((s) => [s.name, s.args])).toEqual([
      ['b', ['new.js']],
      ['a', ['server.js']],
    ]);
  });
});

/** Per launch, in order: whether the client declared MCP Apps when it connected. */
const declaredApps: Array<{ server: string; apps: boolean }> = [];

/** An in-memory MCP server per launch, counted, with one tool. */
function fakeLauncher() {
  return inMemoryLauncher({
    firstPid: 101,
    setup: (mcp, launch) => {
      mcp.server.oninitialized = () => {
        // The in-memory server speaks 2025-11-25, whose `initialize` carries the capabilities.
        // eslint-disable-next-line @typescript-eslint/no-deprecated
        const extensions = mcp.server.getClientCapabilities()?.extensions ?? {};
        declaredApps.push({ server: launch.name, apps: Object.keys(extensions).length > 0 });
      };
    },
    tools: (launch) => [
      {
        name: 'ping',
        description: `Ping ${launch.args.join(' ')}.`,
        call: () => ({ content: [{ type: 'text', text: 'pong' }] }),
      },
    ],
  });
}

async function harness(
  initial: ServerSpec[],
  approved: ServerSpec[],
  fs: TrustFileSystem = nodeTrustFileSystem,
) {
  const home = mkdtempSync(path.join(tmpdir(), 'sy-reload-'));
  const trust = await TrustStore.open(home, { fs });
  for (const s of approved)
    if (s.definition) await trust.approveLaunch(s.scope, s.name, s.definition);
  const { spawnServer, launched } = fakeLauncher();
  const changed: ServerSummary[] = [];
  const removed: string[] = [];
  const tools: string[] = [];
  const core = new HostCore({
    servers: initial,
    spawnServer,
    clientInfo: { name: 'test', version: '0' },
    trust,
    toolPolicy: [],
    events: {
      onServerChanged: (s) => changed.push(s),
      onServerRemoved: (s) => removed.push(s.name),
      onToolsChanged: (s) => tools.push(s),
    },
  });
  await core.startAll();
  const state = (name: string) => core.listServers().find((s) => s.name === name)?.status;
  const apply = async (specs: ServerSpec[], extra: Partial<HostSetup> = {}) => {
    const { settled } = await core.applyConfig({ specs, toolPolicy: [], ...extra });
    await settled;
  };
  return { core, trust, launched, changed, removed, tools, state, apply };
}

describe('HostCore.applyConfig', () => {
  it('keeps unchanged servers running untouched and gates every new or changed launch', async () => {
    const [a, b, c, e] = [spec('a'), spec('b'), spec('c'), spec('e')];
    const h = await harness([a, b, c], [a, b, c, e]);
    const pidOfA = h.state('a');
    expect(h.launched).toEqual(['a', 'b', 'c']);

    const changedB = spec('b', { args: ['evil.js'] });
    await h.apply([a, changedB, spec('d'), e]);

    expect(h.state('a')).toEqual(pidOfA);
    expect(h.launched.filter((n) => n === 'a')).toHaveLength(1);
    expect(h.state('b')).toMatchObject({
      state: 'needs-approval',
      consent: {
        reason: 'changed',
        summary: 'args changed - needs approval',
        changes: [{ field: 'args', before: '["server.js"]', after: '["evil.js"]' }],
      },
    });
    expect(h.state('d')).toMatchObject({
      state: 'needs-approval',
      consent: { reason: 'edited-outside' },
    });
    expect(h.state('e')).toMatchObject({ state: 'running' });
    expect(h.removed).toEqual(['c']);
    expect(h.core.listServers().map((s) => s.name)).toEqual(['a', 'b', 'd', 'e']);
    expect(h.launched).toEqual(['a', 'b', 'c', 'e']);
    expect(h.core.listTools().tools.map((t) => t.name)).toEqual(['a__ping', 'e__ping']);
    await h.core.shutdown();
  });

  it('tells the client once that a removed running server took its tools, and nothing at shutdown', async () => {
    const [a, b, c] = [spec('a'), spec('b'), spec('c')];
    const h = await harness([a, b, c], [a, b, c]);
    h.tools.length = 0;
    await h.apply([a, spec('b', { args: ['evil.js'] })]);
    // c removed and b replaced (now waiting for approval): each left the listing once.
    expect([...h.tools].sort()).toEqual(['b', 'c']);
    h.tools.length = 0;
    await h.core.shutdown();
    expect(h.tools).toEqual([]);
  });

  it('renames tools for a new prefix without restarting, and stops a server disabled', async () => {
    const a = spec('a');
    const h = await harness([a], [a]);
    await h.apply([spec('a', { prefix: 'alpha' })]);
    expect(h.launched).toEqual(['a']);
    expect(h.core.listTools().tools.map((t) => t.name)).toEqual(['alpha__ping']);
    expect(h.tools).toContain('a');
    await h.apply([spec('a', { prefix: 'alpha', disabled: true })]);
    expect(h.state('a')).toEqual({ state: 'stopped' });
    await h.apply([spec('a', { prefix: 'alpha' })]);
    expect(h.state('a')).toMatchObject({ state: 'running' });
    expect(h.launched).toEqual(['a', 'a']);
    await h.core.shutdown();
  });

  it('reconnects a connected server whose apps were turned off or on, with no new approval', async () => {
    declaredApps.length = 0;
    const [a, b] = [spec('a'), spec('b', { disabled: true })];
    const h = await harness([a, b], [a, b]);
    const approvals = await h.trust.snapshot();
    h.tools.length = 0;
    await h.apply([spec('a', { apps: false }), spec('b', { disabled: true, apps: false })]);
    // a reconnected, telling the server apps are off; its launch was approved as it was.
    expect(h.state('a')).toMatchObject({ state: 'running' });
    expect(h.launched).toEqual(['a', 'a']);
    expect(declaredApps).toEqual([
      { server: 'a', apps: true },
      { server: 'a', apps: false },
    ]);
    expect(h.core.pendingConsents()).toEqual([]);
    expect(h.tools).toContain('a');
    expect(h.core.listServers().map((s) => [s.name, s.apps])).toEqual([
      ['a', false],
      ['b', false],
    ]);
    // b was not connected: it stays stopped, and connects with the new setting when started.
    expect(h.state('b')).toEqual({ state: 'stopped' });
    await h.apply([spec('a', { apps: false }), spec('b', { apps: false })]);
    expect(declaredApps.at(-1)).toEqual({ server: 'b', apps: false });
    await h.apply([spec('a'), spec('b')]);
    expect(declaredApps.filter((d) => d.server === 'a').map((d) => d.apps)).toEqual([
      true,
      false,
      true,
    ]);
    const after = await h.trust.snapshot();
    for (const s of [a, b]) {
      expect(after.launchStatus(s.scope, s.name, s.definition!)).toEqual(
        approvals.launchStatus(s.scope, s.name, s.definition!),
      );
    }
    await h.core.shutdown();
  });

  it('keeps the running version of a server whose entry became invalid', async () => {
    const a = spec('a');
    const h = await harness([a], [a]);
    await h.apply([], { skippedServers: ['a'] });
    expect(h.state('a')).toMatchObject({ state: 'running' });
    expect(h.removed).toEqual([]);
    await h.apply([]);
    expect(h.removed).toEqual(['a']);
    await h.core.shutdown();
  });

  it('starts a server waiting for approval once another process approved it', async () => {
    const a = spec('a');
    const h = await harness([a], []);
    expect(h.state('a')).toMatchObject({ state: 'needs-approval' });
    await h.trust.approveLaunch('user', 'a', a.definition!);
    await h.apply([a]);
    expect(h.state('a')).toMatchObject({ state: 'running' });
    await h.core.shutdown();
  });

  it('applies a changed toolPolicy and says every listing changed', async () => {
    const a = spec('a');
    const h = await harness([a], [a]);
    h.tools.length = 0;
    await h.apply([a], { toolPolicy: [{ glob: 'a__*', value: 'deny' }] });
    expect(h.tools).toContain('a');
    expect(h.core.listTools().tools).toEqual([]);
    await h.core.shutdown();
  });

  it('never spawns a server a reload dropped while its approval was being saved', async () => {
    // trust.json's rename waits for the test: the reload runs while approveLaunch is saving.
    let reachRename = (): void => undefined;
    const renaming = new Promise<void>((resolve) => (reachRename = resolve));
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let hold = false;
    const fs: TrustFileSystem = {
      ...nodeTrustFileSystem,
      rename: async (from, to) => {
        if (hold) {
          reachRename();
          await released;
        }
        await nodeTrustFileSystem.rename(from, to);
      },
    };
    const a = spec('a');
    const h = await harness([a], [], fs);
    expect(h.state('a')).toMatchObject({ state: 'needs-approval' });
    hold = true;
    const approving = h.core.approveLaunch('a', launchFingerprint(a.definition!));
    await renaming;
    const applying = h.core.applyConfig({ specs: [], toolPolicy: [] });
    await vi.waitFor(() => {
      expect(h.removed).toEqual(['a']);
    });
    release();
    await expect(approving).rejects.toMatchObject({ reason: 'unknown-server' });
    await (
      await applying
    ).settled;
    expect(h.launched).toEqual([]);
    expect(h.core.livePids()).toEqual([]);
    await h.core.shutdown();
  });

  it('forgets a stale approval, and re-gates a configured server whose approval it forgets', async () => {
    const [a, gone] = [spec('a'), spec('gone')];
    const h = await harness([a], [a, gone]);
    expect(await h.core.forgetLaunch('gone')).toEqual({ launch: true, pins: 0, server: null });
    expect(await h.trust.launchApproval('user', 'gone')).toBeUndefined();
    const forgotten = await h.core.forgetLaunch('a');
    expect(forgotten).toMatchObject({ launch: true, server: { name: 'a' } });
    expect(h.state('a')).toMatchObject({
      state: 'needs-approval',
      consent: { reason: 'edited-outside' },
    });
    await h.core.shutdown();
  });
});

function setup(over: Partial<HostSetup> = {}): HostSetup {
  return {
    home: '/h',
    configFile: '/h/config.json',
    specs: [],
    toolPolicy: [],
    warnings: [],
    configRejected: false,
    ...over,
  };
}

function reloader(loads: Array<HostSetup | Error>, exists: () => boolean = () => true) {
  const applied: HostSetup[] = [];
  const logs: string[] = [];
  const r = new ConfigReloader({
    initial: setup({ warnings: ['old warning'] }),
    load: () => {
      const next = loads.shift() ?? setup();
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    },
    configExists: () => Promise.resolve(exists()),
    apply: (s) => {
      applied.push(s);
      return Promise.resolve({ settled: Promise.resolve() });
    },
    log: (level, message) => logs.push(`${level}: ${message}`),
  });
  return { r, applied, logs };
}

describe('ConfigReloader', () => {
  it('keeps the last good configuration while the file is broken, and says so once', async () => {
    const broken = setup({ configRejected: true, warnings: ['/h/config.json:3:1: bad JSON.'] });
    const { r, applied, logs } = reloader([broken, broken, setup({ warnings: ['new warning'] })]);
    await r.reload();
    await r.reload();
    expect(applied).toEqual([]);
    expect(logs).toEqual([
      'warning: /h/config.json:3:1: bad JSON. The last good configuration keeps running; fix the file and save it again.',
    ]);
    expect(r.warnings()).toEqual(['old warning', expect.stringMatching(/bad JSON/)]);
    await r.reload();
    expect(applied).toHaveLength(1);
    expect(logs.slice(1)).toEqual([
      'info: /h/config.json is valid again; reloaded it.',
      'warning: new warning',
    ]);
    expect(r.warnings()).toEqual(['new warning']);
  });

  it('keeps the last good configuration while the file is missing', async () => {
    let exists = false;
    const { r, applied, logs } = reloader([], () => exists);
    await r.reload();
    expect(applied).toEqual([]);
    expect(logs[0]).toMatch(/missing; the servers already loaded keep running/);
    exists = true;
    await r.reload();
    expect(applied).toHaveLength(1);
  });

  it('never rejects: a load that throws is reported', async () => {
    const { r, applied, logs } = reloader([new Error('EMFILE')]);
    await expect(r.reload()).resolves.toHaveProperty('settled');
    expect(applied).toEqual([]);
    expect(logs[0]).toMatch(/Reloading \/h\/config.json failed \(EMFILE\)/);
  });

  it('holds reloads while an exclusive write runs (they could put older settings back)', async () => {
    const { r, applied } = reloader([]);
    let finish = (): void => undefined;
    const write = r.exclusive(
      () =>
        new Promise<string>((resolve) => {
          finish = () => {
            resolve('written');
          };
        }),
    );
    const reload = r.reload();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(applied).toEqual([]);
    finish();
    expect(await write).toBe('written');
    await reload;
    expect(applied).toHaveLength(1);
  });

  it('runs a write and its reload with no other reload in between; shares waiting reloads', async () => {
    const { r, applied } = reloader([]);
    const order: string[] = [];
    let finishWrite = (): void => undefined;
    const write = r.afterWrite(async () => {
      order.push('write');
      await new Promise<void>((resolve) => (finishWrite = resolve));
      order.push('written');
      return 7;
    });
    const first = r.reload();
    const second = r.reload();
    expect(first).toBe(second);
    await Promise.resolve();
    finishWrite();
    expect((await write).value).toBe(7);
    expect(applied).toHaveLength(1);
    await first;
    expect(applied).toHaveLength(2);
    expect(order).toEqual(['write', 'written']);
  });
});
