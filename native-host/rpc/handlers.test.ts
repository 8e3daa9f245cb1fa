import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requestMethods, type ParamsOf } from '../../protocol/methods';
import { AuditLog } from '../audit/audit-log';
import { HostCore } from '../host/core';
import { approvalOf } from '../testing/host-errors';
import { inMemoryLauncher } from '../testing/in-memory-launcher';
import { fakeServerSpec } from '../testing/server-spec';
import { TrustStore } from '../trust/trust-store';
import type { RequestContext } from './dispatcher';
import { createHandlers } from './handlers';
import { Cancellation } from '../shared/cancellation';

// activity/list as the dispatcher calls it, over a real core whose calls go through the real
// gate and audit log. Dangerous directions: an answer that misses a call the extension already
// saw answered (the view would say nothing ran), and an entry that credits the wrong party.

const context: RequestContext = {
  id: 1,
  cancellation: new Cancellation(),
  notify: () => undefined,
};

let core: HostCore;
let handlers: ReturnType<typeof createHandlers>;

async function activity(params?: ParamsOf<'activity/list'>) {
  const result = await handlers['activity/list'](params, context);
  // What the extension's worker checks before relaying it to a page.
  return requestMethods['activity/list'].result.parse(result);
}

beforeEach(async () => {
  const home = mkdtempSync(path.join(tmpdir(), 'switchyard-handlers-'));
  const trust = await TrustStore.open(home);
  const files = fakeServerSpec('files');
  const memory = fakeServerSpec('memory');
  for (const spec of [files, memory]) {
    await trust.approveLaunch(spec.scope, spec.name, spec.definition!);
  }
  // A timer that never fires: only the handler's flush can put an entry on disk.
  const audit = new AuditLog({
    file: path.join(home, 'audit.jsonl'),
    via: 'browser',
    schedule: () => () => undefined,
  });
  core = new HostCore({
    servers: [files, memory],
    spawnServer: inMemoryLauncher({ tools: () => [{ name: 'read' }, { name: 'write' }] })
      .spawnServer,
    clientInfo: { name: 'switchyard-test', version: '0' },
    trust,
    toolPolicy: [{ glob: 'files__read', value: 'allow' }],
    savePolicy: (changes) =>
      Promise.resolve([
        { glob: 'files__read', value: 'allow' },
        ...changes.flatMap(({ tool, policy }) =>
          policy === null ? [] : [{ glob: tool, value: policy }],
        ),
      ]),
    audit,
  });
  handlers = createHandlers({ core, home, version: '0', configWarnings: () => [], runtime: null });
  await core.startAll();
});

afterEach(async () => {
  await core.shutdown();
});

/** One call that asks, is approved on the card, and runs. */
async function approvedCall(name: string): Promise<void> {
  const asked = await core.callTool(name, { path: 'x' }).catch((e: unknown) => e);
  const { requestId, nonce } = approvalOf(asked);
  await core.callTool(name, { path: 'x' }, { approval: { requestId, nonce } });
}

describe('activity/list', () => {
  it('answers with every call answered before it, newest first, saying who decided', async () => {
    await core.callTool('files__read', {});
    await approvedCall('files__write');
    const asked = await core.callTool('memory__write', {}).catch((e: unknown) => e);
    core.denyApproval(approvalOf(asked).requestId);

    const { entries, nextCursor, skipped } = await activity();

    expect(skipped).toBe(0);
    expect(nextCursor).toBeNull();
    expect(
      entries.map((e) => [e.event, e.exposedName, e.decision, e.by, e.rule, e.outcome]),
    ).toEqual([
      ['call', 'memory__write', 'denied', 'user', undefined, 'denied'],
      ['call', 'memory__write', 'ask', 'policy', undefined, 'approval-required'],
      ['call', 'files__write', 'approved', 'user', undefined, 'ok'],
      ['call', 'files__write', 'ask', 'policy', undefined, 'approval-required'],
      ['call', 'files__read', 'allow', 'policy', 'files__read', 'ok'],
    ]);
    for (const entry of entries) expect(entry).toMatchObject({ via: 'browser' });
    expect(entries.find((e) => e.decision === 'approved')).toMatchObject({
      server: 'files',
      tool: 'write',
      profile: 'default',
      argumentsBytes: '{"path":"x"}'.length,
    });
  });

  it('records trust and policy changes and filters by server and kind', async () => {
    await core.setPolicy('memory__*', 'deny');
    await core.revokeLaunch({ server: 'memory' }, { restart: false });
    await core.callTool('files__read', {});

    const memory = await activity({ server: 'memory' });
    expect(memory.entries.map((e) => [e.event, e.decision, e.by])).toEqual([
      ['trust', 'revoked', 'user'],
    ]);
    const trustAndPolicy = await activity({ events: ['trust', 'policy'] });
    expect(trustAndPolicy.entries.map((e) => [e.event, e.server ?? e.rule, e.decision])).toEqual([
      ['trust', 'memory', 'revoked'],
      ['policy', 'memory__*', 'deny'],
    ]);
    expect((await activity({ events: ['call'] })).entries).toHaveLength(1);
  });

  it('pages with the cursor it hands out', async () => {
    for (let i = 0; i < 5; i += 1) await core.callTool('files__read', { i });
    const first = await activity({ limit: 2 });
    expect(first.entries).toHaveLength(2);
    const second = await activity({ limit: 2, cursor: first.nextCursor ?? undefined });
    const third = await activity({ limit: 2, cursor: second.nextCursor ?? undefined });
    expect(third.nextCursor).toBeNull();
    const sizes = [...first.entries, ...second.entries, ...third.entries].map(
      (e) => e.argumentsBytes,
    );
    expect(sizes).toEqual([7, 7, 7, 7, 7]);
    expect(new Set([...first.entries, ...second.entries].map((e) => e.argumentsHash)).size).toBe(4);
  });
});
