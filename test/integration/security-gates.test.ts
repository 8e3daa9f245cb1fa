import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HOSTILE_USER_CONFIG,
  HOSTILE_WORKSPACES,
} from '../../native-host/config/fixtures/hostile-workspaces';
import {
  FIXTURE_SERVER,
  HostHarness,
  approveAll,
  childrenOf,
  makeHome,
  unwrap,
} from './host-harness';

// The four gates through the real host (design D6-D9). Banner: a gate that lets something run
// unasked is the dangerous direction; an extra prompt only costs a click.

interface ConsentView {
  server: string;
  reason: string;
  fingerprint: string;
  executable: string;
  args: string[];
  env: Array<[string, string]>;
  changes: Array<{ field: string }>;
  summary: string;
  warnings: string[];
}
interface ServerView {
  name: string;
  status: { state: string; consent?: ConsentView };
}
interface ApprovalView {
  requestId: string;
  nonce: string;
  exposedName: string;
  arguments: Record<string, unknown>;
  argumentsHash: string;
  warnings: string[];
  changes: Array<{ field: string; before: string; after: string }>;
}

const approvalOf = (reply: { error?: { data?: Record<string, unknown> } }): ApprovalView =>
  reply.error?.data?.['approval'] as ApprovalView;

describe('launch trust', () => {
  it('starts nothing from any of the hostile workspaces until approved', async () => {
    expect(HOSTILE_WORKSPACES.length).toBeGreaterThanOrEqual(20);
    const host = await HostHarness.start(
      // The user tier the corpus targets, with harmless commands that would show up in ps.
      Object.fromEntries(
        Object.keys(HOSTILE_USER_CONFIG.mcpServers).map((name) => [
          name,
          { command: process.execPath, args: [FIXTURE_SERVER] },
        ]),
      ),
      { workspaces: HOSTILE_WORKSPACES },
      { trusted: false },
    );
    try {
      const servers = await host.settled();
      expect(servers.length).toBeGreaterThan(10);
      for (const server of servers) {
        expect(['needs-approval', 'failed', 'stopped']).toContain(server.status.state);
      }
      // Every workspace-provenance server that could run is waiting, with the literal command.
      const pending = await host.call<{ requests: ConsentView[] }>('trust/pending');
      expect(pending.requests.length).toBeGreaterThan(10);
      for (const request of pending.requests) expect(request.fingerprint).toMatch(/^[0-9a-f]{64}$/);
      await new Promise((r) => setTimeout(r, 300));
      expect(childrenOf(host.child.pid!)).toEqual([]);
    } finally {
      await host.close();
    }
  });

  describe('a workspace server, approved, changed, revoked', () => {
    let workspace: string;
    let home: string;

    beforeAll(() => {
      workspace = mkdtempSync(join(tmpdir(), 'sy-repo-'));
      writeFileSync(
        join(workspace, '.mcp.json'),
        JSON.stringify({
          mcpServers: {
            repo: {
              command: process.execPath,
              args: [FIXTURE_SERVER],
              env: { API_TOKEN: '${GITHUB_TOKEN}' },
              approved: true,
            },
          },
        }),
      );
      home = makeHome({ mcpServers: {}, workspaces: [workspace] });
    });

    it('waits with a consent card that shows the literal command and the unexpanded env', async () => {
      const host = new HostHarness(home, {
        env: { GITHUB_TOKEN: 'ghp_shouldNeverBeShown000000000000000000' },
      });
      try {
        await host.hello();
        const [server] = (await host.settled()) as ServerView[];
        expect(server?.status.state).toBe('needs-approval');
        const consent = server!.status.consent!;
        expect(consent).toMatchObject({
          server: 'repo',
          reason: 'workspace',
          executable: process.execPath,
          args: [FIXTURE_SERVER],
        });
        expect(consent.env).toEqual([['API_TOKEN', '${GITHUB_TOKEN}']]);
        expect(JSON.stringify(consent)).not.toContain('ghp_');
        expect(consent.warnings.join(' ')).toContain('approved');
        expect(childrenOf(host.child.pid!)).toEqual([]);

        // An approval must quote what would run now.
        const wrong = await host.request('trust/approve', {
          server: 'repo',
          fingerprint: 'f'.repeat(64),
        });
        expect(wrong.error?.data?.reason).toBe('fingerprint-mismatch');
        expect(childrenOf(host.child.pid!)).toEqual([]);

        const approved = await host.call<{ server: ServerView }>('trust/approve', {
          server: 'repo',
          fingerprint: consent.fingerprint,
        });
        expect(approved.server.status.state).toBe('running');
        const again = await host.request('trust/approve', {
          server: 'repo',
          fingerprint: consent.fingerprint,
        });
        expect(again.error?.data?.reason).toBe('not-pending');
      } finally {
        await host.close();
      }
    });

    it('runs without asking while nothing changes, and asks again with the difference when args change', async () => {
      // The entry's ${GITHUB_TOKEN} must be set somewhere, or the start fails (missing-variable).
      const env = { GITHUB_TOKEN: 'ghp_shouldNeverBeShown000000000000000000' };
      let host = new HostHarness(home, { env });
      try {
        await host.hello();
        expect(((await host.settled()) as ServerView[])[0]?.status.state).toBe('running');
      } finally {
        await host.close();
      }
      writeFileSync(
        join(workspace, '.mcp.json'),
        JSON.stringify({
          mcpServers: {
            repo: {
              command: process.execPath,
              args: [FIXTURE_SERVER, '--paginate'],
              env: { API_TOKEN: '${GITHUB_TOKEN}' },
            },
          },
        }),
      );
      host = new HostHarness(home, { env });
      try {
        await host.hello();
        const [server] = (await host.settled()) as ServerView[];
        expect(server?.status.state).toBe('needs-approval');
        expect(server?.status.consent?.reason).toBe('changed');
        expect(server?.status.consent?.changes.map((c) => c.field)).toEqual(['args']);
        expect(server?.status.consent?.summary).toContain('args changed');
        expect(childrenOf(host.child.pid!)).toEqual([]);

        const consent = server!.status.consent!;
        await host.call('trust/approve', { server: 'repo', fingerprint: consent.fingerprint });
        const revoked = await host.call<{ servers: ServerView[] }>('trust/revoke', { workspace });
        expect(revoked.servers.map((s) => s.status.state)).toEqual(['needs-approval']);
        for (let i = 0; i < 40 && childrenOf(host.child.pid!).length > 0; i += 1) {
          await new Promise((r) => setTimeout(r, 50));
        }
        expect(childrenOf(host.child.pid!)).toEqual([]);
      } finally {
        await host.close();
      }
    });
  });

  it('asks again, before anything is spawned, when a workspace renames its tools with "prefix"', async () => {
    // Allow rules and profile filters are globs over tool names: a repository that could rename
    // an approved server's tools at will could move them under names the user allowed.
    const workspace = mkdtempSync(join(tmpdir(), 'sy-repo-'));
    const write = (prefix: string) => {
      writeFileSync(
        join(workspace, '.mcp.json'),
        JSON.stringify({
          mcpServers: { repo: { command: process.execPath, args: [FIXTURE_SERVER], prefix } },
        }),
      );
    };
    write('notes');
    const home = makeHome({ mcpServers: {}, workspaces: [workspace] });
    let host = new HostHarness(home);
    try {
      await host.hello();
      const [server] = (await host.settled()) as ServerView[];
      const consent = server!.status.consent!;
      expect(consent).toMatchObject({ reason: 'workspace', toolPrefix: 'notes' });
      await host.call('trust/approve', { server: 'repo', fingerprint: consent.fingerprint });
      const { tools } = await host.call<{ tools: Array<{ name: string }> }>('tools/list');
      expect(
        tools.map((t) => t.name).filter((n) => n.startsWith('notes__')).length,
      ).toBeGreaterThan(0);
    } finally {
      await host.close();
    }
    write('github');
    host = new HostHarness(home);
    try {
      await host.hello();
      const [server] = (await host.settled()) as ServerView[];
      expect(server?.status.state).toBe('needs-approval');
      const consent = server!.status.consent! as ConsentView & { toolPrefix?: string | null };
      expect(consent.reason).toBe('changed');
      expect(consent.toolPrefix).toBe('github');
      expect(consent.changes).toEqual([{ field: 'toolPrefix', before: 'notes', after: 'github' }]);
      expect(consent.summary).toBe('tool prefix changed - needs approval');
      // Neither the first stage nor the host spawned it.
      expect(childrenOf(host.child.pid!)).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it('lists every stored approval with what it let run and whether a server uses it; forgets one', async () => {
    const fixture = { command: process.execPath, args: [FIXTURE_SERVER] };
    // A remote server whose URL carries a key: the list masks it, as servers/list does.
    const cloud = { url: 'https://mcp.example.test/mcp?api_key=sk-live-0123456789abcdef&team=7' };
    const home = makeHome({
      mcpServers: { kept: fixture, edited: fixture, gone: fixture, cloud },
    });
    approveAll(home);
    // Then, by hand: one entry taken out, one changed; and a repository now defines a server of
    // the name taken out, which the user-tier approval must not reach.
    const repo = mkdtempSync(join(tmpdir(), 'sy-repo-'));
    writeFileSync(join(repo, '.mcp.json'), JSON.stringify({ mcpServers: { gone: fixture } }));
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({
        mcpServers: { kept: fixture, edited: { ...fixture, args: [FIXTURE_SERVER, '--x'] } },
        workspaces: [repo],
      }),
    );
    const host = new HostHarness(home);
    interface Listed {
      server: string;
      scope: string;
      use: string;
      executable: string;
      args: string[];
      pins: number;
    }
    try {
      await host.hello();
      await host.settled();
      const { approvals } = await host.call<{ approvals: Listed[] }>('trust/list');
      expect(approvals.map((a) => [a.server, a.scope, a.use])).toEqual([
        ['cloud', 'user', 'unconfigured'],
        ['edited', 'user', 'changed'],
        ['gone', 'user', 'unconfigured'],
        ['kept', 'user', 'in-use'],
      ]);
      expect(approvals[0]).toMatchObject({
        executable: 'https://mcp.example.test/mcp?api_key=…&team=7',
        args: [],
      });
      expect(approvals[2]).toMatchObject({
        executable: process.execPath,
        args: [FIXTURE_SERVER],
        pins: 0,
      });
      const both = await host.request('trust/forget', {
        server: 'gone',
        user: true,
        workspace: '/x',
      });
      expect(both.error?.data?.reason).toBe('invalid-params');
      const forgotten = await host.call<{ launch: boolean; server: unknown }>('trust/forget', {
        server: 'gone',
        user: true,
      });
      // The workspace's `gone` is not the server whose approval went: it is not reported, and
      // it still waits for its own approval.
      expect(forgotten).toMatchObject({ launch: true, server: null });
      const servers = await host.call<{ servers: ServerView[] }>('servers/list');
      expect(servers.servers.find((s) => s.name === 'gone')?.status.state).toBe('needs-approval');
      const after = await host.call<{ approvals: Listed[] }>('trust/list');
      expect(after.approvals.map((a) => a.server)).toEqual(['cloud', 'edited', 'kept']);
    } finally {
      await host.close();
    }
  });

  it('shows control and bidi characters on the card as visible markers, and refuses vague revokes', async () => {
    const host = await HostHarness.start(
      {
        tricky: {
          command: process.execPath,
          args: [FIXTURE_SERVER, '\u001b[8mhidden\u001b[0m', 'exe\u202etxt.js'],
        },
      },
      {},
      { trusted: false },
    );
    try {
      const [server] = (await host.settled()) as ServerView[];
      const args = server!.status.consent!.args;
      expect(args[1]).toBe('⟦U+001B⟧[8mhidden⟦U+001B⟧[0m');
      expect(args[2]).toContain('⟦U+202E⟧');
      for (const params of [
        { workspace: 'user' },
        { workspace: 'relative/dir' },
        { server: 'tricky', workspace: '/tmp' },
      ]) {
        const reply = await host.request('trust/revoke', params);
        expect(reply.error?.data?.reason).toBe('invalid-params');
      }
    } finally {
      await host.close();
    }
  });

  it('asks once for a user-tier entry written outside Switchyard', async () => {
    const host = await HostHarness.start(
      { edited: { command: process.execPath, args: [FIXTURE_SERVER] } },
      {},
      { trusted: false },
    );
    try {
      const [server] = (await host.settled()) as ServerView[];
      expect(server?.status.consent?.reason).toBe('edited-outside');
      expect(childrenOf(host.child.pid!)).toEqual([]);
    } finally {
      await host.close();
    }
  });
});

describe('tool policy and approvals', () => {
  let host: HostHarness;

  beforeAll(async () => {
    host = await HostHarness.start(
      { s: { command: process.execPath, args: [FIXTURE_SERVER] } },
      { toolPolicy: { s__destroy: 'allow', 's__bad-hint': 'allow', s__echo_args: 'deny' } },
    );
    host.autoApprove = false;
    await host.settled();
  });

  afterAll(async () => {
    await host.close();
  });

  const calledTools = async (): Promise<string[]> => {
    const { lines } = await host.call<{ lines: string[] }>('servers/logs', { server: 's' });
    return lines.filter((l) => l.startsWith('called ')).map((l) => l.slice('called '.length));
  };

  it('lists each tool with its policy and keeps denied tools out of the model listing', async () => {
    const model = await host.call<{ tools: Array<{ name: string; policy: string }> }>('tools/list');
    const all = await host.call<{ tools: Array<{ name: string; policy: string }> }>('tools/list', {
      includeDenied: true,
    });
    const policy = Object.fromEntries(all.tools.map((t) => [t.name, t.policy]));
    expect(policy['s__echo_args']).toBe('deny');
    expect(policy['s__ok']).toBe('ask');
    expect(model.tools.map((t) => t.name)).not.toContain('s__echo_args');
  });

  it('never lets a denied tool reach its server', async () => {
    const reply = await host.request('tools/call', {
      name: 's__echo_args',
      arguments: { value: 'x' },
    });
    expect(reply.error?.data?.reason).toBe('denied');
    expect(await calledTools()).not.toContain('echo.args');
  });

  it('asks by default, bound to the exact arguments, once', async () => {
    const args = { target: 'prod', nested: { b: 1, a: [1, 2] } };
    const first = await host.request('tools/call', { name: 's__ok', arguments: args });
    expect(first.error?.data?.reason).toBe('approval-required');
    const approval = approvalOf(first);
    expect(approval.arguments).toEqual(args);
    expect(approval.argumentsHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await calledTools()).not.toContain('ok');

    const token = { requestId: approval.requestId, nonce: approval.nonce };
    const swapped = await host.request('tools/call', {
      name: 's__ok',
      arguments: { ...args, target: 'staging' },
      approval: token,
    });
    expect(swapped.error?.data).toMatchObject({
      reason: 'approval-invalid',
      why: 'arguments-mismatch',
    });
    const otherTool = await host.request('tools/call', {
      name: 's__claims-readonly',
      arguments: args,
      approval: token,
    });
    expect(otherTool.error?.data?.reason).toBe('approval-invalid');

    // Same arguments in another key order are the same call.
    const reordered = { nested: { a: [1, 2], b: 1 }, target: 'prod' };
    const ran = await host.request('tools/call', {
      name: 's__ok',
      arguments: reordered,
      approval: token,
    });
    expect(unwrap((ran.result as { content: Array<{ text: string }> }).content[0]!.text)).toBe(
      'ok',
    );
    const replay = await host.request('tools/call', {
      name: 's__ok',
      arguments: args,
      approval: token,
    });
    expect(replay.error?.data).toMatchObject({ reason: 'approval-invalid', why: 'replayed' });
    expect((await calledTools()).filter((t) => t === 'ok')).toHaveLength(1);
  });

  it('refuses forged approvals without running anything', async () => {
    const first = await host.request('tools/call', { name: 's__ok', arguments: { n: 1 } });
    const real = approvalOf(first);
    const before = (await calledTools()).length;
    const forgeries = [
      { requestId: real.requestId, nonce: '0'.repeat(real.nonce.length) },
      { requestId: real.requestId, nonce: real.nonce.slice(0, -1) },
      { requestId: 'f'.repeat(real.requestId.length), nonce: real.nonce },
      { requestId: real.nonce, nonce: real.requestId },
    ];
    for (let i = 0; i < 50; i += 1)
      forgeries.push({ requestId: `forged-${i}`, nonce: `${i}`.padStart(32, '0') });
    for (const approval of forgeries) {
      const reply = await host.request('tools/call', {
        name: 's__ok',
        arguments: { n: 1 },
        approval,
      });
      expect(reply.error?.data?.reason).toBe('approval-invalid');
    }
    expect((await calledTools()).length).toBe(before);
    // The real approval still holds: guessing cannot cancel the user's click.
    const ran = await host.request('tools/call', {
      name: 's__ok',
      arguments: { n: 1 },
      approval: { requestId: real.requestId, nonce: real.nonce },
    });
    expect(ran.error).toBeUndefined();
  });

  it('refuses to ask about arguments too large to show on a card', async () => {
    const reply = await host.request('tools/call', {
      name: 's__ok',
      arguments: { blob: 'x'.repeat(300_000) },
    });
    expect(reply.error?.data?.reason).toBe('invalid-params');
    expect(reply.error?.message).toContain('too large to show for approval');
  });

  it('refuses an approval the user denied', async () => {
    const first = await host.request('tools/call', { name: 's__ok', arguments: {} });
    const approval = approvalOf(first);
    expect(
      (await host.call<{ denied: boolean }>('approvals/deny', { requestId: approval.requestId }))
        .denied,
    ).toBe(true);
    const reply = await host.request('tools/call', {
      name: 's__ok',
      arguments: {},
      approval: { requestId: approval.requestId, nonce: approval.nonce },
    });
    expect(reply.error?.data?.reason).toBe('approval-invalid');
  });

  it('lets annotations only tighten: destructive and malformed hints ask over an allow entry, read-only grants nothing', async () => {
    const destroy = await host.request('tools/call', {
      name: 's__destroy',
      arguments: { target: 'x' },
    });
    expect(destroy.error?.data?.reason).toBe('approval-required');
    expect(approvalOf(destroy).warnings.join(' ')).toMatch(/destructive/);
    const badHint = await host.request('tools/call', { name: 's__bad-hint', arguments: {} });
    expect(badHint.error?.data?.reason).toBe('approval-required');
    const readOnly = await host.request('tools/call', {
      name: 's__claims-readonly',
      arguments: {},
    });
    expect(readOnly.error?.data?.reason).toBe('approval-required');
  });

  it('runs an allow-listed tool without asking once the user chose "Always allow", written to config.json', async () => {
    const set = await host.call<{ effective: string }>('policy/set', {
      tool: 's__claims-readonly',
      policy: 'allow',
    });
    expect(set.effective).toBe('allow');
    const config = JSON.parse(readFileSync(join(host.home, 'config.json'), 'utf8')) as {
      toolPolicy: Record<string, string>;
    };
    expect(config.toolPolicy['s__claims-readonly']).toBe('allow');
    const ran = await host.request('tools/call', { name: 's__claims-readonly', arguments: {} });
    expect(ran.error).toBeUndefined();
  });

  it('suspends an allow-listed tool whose definition changes after approval, showing the difference', async () => {
    await host.call('policy/set', { tool: 's__ok', policy: 'allow' });
    expect(
      (await host.request('tools/call', { name: 's__ok', arguments: {} })).error,
    ).toBeUndefined();
    // The server swaps the tool's description under the same name (a rug pull).
    const mutate = await host.request('tools/call', { name: 's__mutate', arguments: {} });
    const approval = approvalOf(mutate);
    await host.request('tools/call', {
      name: 's__mutate',
      arguments: {},
      approval: { requestId: approval.requestId, nonce: approval.nonce },
    });
    await host.until(
      () =>
        host.notifications.some(
          (n) => n.method === 'notifications/tools/changed' && n.params.server === 's',
        ),
      'tools/changed',
    );
    for (let i = 0; i < 50; i += 1) {
      const { tools } = await host.call<{ tools: Array<{ name: string; policy: string }> }>(
        'tools/list',
      );
      if (tools.find((t) => t.name === 's__ok')?.policy === 'suspended') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const reply = await host.request('tools/call', { name: 's__ok', arguments: {} });
    expect(reply.error?.data?.reason).toBe('approval-required');
    const changed = approvalOf(reply);
    expect(changed.warnings.join(' ')).toMatch(/changed/);
    expect(changed.changes[0]).toMatchObject({ field: 'description', before: 'Returns ok.' });
    expect(changed.changes[0]?.after).toContain('id_rsa');
  });

  it('keeps it suspended under a pattern that covers it; naming it re-allows what it is now', async () => {
    const policyOf = async (name: string): Promise<string | undefined> =>
      (
        await host.call<{ tools: Array<{ name: string; policy: string }> }>('tools/list')
      ).tools.find((t) => t.name === name)?.policy;
    expect(await policyOf('s__ok')).toBe('suspended');
    // "Allow every tool of s" reviews nothing of the one that changed.
    await host.call('policy/set', { tool: 's__*', policy: 'allow' });
    expect(await policyOf('s__ok')).toBe('suspended');
    await host.call('policy/set', { tool: 's__*', policy: null });
    // The user names the tool (the popup's Allow on its row, beside its changes): pinned anew.
    const named = await host.call<{ effective: string }>('policy/set', {
      tool: 's__ok',
      policy: 'allow',
    });
    expect(named.effective).toBe('allow');
  });

  it('keeps an audit log of decisions with sizes and hashes, never argument values', async () => {
    const secret = 'sk-live-argument-value-that-must-not-be-logged';
    await host.request('tools/call', { name: 's__destroy', arguments: { target: secret } });
    await host.request('tools/call', { name: 's__echo_args', arguments: { value: secret } });
    // Earlier tests logged calls of both tools with the same outcomes: this test's entries are
    // the ones whose hash is of these arguments (one key, so the canonical form is plain JSON).
    const hashOf = (args: Record<string, string>): string =>
      createHash('sha256').update(JSON.stringify(args)).digest('hex');
    const ours = (e: Record<string, unknown>, tool: string, outcome: string, hash: string) =>
      e['exposedName'] === tool && e['outcome'] === outcome && e['argumentsHash'] === hash;
    const destroyed = hashOf({ target: secret });
    const echoed = hashOf({ value: secret });
    // The audit log is written asynchronously, in batches: wait for both entries to land.
    let log = '';
    let entries: Array<Record<string, unknown>> = [];
    const landed = (): boolean =>
      entries.some((e) => ours(e, 's__destroy', 'approval-required', destroyed)) &&
      entries.some((e) => ours(e, 's__echo_args', 'denied', echoed));
    for (let i = 0; i < 250 && !landed(); i += 1) {
      await new Promise((r) => setTimeout(r, 20));
      log = readFileSync(join(host.home, 'audit.jsonl'), 'utf8');
      entries = log
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    }
    expect(log).not.toContain(secret);
    expect(landed()).toBe(true);
    const destroyEntry = entries.find((e) => ours(e, 's__destroy', 'approval-required', destroyed));
    expect(destroyEntry?.['argumentsBytes']).toBe(JSON.stringify({ target: secret }).length);
    expect(entries.every((e) => typeof e['ts'] === 'string')).toBe(true);
  });
});
