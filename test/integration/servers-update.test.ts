import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostHarness, MEMORY_SERVER, isAlive, makeHome } from './host-harness';

// The popup's Edit (servers/update), its bulk policy (policy/setMany) and the crash trace
// (ServerSummary.crashes), through the bundled host with the real memory server. Dangerous
// direction: an edit that starts the new launch without the user approving it, or one that
// loses or leaks a secret value the page never saw.

interface ServerView {
  name: string;
  envKeys: string[];
  status: {
    state: string;
    pid?: number;
    consent?: { reason: string; fingerprint: string; summary: string };
  };
  crashes: { count: number; lastExit: { code: number | null; signal: string | null } } | null;
}

const MEMORY = { command: process.execPath, args: [MEMORY_SERVER] };

function entryOf(home: string, name: string): unknown {
  const config = JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) as {
    mcpServers: Record<string, unknown>;
  };
  return config.mcpServers[name];
}

async function withMemory(
  test: (host: HostHarness, home: string, server: ServerView) => Promise<void>,
): Promise<void> {
  const home = makeHome({ mcpServers: {} });
  const host = new HostHarness(home);
  try {
    await host.hello();
    const { server } = await host.call<{ server: ServerView }>('servers/add', {
      name: 'memory',
      ...MEMORY,
      env: { MEMORY_FILE_PATH: join(home, 'memory.jsonl'), API_TOKEN: 'secret-value-1' },
    });
    expect(server.status.state).toBe('running');
    await test(host, home, server);
  } finally {
    await host.close();
  }
}

async function listed(host: HostHarness, name: string): Promise<ServerView> {
  const { servers } = await host.call<{ servers: ServerView[] }>('servers/list');
  const server = servers.find((s) => s.name === name);
  if (server === undefined) throw new Error(`${name} is not listed`);
  return server;
}

describe('servers/update', () => {
  it('stops an edited server and holds it at the gate until the user approves the new launch', () =>
    withMemory(async (host, home, before) => {
      const pid = before.status.pid!;
      const { server } = await host.call<{ server: ServerView }>('servers/update', {
        server: 'memory',
        ...MEMORY,
        // The page never saw API_TOKEN's value: null keeps it; MEMORY_FILE_PATH is dropped.
        env: { API_TOKEN: null, LOG_LEVEL: 'debug' },
        cwd: home,
      });
      expect(server.status.state).toBe('needs-approval');
      expect(server.status.consent?.reason).toBe('changed');
      expect(server.status.consent?.summary).toMatch(/needs approval$/);
      expect(server.envKeys.sort()).toEqual(['API_TOKEN', 'LOG_LEVEL']);
      expect(isAlive(pid)).toBe(false);
      expect(entryOf(home, 'memory')).toEqual({
        ...MEMORY,
        env: { API_TOKEN: 'secret-value-1', LOG_LEVEL: 'debug' },
        cwd: home,
      });
      // Still waiting: nothing started it on the way.
      expect((await listed(host, 'memory')).status.state).toBe('needs-approval');

      const approved = await host.call<{ server: ServerView }>('trust/approve', {
        server: 'memory',
        fingerprint: server.status.consent?.fingerprint,
      });
      expect(approved.server.status.state).toBe('running');
    }));

  it('leaves a server running when the edit changes nothing that runs', () =>
    withMemory(async (host, home, before) => {
      const { server } = await host.call<{ server: ServerView }>('servers/update', {
        server: 'memory',
        ...MEMORY,
        env: { MEMORY_FILE_PATH: null, API_TOKEN: null },
        cwd: null,
      });
      expect(server.status.state).toBe('running');
      expect(server.status.pid).toBe(before.status.pid);
      expect(entryOf(home, 'memory')).toEqual({
        ...MEMORY,
        env: { MEMORY_FILE_PATH: join(home, 'memory.jsonl'), API_TOKEN: 'secret-value-1' },
      });
    }));

  it('refuses to keep a value the entry does not have, an unknown server and a relative cwd, writing nothing', () =>
    withMemory(async (host, home) => {
      const entry = entryOf(home, 'memory');
      const edit = { server: 'memory', ...MEMORY, env: {}, cwd: null };
      const cases = [
        [{ ...edit, env: { NEVER_SET: null } }, 'invalid-params'],
        [{ ...edit, server: 'nope' }, 'unknown-server'],
        [{ ...edit, cwd: 'relative/dir' }, 'invalid-params'],
      ] as const;
      for (const [params, reason] of cases) {
        const reply = await host.request('servers/update', params);
        expect(reply.error?.data?.reason).toBe(reason);
      }
      expect(entryOf(home, 'memory')).toEqual(entry);
      expect((await listed(host, 'memory')).status.state).toBe('running');
    }));
});

describe('ServerSummary.crashes', () => {
  it('says a server was restarted after a crash, with the exit, until the user starts it again', () =>
    withMemory(async (host, _home, before) => {
      expect(before.crashes).toBeNull();
      process.kill(before.status.pid!, 'SIGKILL');
      const again = await host.until(() => {
        const states = host.notifications
          .filter((n) => n.method === 'notifications/servers/changed')
          .map((n) => n.params['server'] as ServerView)
          .filter((s) => s.name === 'memory');
        const crashed = states.findIndex((s) => s.status.state === 'crashed');
        return crashed >= 0 && states.slice(crashed).find((s) => s.status.state === 'running');
      }, 'memory running again after the crash');
      expect(again.crashes).toMatchObject({
        count: 1,
        lastExit: { code: null, signal: 'SIGKILL' },
      });
      expect((await listed(host, 'memory')).crashes?.count).toBe(1);

      const { server } = await host.call<{ server: ServerView }>('servers/restart', {
        server: 'memory',
      });
      expect(server.status.state).toBe('running');
      expect(server.crashes).toBeNull();
    }));
});

describe('policy/setMany', () => {
  it('sets several rules in one write and answers each effective policy', () =>
    withMemory(async (host, home) => {
      const result = await host.call<{
        rules: Record<string, string>;
        effective: Record<string, string | null>;
      }>('policy/setMany', {
        rules: [
          { tool: 'memory__read_graph', policy: 'allow' },
          { tool: 'memory__search_nodes', policy: 'allow' },
          { tool: 'memory__delete_entities', policy: 'deny' },
          { tool: 'memory__search_nodes', policy: null },
        ],
      });
      expect(result.rules).toEqual({
        memory__read_graph: 'allow',
        memory__delete_entities: 'deny',
      });
      expect(result.effective).toEqual({
        memory__read_graph: 'allow',
        memory__search_nodes: 'ask',
        memory__delete_entities: 'deny',
      });
      const config = JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) as {
        toolPolicy: unknown;
      };
      expect(config.toolPolicy).toEqual(result.rules);
      const refused = await host.request('policy/setMany', {
        rules: [
          { tool: 'memory__open_nodes', policy: 'allow' },
          { tool: 'not a glob!', policy: 'allow' },
        ],
      });
      expect(refused.error?.data?.reason).toBe('invalid-params');
      expect(
        (JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) as { toolPolicy: unknown })
          .toolPolicy,
      ).toEqual(result.rules);
    }));
});
