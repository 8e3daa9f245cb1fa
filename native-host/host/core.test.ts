import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerSummary } from '../../protocol/servers';
import type { ServerSpec } from '../shared/server-spec';
import type { LaunchFn } from '../mcp/runtime-types';
import { fakeServerSpec } from '../testing/server-spec';
import { inMemoryLauncher, type InMemoryLauncherOptions } from '../testing/in-memory-launcher';
import { launchFingerprint } from '../trust/fingerprint';
import { TrustStore } from '../trust/trust-store';
import { HostCore, type HostCoreOptions } from './core';
import { clientMetadataUrlSetting } from './client-metadata-setting';
import { approvalOf, reasonOf } from '../testing/host-errors';

// The facade's own tests: that its parts are wired to each other. The parts' rules have their
// own tables (tool-gate, launch-gate, config-reload, profiles); here the dangerous direction is a
// wiring gap: a server that starts without its approval, a listing that misses a state change,
// an approval that outlives a shutdown.

function trustStore(): Promise<TrustStore> {
  return TrustStore.open(mkdtempSync(path.join(tmpdir(), 'switchyard-core-')));
}

async function approved(trust: TrustStore, ...specs: ServerSpec[]): Promise<void> {
  for (const spec of specs) await trust.approveLaunch(spec.scope, spec.name, spec.definition!);
}

interface Harness {
  readonly core: HostCore;
  readonly launched: readonly string[];
  readonly changes: ServerSummary[];
  readonly toolsChanged: string[];
  readonly removed: string[];
}

function harness(
  servers: readonly ServerSpec[],
  trust: TrustStore,
  over: Partial<HostCoreOptions> = {},
  launcher: InMemoryLauncherOptions = {
    tools: () => [{ name: 'read', annotations: { readOnlyHint: true } }, { name: 'write' }],
  },
): Harness {
  const { spawnServer, launched } = inMemoryLauncher(launcher);
  const changes: ServerSummary[] = [];
  const toolsChanged: string[] = [];
  const removed: string[] = [];
  const core = new HostCore({
    servers,
    spawnServer,
    clientInfo: { name: 'switchyard-test', version: '0' },
    trust,
    toolPolicy: [],
    events: {
      onServerChanged: (s) => changes.push(s),
      onToolsChanged: (s) => toolsChanged.push(s),
      onServerRemoved: (s) => removed.push(s.name),
    },
    ...over,
  });
  return { core, launched, changes, toolsChanged, removed };
}

describe('HostCore', () => {
  it('starts approved servers and holds the others at the launch gate, spawning nothing', async () => {
    const trust = await trustStore();
    const [a, b] = [fakeServerSpec('a'), fakeServerSpec('b')];
    await approved(trust, a);
    const { core, launched } = harness([a, b], trust);
    await core.startAll();
    expect(launched).toEqual(['a']);
    expect(core.listServers().map((s) => [s.name, s.status.state])).toEqual([
      ['a', 'running'],
      ['b', 'needs-approval'],
    ]);
    expect(core.pendingConsents().map((c) => c.server)).toEqual(['b']);
    await core.shutdown();
  });

  it('approves only the fingerprint that would run, then starts exactly that server', async () => {
    const trust = await trustStore();
    const b = fakeServerSpec('b');
    const { core, launched } = harness([b], trust);
    await core.startAll();
    expect(await reasonOf(core.approveLaunch('b', '0'.repeat(64)))).toBe('fingerprint-mismatch');
    expect(launched).toEqual([]);
    const summary = await core.approveLaunch('b', launchFingerprint(b.definition!));
    expect(summary.status.state).toBe('running');
    expect(launched).toEqual(['b']);
    await core.shutdown();
  });

  it('reports each state change with the server listing cost, which follows its tools', async () => {
    const trust = await trustStore();
    const a = fakeServerSpec('a');
    await approved(trust, a);
    const { core, changes } = harness([a], trust);
    await core.startAll();
    const last = changes.at(-1);
    expect(last?.status.state).toBe('running');
    expect(last?.toolCount).toBe(2);
    const listed = core.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(['a__read', 'a__write']);
    expect(last?.tokens).toBe(listed.tokens.byServer['a']);
    expect(last?.tokens).toBeGreaterThan(0);
    await core.stop('a');
    expect(core.listTools().tools).toEqual([]);
    expect(changes.at(-1)?.tokens).toBe(0);
    await core.shutdown();
  });

  it('routes a call through the policy gate: ask, then the approval for those arguments', async () => {
    const trust = await trustStore();
    const a = fakeServerSpec('a');
    await approved(trust, a);
    const calls: string[] = [];
    const { core } = harness(
      [a],
      trust,
      {},
      {
        tools: () => [
          {
            name: 'write',
            call: () => {
              calls.push('write');
              return { content: [{ type: 'text', text: 'done' }] };
            },
          },
        ],
      },
    );
    await core.startAll();
    expect(await reasonOf(core.callTool('a__nope', {}))).toBe('unknown-tool');
    const asked = await core.callTool('a__write', { path: 'x' }).catch((error: unknown) => error);
    const { requestId, nonce } = approvalOf(asked);
    const approval = { requestId, nonce };
    expect(calls).toEqual([]);
    // Bound to the arguments shown: other arguments do not redeem it.
    expect(await reasonOf(core.callTool('a__write', { path: 'y' }, { approval }))).toBe(
      'approval-invalid',
    );
    expect(calls).toEqual([]);
    // A fresh request for the arguments shown runs exactly once.
    const again = await core.callTool('a__write', { path: 'x' }).catch((error: unknown) => error);
    const fresh = approvalOf(again);
    const ran = await core.callTool('a__write', { path: 'x' }, { approval: fresh });
    expect(ran.content).toEqual([expect.objectContaining({ type: 'text' })]);
    expect(calls).toEqual(['write']);
    expect(await reasonOf(core.callTool('a__write', { path: 'x' }, { approval: fresh }))).toBe(
      'approval-invalid',
    );
    await core.shutdown();
  });

  it('runs an allow-listed tool, and policy/set pins what was allowed', async () => {
    const trust = await trustStore();
    const a = fakeServerSpec('a');
    await approved(trust, a);
    const rules: Array<{ glob: string; value: 'allow' | 'ask' | 'deny' }> = [];
    const { core, toolsChanged } = harness([a], trust, {
      savePolicy: (changes) => {
        for (const { tool, policy } of changes) {
          if (policy !== null) rules.push({ glob: tool, value: policy });
        }
        return Promise.resolve([...rules]);
      },
    });
    await core.startAll();
    toolsChanged.length = 0;
    const set = await core.setPolicy('a__write', 'allow');
    expect(set).toEqual({ rules: { a__write: 'allow' }, effective: 'allow' });
    expect(toolsChanged).toEqual(['a']);
    const result = await core.callTool('a__write', {});
    expect(result.isError).not.toBe(true);
    expect([...(await trust.pinsOf('user', 'a')).keys()]).toEqual(['write']);
    await core.shutdown();
  });

  it('denies a pending approval for good, and shutdown refuses every other one', async () => {
    const trust = await trustStore();
    const a = fakeServerSpec('a');
    await approved(trust, a);
    const { core } = harness([a], trust);
    await core.startAll();
    const ask = async (): Promise<{ requestId: string; nonce: string }> => {
      const { requestId, nonce } = approvalOf(
        await core.callTool('a__write', {}).then(
          () => new Error('expected approval-required'),
          (error: unknown) => error,
        ),
      );
      return { requestId, nonce };
    };
    const first = await ask();
    expect(core.denyApproval(first.requestId)).toBe(true);
    expect(core.denyApproval(first.requestId)).toBe(false);
    expect(await reasonOf(core.callTool('a__write', {}, { approval: first }))).toBe(
      'approval-invalid',
    );
    const second = await ask();
    await core.shutdown();
    expect(core.denyApproval(second.requestId)).toBe(false);
    expect(core.listServers()[0]?.status.state).toBe('stopped');
  });

  it('applies a reloaded configuration: a dropped server is removed, a new one is gated', async () => {
    const trust = await trustStore();
    const [a, b] = [fakeServerSpec('a'), fakeServerSpec('b')];
    await approved(trust, a);
    const { core, launched, removed } = harness([a], trust);
    await core.startAll();
    const { settled } = await core.applyConfig({ specs: [b], toolPolicy: [] });
    await settled;
    expect(removed).toEqual(['a']);
    expect(launched).toEqual(['a']);
    expect(core.listServers().map((s) => [s.name, s.status.state])).toEqual([
      ['b', 'needs-approval'],
    ]);
    expect(await reasonOf(core.start('a'))).toBe('unknown-server');
    await core.shutdown();
  });

  it('tells a call to a stopped server its server is unavailable, and a removed one unknown', async () => {
    const trust = await trustStore();
    const a = fakeServerSpec('a');
    await approved(trust, a);
    const { core } = harness([a], trust);
    await core.startAll();
    expect(core.listTools().tools.map((t) => t.name)).toContain('a__read');
    await core.stop('a');
    // The model was offered a__read while a ran: the call meets a stopped server, not a riddle.
    expect(await reasonOf(core.callTool('a__read', {}))).toBe('server-unavailable');
    expect(await reasonOf(core.callTool('a__nope', {}))).toBe('unknown-tool');
    const { settled } = await core.applyConfig({ specs: [], toolPolicy: [] });
    await settled;
    expect(await reasonOf(core.callTool('a__read', {}))).toBe('unknown-tool');
    await core.shutdown();
  });

  // Issue 11: `oauthClientMetadataUrl` used to be read at host start only, so an edit of
  // config.json kept registering clients dynamically (or by the old URL) until a restart.
  it('takes oauthClientMetadataUrl from each reload, for the next connection or sign-in', async () => {
    const trust = await trustStore();
    const setting = clientMetadataUrlSetting(undefined);
    const { core } = harness([], trust, { clientMetadataUrl: setting });
    const url = 'https://switchyard.example.com/oauth/client.json';
    await (
      await core.applyConfig({ specs: [], toolPolicy: [], clientMetadataUrl: url })
    ).settled;
    expect(setting.get()).toBe(url);
    const moved = 'https://switchyard.example.com/oauth/v2.json';
    await (
      await core.applyConfig({ specs: [], toolPolicy: [], clientMetadataUrl: moved })
    ).settled;
    expect(setting.get()).toBe(moved);
    // Removed from config.json: dynamic registration again.
    await (
      await core.applyConfig({ specs: [], toolPolicy: [] })
    ).settled;
    expect(setting.get()).toBeUndefined();
    await core.shutdown();
  });

  it('starts nothing once shut down, not even a late approval', async () => {
    const trust = await trustStore();
    const b = fakeServerSpec('b');
    const { core, launched } = harness([b], trust);
    await core.startAll();
    await core.shutdown();
    await core.approveLaunch('b', launchFingerprint(b.definition!)).catch(() => undefined);
    expect(launched).toEqual([]);
  });
});

describe('HostCore, the launch gate on a server it already runs', () => {
  /** A launcher that counts the processes whose transport is still open. */
  function countingLauncher() {
    const inner = inMemoryLauncher({ tools: () => [{ name: 'read' }] });
    const open = new Set<number>();
    const spawnServer: LaunchFn = async (launch) => {
      const spawned = await inner.spawnServer(launch);
      const pid = spawned.pid ?? -1;
      open.add(pid);
      const close = spawned.transport.close.bind(spawned.transport);
      spawned.transport.close = async () => {
        open.delete(pid);
        await close();
      };
      return spawned;
    };
    return { spawnServer, open, launched: inner.launched };
  }

  it('stops a running server whose approval went away: nothing of it runs, and approval starts one', async () => {
    const trust = await trustStore();
    const a = fakeServerSpec('a');
    await approved(trust, a);
    const { spawnServer, open, launched } = countingLauncher();
    const { core } = harness([a], trust, { spawnServer });
    await core.startAll();
    expect(open.size).toBe(1);
    // `switchyard revoke a`, or another host: this host learns it at the next start.
    await trust.revokeLaunch('user', 'a');
    expect((await core.start('a')).status.state).toBe('needs-approval');
    expect(open.size).toBe(0);
    await core.approveLaunch('a', launchFingerprint(a.definition!));
    expect(launched).toEqual(['a', 'a']);
    expect(open.size).toBe(1);
    await core.shutdown();
    expect(open.size).toBe(0);
  });

  it('revoking a workspace drops its pins in memory too: the first allowed call after approval pins again', async () => {
    const trust = await trustStore();
    const root = mkdtempSync(path.join(tmpdir(), 'switchyard-ws-'));
    const w = fakeServerSpec('w', {
      provenance: 'workspace',
      workspaceRoot: root,
      scope: root,
      definition: {
        executable: '/usr/bin/fake',
        args: ['server.js'],
        env: {},
        cwd: null,
        provenance: 'workspace',
        workspaceRoot: root,
      },
    });
    await approved(trust, w);
    const { core } = harness([w], trust, {
      toolPolicy: [{ glob: 'w__read', value: 'allow' }],
    });
    core.applyProfiles({ profiles: [], sharedWorkspaces: [root] });
    await core.startAll();
    await core.callTool('w__read', {});
    expect(await trust.pinOf(root, 'w', 'read')).toBeDefined();

    await core.revokeLaunch({ workspace: root });
    expect(await trust.pinOf(root, 'w', 'read')).toBeUndefined();
    await core.approveLaunch('w', launchFingerprint(w.definition!));
    await core.callTool('w__read', {});
    expect(await trust.pinOf(root, 'w', 'read')).toBeDefined();
    await core.shutdown();
  });
});
