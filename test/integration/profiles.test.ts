import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FILESYSTEM_SERVER,
  FIXTURE_SERVER,
  HOST_BUNDLE,
  HOST_NODE,
  HostHarness,
  MEMORY_SERVER,
  childrenOf,
  makeHome,
  unwrap,
} from './host-harness';

// Per-site profiles through the real bundled host (design D10, D11): the host enforces what a
// profile hides, whatever the extension sends. Banner: a hidden tool that reaches its server is
// the dangerous direction, so every refusal below is also checked in the server's own log.

interface ToolView {
  name: string;
  policy: string;
  tokens: number;
}
interface Listing {
  tools: ToolView[];
  tokens: { total: number; byServer: Record<string, number> };
  budget?: {
    limit: number;
    used: number;
    headroom: number;
    over: boolean;
    suggestions: Array<{ kind: string; server: string; tool?: string; saves: number }>;
  };
  search?: { reason: string; pinned: string[]; tokens: number };
}

/** Approves the named servers the way a user at a terminal would (the others stay unapproved). */
function approve(home: string, names: string[]): void {
  execFileSync(HOST_NODE, [HOST_BUNDLE, 'trust', ...names, '--yes'], {
    env: { ...process.env, SWITCHYARD_HOME: home },
    encoding: 'utf8',
  });
}

const SERVERS = {
  scripted: { command: process.execPath, args: [FIXTURE_SERVER] },
  memory: { command: process.execPath, args: [MEMORY_SERVER] },
};

const PROFILES = [
  {
    id: 'scripted-site',
    name: 'Scripted',
    match: ['http://localhost:5173/*'],
    servers: ['scripted'],
    exclude: ['scripted__big', 'scripted__image'],
    mode: 'full',
  },
  {
    id: 'memory-site',
    name: 'Memory',
    match: ['https://*.example.com/*'],
    servers: ['memory'],
    mode: 'standard',
  },
  {
    id: 'careful',
    name: 'Careful',
    match: ['https://github.com/*'],
    servers: ['scripted'],
    mode: 'read-only',
  },
  {
    id: 'standard',
    name: 'Standard',
    match: ['https://gitlab.com/*'],
    servers: ['scripted'],
    mode: 'standard',
  },
];

async function serverLog(host: HostHarness, server: string): Promise<string> {
  const { lines } = await host.call<{ lines: string[] }>('servers/logs', { server, limit: 1_000 });
  return lines.join('\n');
}

const list = (host: HostHarness, profile?: string) =>
  host.call<Listing>('tools/list', profile === undefined ? {} : { profile });

describe('profiles through the host', () => {
  let host: HostHarness;

  beforeAll(async () => {
    host = await HostHarness.start(SERVERS, { profiles: PROFILES });
    await host.settled();
  });
  afterAll(async () => {
    await host.close();
  });

  it('lists different tools for profiles with different servers', async () => {
    const scripted = await list(host, 'scripted-site');
    const memory = await list(host, 'memory-site');
    const all = await list(host);
    expect(scripted.tools.length).toBeGreaterThan(5);
    expect(scripted.tools.every((t) => t.name.startsWith('scripted__'))).toBe(true);
    expect(scripted.tools.map((t) => t.name)).not.toContain('scripted__big');
    expect(memory.tools.length).toBeGreaterThan(3);
    expect(memory.tools.every((t) => t.name.startsWith('memory__'))).toBe(true);
    const allNames = all.tools.map((t) => t.name);
    expect(allNames.filter((n) => n.startsWith('scripted__'))).toHaveLength(
      scripted.tools.length + 2,
    );
    // server-memory marks its delete tools destructive: the standard profile leaves them out.
    const allMemory = allNames.filter((n) => n.startsWith('memory__'));
    expect(allMemory.filter((n) => n.includes('delete')).length).toBeGreaterThan(0);
    expect(memory.tools.map((t) => t.name)).toEqual(allMemory.filter((n) => !n.includes('delete')));
    expect(scripted.tokens.byServer).toEqual({ scripted: scripted.tokens.total });
    expect(memory.tokens.byServer).toEqual({ memory: memory.tokens.total });
  });

  it('answers a call to a hidden tool as unknown-tool, and the server never sees it', async () => {
    host.autoApprove = false;
    try {
      for (const [profile, name] of [
        ['memory-site', 'scripted__ok'],
        ['scripted-site', 'scripted__big'],
        ['careful', 'scripted__ok'],
        ['careful', 'scripted__destroy'],
        ['standard', 'scripted__destroy'],
        ['standard', 'scripted__bad-hint'],
      ] as const) {
        const reply = await host.request('tools/call', { name, arguments: {}, profile });
        expect(reply.error?.data?.reason, `${profile} ${name}`).toBe('unknown-tool');
        expect(reply.error?.message).toBe(
          `No tool is exposed as '${name}'. List tools again: the server may have stopped, changed its tools, or be waiting for approval.`,
        );
      }
      const log = await serverLog(host, 'scripted');
      for (const tool of ['ok', 'big', 'destroy', 'bad-hint'])
        expect(log).not.toContain(`called ${tool}`);
    } finally {
      host.autoApprove = true;
    }
  });

  it('hides destructive tools in read-only and standard mode', async () => {
    const careful = (await list(host, 'careful')).tools.map((t) => t.name);
    expect(careful).toEqual(['scripted__claims-readonly']);
    const standard = (await list(host, 'standard')).tools.map((t) => t.name);
    expect(standard).toContain('scripted__ok');
    expect(standard).not.toContain('scripted__destroy');
    expect(standard).not.toContain('scripted__bad-hint');
    expect((await list(host)).tools.map((t) => t.name)).toContain('scripted__destroy');
  });

  it('does not redeem an approval under a profile that hides the tool', async () => {
    host.autoApprove = false;
    try {
      const asked = await host.request('tools/call', {
        name: 'scripted__destroy',
        arguments: { target: 'x' },
      });
      expect(asked.error?.data?.reason).toBe('approval-required');
      const { requestId, nonce } = asked.error?.data?.['approval'] as {
        requestId: string;
        nonce: string;
      };
      const moved = await host.request('tools/call', {
        name: 'scripted__destroy',
        arguments: { target: 'x' },
        approval: { requestId, nonce },
        profile: 'careful',
      });
      expect(moved.error?.data?.reason).toBe('unknown-tool');
      expect(await serverLog(host, 'scripted')).not.toContain('called destroy');
      const redeemed = await host.request('tools/call', {
        name: 'scripted__destroy',
        arguments: { target: 'x' },
        approval: { requestId, nonce },
      });
      expect(redeemed.error).toBeUndefined();
      expect(await serverLog(host, 'scripted')).toContain('called destroy');
    } finally {
      host.autoApprove = true;
    }
  });

  it('resolves URLs to profiles, the most specific pattern first', async () => {
    const resolve = (url: string) =>
      host.call<{ profile: { id: string }; matchedPattern: string | null }>('profiles/resolve', {
        url,
      });
    expect(await resolve('http://localhost:5173/app')).toMatchObject({
      profile: { id: 'scripted-site' },
      matchedPattern: 'http://localhost:5173/*',
    });
    expect((await resolve('https://docs.example.com/')).profile.id).toBe('memory-site');
    expect(await resolve('https://github.com.evil.com/')).toMatchObject({
      profile: { id: 'default' },
      matchedPattern: null,
    });
    expect((await resolve('chrome://newtab/')).profile.id).toBe('default');
  });

  it('refuses an unknown profile instead of falling back to the default', async () => {
    const reply = await host.request('tools/list', { profile: 'gitlab' });
    expect(reply.error?.data?.reason).toBe('unknown-profile');
    const call = await host.request('tools/call', { name: 'scripted__ok', profile: 'gitlab' });
    expect(call.error?.data?.reason).toBe('unknown-profile');
  });

  it('writes profiles to config.json and enforces them at once, with a budget', async () => {
    const set = await host.call<{ profile: { id: string }; warnings: string[] }>('profiles/set', {
      profile: {
        id: 'tight',
        name: 'Tight',
        match: ['https://tight.test/*'],
        servers: ['memory', 'nowhere'],
        mode: 'full',
        tokenBudget: 100,
        pinnedTools: ['memory__read_graph'],
      },
    });
    expect(set.profile.id).toBe('tight');
    expect(set.warnings).toEqual([
      "No server named 'nowhere' is configured; the profile enables it once it is.",
    ]);
    const config = JSON.parse(readFileSync(join(host.home, 'config.json'), 'utf8')) as {
      profiles: Array<{ id: string }>;
    };
    expect(config.profiles.map((p) => p.id)).toEqual([...PROFILES.map((p) => p.id), 'tight']);

    const tight = await list(host, 'tight');
    expect(tight.budget).toMatchObject({ limit: 100, used: tight.tokens.total, over: true });
    const saved = tight.budget!.suggestions.reduce((sum, s) => sum + s.saves, 0);
    expect(saved).toBeGreaterThanOrEqual(tight.tokens.total - 100);
    // Over its budget, the profile is in tool search mode: every tool is still listed (the
    // extension searches them), and the model is offered search_tools and the pinned tool.
    expect(tight.search).toMatchObject({ reason: 'over-budget', pinned: ['memory__read_graph'] });
    const pinned = tight.tools.find((t) => t.name === 'memory__read_graph');
    expect(tight.search!.tokens).toBeGreaterThan(pinned!.tokens);
    expect(tight.search!.tokens).toBeLessThan(tight.tokens.total);
    expect(tight.tools.length).toBeGreaterThan(1);
    expect((await list(host)).search).toBeUndefined();

    const { profiles, defaultProfile } = await host.call<{
      profiles: Array<{ id: string }>;
      defaultProfile: { id: string; mode: string };
    }>('profiles/list');
    expect(profiles.map((p) => p.id)).toContain('tight');
    expect(defaultProfile).toMatchObject({ id: 'default', mode: 'full' });

    expect(await host.call('profiles/remove', { id: 'tight' })).toEqual({ removed: true });
    expect(await host.call('profiles/remove', { id: 'tight' })).toEqual({ removed: false });
    expect((await host.request('tools/list', { profile: 'tight' })).error?.data?.reason).toBe(
      'unknown-profile',
    );
  });
});

describe('a profile workspace folder', () => {
  let workspace: string;
  let home: string;

  beforeAll(() => {
    workspace = mkdtempSync(join(tmpdir(), 'sy-profile-repo-'));
    writeFileSync(
      join(workspace, '.mcp.json'),
      JSON.stringify({
        mcpServers: { repo: { command: process.execPath, args: [FIXTURE_SERVER] } },
      }),
    );
    home = makeHome({
      mcpServers: { memory: SERVERS.memory },
      profiles: [
        {
          id: 'repo-site',
          name: 'Repo',
          match: ['http://localhost:3000/*'],
          mode: 'full',
          workspace,
        },
      ],
    });
    approve(home, ['memory']);
  });

  it('brings its .mcp.json servers behind the launch gate, shown only under that profile', async () => {
    const host = new HostHarness(home);
    try {
      await host.hello();
      const servers = await host.settled();
      const repo = servers.find((s) => s.name === 'repo');
      expect(repo?.status.state).toBe('needs-approval');
      const consent = repo?.status['consent'] as {
        reason: string;
        workspaceRoot: string;
        fingerprint: string;
      };
      expect(consent.reason).toBe('workspace');
      expect(consent.workspaceRoot).toBe(workspace);
      expect(childrenOf(host.child.pid!).some((args) => args.includes(FIXTURE_SERVER))).toBe(false);

      await host.call('trust/approve', { server: 'repo', fingerprint: consent.fingerprint });
      const under = (await list(host, 'repo-site')).tools.map((t) => t.name);
      expect(under).toContain('repo__ok');
      expect(under).toContain('memory__read_graph');
      // The default profile does not get another profile's repository servers.
      expect((await list(host)).tools.map((t) => t.name)).not.toContain('repo__ok');
      const reply = await host.request('tools/call', { name: 'repo__ok', arguments: {} });
      expect(reply.error?.data?.reason).toBe('unknown-tool');
      expect(await serverLog(host, 'repo')).not.toContain('called ok');
    } finally {
      await host.close();
    }
  });
});

describe('MCP roots from profile workspace folders', () => {
  it('answers roots/list with the folder, and tells the server when it changes', async () => {
    const first = realpathSync(mkdtempSync(join(tmpdir(), 'sy-root-a-')));
    const second = realpathSync(mkdtempSync(join(tmpdir(), 'sy-root-b-')));
    const fromArgs = realpathSync(mkdtempSync(join(tmpdir(), 'sy-root-args-')));
    mkdirSync(join(first, 'docs'));
    const profile = {
      id: 'files',
      name: 'Files',
      match: ['http://localhost:4000/*'],
      servers: ['filesystem'],
      mode: 'full',
      workspace: first,
    };
    const host = await HostHarness.start(
      { filesystem: { command: process.execPath, args: [FILESYSTEM_SERVER, fromArgs] } },
      { profiles: [profile] },
    );
    try {
      await host.settled();
      const allowed = async (): Promise<string> => {
        const result = await host.call<{ content: Array<{ text: string }> }>('tools/call', {
          name: 'filesystem__list_allowed_directories',
          arguments: {},
          profile: 'files',
        });
        return unwrap(result.content[0]?.text ?? '');
      };
      // server-filesystem replaces the folders from its arguments with the client's roots.
      await expect.poll(allowed, { timeout: 5_000 }).toContain(first);
      expect(await allowed()).not.toContain(fromArgs);

      await host.call('profiles/set', { profile: { ...profile, workspace: second } });
      await expect.poll(allowed, { timeout: 5_000 }).toContain(second);
      expect(await allowed()).not.toContain(first);
    } finally {
      await host.close();
    }
  });
});
