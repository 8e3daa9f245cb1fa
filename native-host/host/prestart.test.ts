import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerProcess } from '../mcp/runtime-types';
import type { ServerLaunch, ServerSpec } from '../shared/server-spec';
import { fakeServerSpec } from '../testing/server-spec';
import { TrustStore } from '../trust/trust-store';
import { launchOf } from './launch-of';
import { PrestartedServers } from './prestart';

function fakeSpawner() {
  const spawned: string[] = [];
  const closed: string[] = [];
  const spawn = (launch: ServerLaunch): Promise<ServerProcess> => {
    spawned.push(launch.name);
    return Promise.resolve({
      transport: {
        start: () => Promise.resolve(),
        send: () => Promise.resolve(),
        close: () => {
          closed.push(launch.name);
          return Promise.resolve();
        },
      },
      pid: 1000 + spawned.length,
      exitInfo: undefined,
      stderrTail: () => [],
      stderrDropped: 0,
    });
  };
  return { spawn, spawned, closed };
}

async function approvedSnapshot(approve: readonly ServerSpec[]) {
  const trust = await TrustStore.open(mkdtempSync(path.join(tmpdir(), 'sy-prestart-')));
  for (const spec of approve) await trust.approveLaunch(spec.scope, spec.name, spec.definition!);
  return trust.snapshot();
}

const options = { hostEnv: { TOKEN: 'set' }, platform: 'linux' as const };

describe('PrestartedServers', () => {
  it('spawns early only an enabled local server whose exact definition is approved', async () => {
    const approved = fakeServerSpec('approved');
    const before = fakeServerSpec('edited');
    const edited = fakeServerSpec('edited', {
      definition: { ...before.definition!, args: ['server.js', '--other'] },
    });
    const disabled = fakeServerSpec('disabled', { disabled: true });
    const withEnv = (name: string, value: string) => {
      const spec = fakeServerSpec(name);
      return { ...spec, definition: { ...spec.definition!, env: { KEY: value } } };
    };
    const fromEnv = withEnv('from-env', '${TOKEN}');
    const fromStore = withEnv('from-store', '${ONLY_IN_THE_STORE}');
    const optional = withEnv('optional', '${ONLY_IN_THE_STORE:-fallback}');
    const snapshot = await approvedSnapshot([
      approved,
      before,
      disabled,
      fromEnv,
      fromStore,
      optional,
    ]);
    const { spawn, spawned } = fakeSpawner();
    const pool = PrestartedServers.start(
      [approved, edited, disabled, fromEnv, fromStore, optional],
      snapshot,
      options,
      spawn,
    );
    // The edited entry needs a new approval; a variable the environment lacks may be in the
    // secret store, which only the full host opens (even one with a default: the stored value
    // would win there).
    expect(spawned).toEqual(['approved', 'from-env']);
    expect(pool.names()).toEqual(['approved', 'from-env']);
  });

  it('hands the process to the first launch of the same definition, then launches afresh', async () => {
    const spec = fakeServerSpec('srv');
    const { spawn, closed } = fakeSpawner();
    const pool = PrestartedServers.start([spec], await approvedSnapshot([spec]), options, spawn);
    const fresh: string[] = [];
    const launcher = pool.launcher((launch) => {
      fresh.push(launch.name);
      return spawn(launch);
    });
    const first = await launcher(launchOf(spec));
    expect(first.pid).toBe(1001);
    expect(fresh).toEqual([]);
    await launcher(launchOf(spec));
    expect(fresh).toEqual(['srv']);
    await pool.closeUnclaimed();
    expect(closed).toEqual([]);
    expect(pool.unclaimedPids()).toEqual([]);
  });

  it('closes an early process whose server is launched with another definition, or not at all', async () => {
    const kept = fakeServerSpec('kept');
    const reloaded = fakeServerSpec('reloaded');
    const refused = fakeServerSpec('refused');
    const { spawn, closed } = fakeSpawner();
    const pool = PrestartedServers.start(
      [kept, reloaded, refused],
      await approvedSnapshot([kept, reloaded, refused]),
      options,
      spawn,
    );
    const fresh: string[] = [];
    const launcher = pool.launcher((launch) => {
      fresh.push(launch.name);
      return spawn(launch);
    });
    await launcher(launchOf(kept));
    // Same name, another definition object (a reload replaced the spec): never the early process.
    await launcher(launchOf(fakeServerSpec('reloaded', { args: ['other.js'] })));
    expect(fresh).toEqual(['reloaded']);
    await pool.closeUnclaimed();
    expect(closed.sort()).toEqual(['refused', 'reloaded']);
    expect(pool.unclaimedPids()).toEqual([]);
  });
});
