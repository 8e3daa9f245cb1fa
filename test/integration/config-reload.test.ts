import { mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  HostHarness,
  MEMORY_SERVER,
  approveAll,
  childrenOf,
  isAlive,
  makeHome,
  type Notification,
} from './host-harness';

// Live reload of config.json in the real host: a running host follows edits to the file without
// loosening the launch gate. Dangerous direction: an entry that appears or changes in the file
// by hand and runs without the user's approval, or a host that falls over on a half-saved file.

interface ConsentView {
  reason: string;
  summary: string;
  changes: Array<{ field: string; before: string; after: string }>;
}
interface ServerView {
  name: string;
  status: { state: string; pid?: number; consent?: ConsentView };
}

const memory = (...extra: string[]) => ({
  command: process.execPath,
  args: [MEMORY_SERVER, ...extra],
});

function changes(host: HostHarness): ServerView[] {
  return host.notifications
    .filter((n) => n.method === 'notifications/servers/changed')
    .map((n) => n.params['server'] as ServerView);
}

/** The latest reported state of `name` once it is `state`. */
function reaches(host: HostHarness, name: string, state: string): Promise<ServerView> {
  return host.until(() => {
    const last = changes(host)
      .filter((s) => s.name === name)
      .at(-1);
    return last?.status.state === state ? last : undefined;
  }, `${name} ${state}`);
}

function removed(name: string) {
  return (n: Notification) =>
    n.method === 'notifications/servers/changed' &&
    n.params['removed'] === true &&
    (n.params['server'] as ServerView).name === name;
}

/** Writes config.json the way many editors do: a new file renamed over the old one. */
function saveByRename(home: string, config: unknown): void {
  const file = join(home, 'config.json');
  writeFileSync(`${file}.swp`, JSON.stringify(config, null, 2));
  renameSync(`${file}.swp`, file);
}

async function started(config: Record<string, unknown>): Promise<HostHarness> {
  const home = makeHome({ mcpServers: config });
  approveAll(home);
  const host = new HostHarness(home);
  await host.hello();
  await host.settled();
  return host;
}

describe('live reload of config.json', () => {
  it('holds a hand-added entry for approval, spawning nothing, and leaves the others alone', async () => {
    const host = await started({ a: memory() });
    try {
      const [a] = await host.settled();
      const pidOfA = a?.status['pid'];
      expect(pidOfA).toEqual(expect.any(Number));
      const seen = host.notifications.length;
      saveByRename(host.home, { mcpServers: { a: memory(), b: memory('--hand-added') } });
      const b = await reaches(host, 'b', 'needs-approval');
      expect(b.status.consent).toMatchObject({ reason: 'edited-outside' });
      await new Promise((r) => setTimeout(r, 300));
      const children = childrenOf(host.child.pid!);
      expect(children.some((c) => c.includes('--hand-added'))).toBe(false);
      expect(children).toHaveLength(1);
      const servers = await host.settled();
      expect(servers.find((s) => s.name === 'a')?.status['pid']).toBe(pidOfA);
      const sinceEdit = host.notifications
        .slice(seen)
        .filter((n) => n.method === 'notifications/servers/changed')
        .map((n) => (n.params['server'] as ServerView).name);
      expect(sinceEdit).not.toContain('a');
    } finally {
      await host.close();
    }
  });

  it('stops a server whose launch changed and shows what changed; drops a removed one', async () => {
    const host = await started({ a: memory(), b: memory() });
    try {
      const before = await host.settled();
      const pidOf = (name: string) => before.find((s) => s.name === name)?.status['pid'] as number;
      saveByRename(host.home, { mcpServers: { a: memory('--changed') } });
      const a = await reaches(host, 'a', 'needs-approval');
      expect(a.status.consent).toMatchObject({
        reason: 'changed',
        summary: 'args changed - needs approval',
        changes: [{ field: 'args' }],
      });
      await host.until(() => host.notifications.find(removed('b')), 'b removed');
      expect(isAlive(pidOf('a'))).toBe(false);
      expect(isAlive(pidOf('b'))).toBe(false);
      const { servers } = await host.call<{ servers: ServerView[] }>('servers/list');
      expect(servers.map((s) => s.name)).toEqual(['a']);
      const { tools } = await host.call<{ tools: unknown[] }>('tools/list');
      expect(tools).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it('keeps the last good configuration running while the file is broken, and says why', async () => {
    const host = await started({ a: memory() });
    try {
      const [a] = await host.settled();
      writeFileSync(join(host.home, 'config.json'), '{"mcpServers": {"a": {"command": ');
      const warning = await host.until(
        () =>
          host.notifications.find(
            (n) => n.method === 'notifications/log' && n.params['level'] === 'warning',
          ),
        'a warning',
      );
      expect(warning.params['message']).toMatch(/last good configuration keeps running/);
      const hello = await host.hello();
      expect(JSON.stringify(hello.result)).toMatch(/last good configuration keeps running/);
      const [still] = await host.settled();
      expect(still?.status).toEqual(a?.status);
      expect(isAlive(a?.status['pid'] as number)).toBe(true);

      // Fixed: the reload goes on, and the file is not rewritten behind the user's back.
      const fixed = { mcpServers: { a: memory(), c: memory('--c') } };
      writeFileSync(join(host.home, 'config.json'), JSON.stringify(fixed));
      await reaches(host, 'c', 'needs-approval');
      expect(JSON.parse(readFileSync(join(host.home, 'config.json'), 'utf8'))).toEqual(fixed);
      const again = await host.hello();
      expect(JSON.stringify(again.result)).not.toMatch(/last good configuration/);
    } finally {
      await host.close();
    }
  });

  it('keeps a server running while the file is briefly missing', async () => {
    const host = await started({ a: memory() });
    try {
      const [a] = await host.settled();
      const file = join(host.home, 'config.json');
      renameSync(file, `${file}.bak`);
      await host.until(
        () =>
          host.notifications.find(
            (n) => n.method === 'notifications/log' && /missing/.test(String(n.params['message'])),
          ),
        'a missing-file warning',
      );
      expect(isAlive(a?.status['pid'] as number)).toBe(true);
      renameSync(`${file}.bak`, file);
      await new Promise((r) => setTimeout(r, 500));
      const [still] = await host.settled();
      expect(still?.status).toEqual(a?.status);
    } finally {
      await host.close();
    }
  });
});

describe('live reload of workspace files', () => {
  it("follows a workspace's .mcp.json and a .vscode/mcp.json that appears later, through the gate", async () => {
    const repo = mkdtempSync(join(tmpdir(), 'sy-repo-'));
    writeFileSync(join(repo, '.mcp.json'), JSON.stringify({ mcpServers: { w: memory() } }));
    const home = makeHome({ mcpServers: {}, workspaces: [repo] });
    approveAll(home);
    const host = new HostHarness(home);
    try {
      await host.hello();
      const [w] = await host.settled();
      expect(w?.status.state).toBe('running');
      const pidOfW = w?.status['pid'] as number;

      // A file in a folder that did not exist when the host started (a branch checked out).
      mkdirSync(join(repo, '.vscode'));
      writeFileSync(
        join(repo, '.vscode', 'mcp.json'),
        JSON.stringify({ servers: { v: memory('--from-vscode') } }),
      );
      const v = await reaches(host, 'v', 'needs-approval');
      expect(v.status.consent).toMatchObject({ reason: 'workspace' });
      expect(childrenOf(host.child.pid!).some((c) => c.includes('--from-vscode'))).toBe(false);
      expect(isAlive(pidOfW)).toBe(true);

      // An edit of the approved server stops it and asks, saying what changed.
      writeFileSync(
        join(repo, '.mcp.json'),
        JSON.stringify({ mcpServers: { w: memory('--edited') } }),
      );
      const edited = await reaches(host, 'w', 'needs-approval');
      expect(edited.status.consent).toMatchObject({
        reason: 'changed',
        changes: [{ field: 'args' }],
      });
      await host.until(() => (isAlive(pidOfW) ? undefined : true), 'w stopped');
      expect(childrenOf(host.child.pid!).some((c) => c.includes('--edited'))).toBe(false);
    } finally {
      await host.close();
    }
  });
});
