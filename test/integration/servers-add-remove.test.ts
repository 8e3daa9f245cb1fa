import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requestMethods } from '../../protocol/methods';
import {
  HostHarness,
  MEMORY_SERVER,
  childrenOf,
  isAlive,
  makeHome,
  runCli,
  type Notification,
} from './host-harness';

// Servers written to config.json by Switchyard (servers/add, switchyard add) start without a
// prompt; removing one stops its process and forgets its trust. Dangerous direction: a write that
// starts something other than what was asked for, or a removed server that keeps running.

interface ServerView {
  name: string;
  command: string;
  args: string[];
  status: { state: string; pid?: number; reason?: string; consent?: { reason: string } };
}

const MEMORY = { command: process.execPath, args: [MEMORY_SERVER] };

function configOf(home: string): { mcpServers: Record<string, unknown> } {
  return JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) as {
    mcpServers: Record<string, unknown>;
  };
}

function launchesIn(home: string): Array<{ server: string; fingerprint: string }> {
  try {
    const trust = JSON.parse(readFileSync(join(home, 'trust.json'), 'utf8')) as {
      launches: Array<{ server: string; fingerprint: string }>;
    };
    return trust.launches;
  } catch {
    return [];
  }
}

/** Every state `name` was reported in, in order. */
function statesOf(host: HostHarness, name: string): string[] {
  return host.notifications
    .filter((n) => n.method === 'notifications/servers/changed')
    .map((n) => n.params['server'] as ServerView)
    .filter((s) => s.name === name)
    .map((s) => s.status.state);
}

function removedNotice(name: string) {
  return (n: Notification) =>
    n.method === 'notifications/servers/changed' &&
    n.params['removed'] === true &&
    (n.params['server'] as ServerView).name === name;
}

function cli(home: string, ...args: string[]) {
  return runCli({ ...process.env, SWITCHYARD_HOME: home }, ...args);
}

/** Runs `test` against a host (after host/hello) of a new home with no servers, then closes it. */
async function withHost(test: (host: HostHarness, home: string) => Promise<void>): Promise<void> {
  const home = makeHome({ mcpServers: {} });
  const host = new HostHarness(home);
  try {
    await host.hello();
    await test(host, home);
  } finally {
    await host.close();
  }
}

describe('servers/add and servers/remove', () => {
  it('adds a server that starts without a prompt, then removes it and its process', () =>
    withHost(async (host, home) => {
      const { server } = await host.call<{ server: ServerView }>('servers/add', {
        name: 'memory',
        ...MEMORY,
      });
      expect(server.status.state).toBe('running');
      expect(statesOf(host, 'memory')).not.toContain('needs-approval');
      expect(configOf(home).mcpServers).toEqual({ memory: MEMORY });
      expect(launchesIn(home).map((l) => l.server)).toEqual(['memory']);
      const { tools } = await host.call<{ tools: Array<{ name: string }> }>('tools/list');
      expect(tools.map((t) => t.name)).toContain('memory__read_graph');

      const pid = server.status.pid!;
      expect(isAlive(pid)).toBe(true);
      expect(await host.call('servers/remove', { server: 'memory' })).toEqual({ removed: true });
      expect(isAlive(pid)).toBe(false);
      expect(childrenOf(host.child.pid!)).toEqual([]);
      expect(host.notifications.some(removedNotice('memory'))).toBe(true);
      expect(configOf(home).mcpServers).toEqual({});
      expect(launchesIn(home)).toEqual([]);
      const after = await host.call<{ servers: ServerView[] }>('servers/list');
      expect(after.servers).toEqual([]);
    }));

  it('refuses an existing name, and any replace over the wire: only the CLI replaces, exactly', () =>
    withHost(async (host, home) => {
      await host.call('servers/add', { name: 'memory', ...MEMORY });
      const again = await host.request('servers/add', { name: 'memory', ...MEMORY });
      expect(again.error?.data?.reason).toBe('already-exists');
      // An add approves what it writes with no card: a page that could replace an entry could
      // swap the program under a trusted server. Changing one is servers/update (it asks).
      const swapped = await host.request('servers/add', {
        name: 'memory',
        ...MEMORY,
        env: { MEMORY_FILE_PATH: join(home, 'memory.jsonl') },
        replace: true,
      });
      expect(swapped.error?.data?.reason).toBe('invalid-params');
      expect(configOf(home).mcpServers['memory']).toEqual(MEMORY);

      const before = statesOf(host, 'memory').length;
      const replaced = cli(
        home,
        'add',
        'memory',
        '--replace',
        '--env',
        `MEMORY_FILE_PATH=${join(home, 'memory.jsonl')}`,
        '--',
        ...[MEMORY.command, ...MEMORY.args],
      );
      expect(replaced.code, replaced.err).toBe(0);
      expect(configOf(home).mcpServers['memory']).toEqual({
        ...MEMORY,
        env: { MEMORY_FILE_PATH: join(home, 'memory.jsonl') },
      });
      // The running host reloads and restarts it as approved by the CLI: no card.
      await host.until(() => {
        const states = statesOf(host, 'memory');
        return states.length > before && states.at(-1) === 'running';
      }, 'the replaced memory server running again');
      expect(statesOf(host, 'memory')).not.toContain('needs-approval');
    }));

  it('writes a command that is not found, runs nothing, and reports it', () =>
    withHost(async (host, home) => {
      const { server } = await host.call<{ server: ServerView }>('servers/add', {
        name: 'ghost',
        command: 'no-such-command-5b1e',
      });
      expect(server.status).toMatchObject({ state: 'failed', reason: 'command-not-found' });
      expect(configOf(home).mcpServers).toEqual({ ghost: { command: 'no-such-command-5b1e' } });
      expect(launchesIn(home)).toEqual([]);
    }));

  it('refuses to remove a workspace server, and says what to do instead', async () => {
    const home = makeHome({ mcpServers: {} });
    const workspace = join(home, 'repo');
    mkdirSync(workspace);
    writeFileSync(join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: { db: MEMORY } }));
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({ mcpServers: {}, workspaces: [workspace] }),
    );
    const host = new HostHarness(home);
    try {
      await host.hello();
      const reply = await host.request('servers/remove', { server: 'db' });
      expect(reply.error?.data?.reason).toBe('workspace-server');
      expect(reply.error?.message).toMatch(/edit its \.mcp\.json .* or revoke/);
      const unknown = await host.request('servers/remove', { server: 'nope' });
      expect(unknown.error?.data?.reason).toBe('unknown-server');
    } finally {
      await host.close();
    }
  });

  it('picks up `switchyard add` and `switchyard remove` while running, without a prompt', () =>
    withHost(async (host, home) => {
      const added = cli(home, 'add', 'memory', '--', ...[MEMORY.command, ...MEMORY.args]);
      expect(added.code, added.err).toBe(0);
      expect(added.out).toMatch(/Added 'memory'/);
      expect(added.out).toMatch(/Approved to run exactly this/);
      const running = await host.until(
        () =>
          host.notifications
            .filter((n) => n.method === 'notifications/servers/changed')
            .map((n) => n.params['server'] as ServerView)
            .find((s) => s.name === 'memory' && s.status.state === 'running'),
        'memory running after switchyard add',
      );
      expect(statesOf(host, 'memory')).not.toContain('needs-approval');

      const removed = cli(home, 'remove', 'memory');
      expect(removed.code, removed.err).toBe(0);
      expect(removed.out).toMatch(/Removed 'memory'.*forgot its launch approval/);
      await host.until(() => host.notifications.find(removedNotice('memory')), 'memory removed');
      expect(isAlive(running.status.pid!)).toBe(false);

      // Both were recorded as the user's, made in a terminal.
      const activity = cli(home, 'activity', '--server', 'memory', '--event', 'trust', '--json');
      expect(activity.code, activity.err).toBe(0);
      const { entries } = requestMethods['activity/list'].result
        .pick({ entries: true })
        .parse(JSON.parse(activity.out));
      expect(entries.map((e) => [e.decision, e.by, e.via])).toEqual([
        ['removed', 'user', 'cli'],
        ['written-by-switchyard', 'user', 'cli'],
      ]);
    }));

  it("keeps what a server writes to stderr for 'switchyard logs', after its host is gone", async () => {
    const home = makeHome({ mcpServers: {} });
    const host = new HostHarness(home);
    try {
      await host.hello();
      const { server } = await host.call<{ server: ServerView }>('servers/add', {
        name: 'memory',
        ...MEMORY,
        env: { MEMORY_FILE_PATH: join(home, 'memory.jsonl') },
      });
      expect(server.status.state).toBe('running');
    } finally {
      await host.close();
    }
    const shown = cli(home, 'logs', 'memory', '--lines', '5');
    expect(shown.code).toBe(0);
    expect(shown.out).toMatch(
      /^\d{4}-\d\d-\d\dT[\d:.]+Z Knowledge Graph MCP Server running on stdio$/m,
    );
    const unknown = cli(home, 'logs', 'nobody');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/'nobody' has written nothing to stderr yet/);
  });

  it('answers a CLI mistake with what to do', () => {
    const home = makeHome({ mcpServers: { memory: MEMORY } });
    const noSeparator = cli(home, 'add', 'x', 'node', 'server.js');
    expect(noSeparator.code).toBe(2);
    expect(noSeparator.err).toMatch(/put '--' before the command/);
    const exists = cli(home, 'add', 'memory', '--', 'node');
    expect(exists.code).toBe(1);
    expect(exists.err).toMatch(/already in .*config\.json; choose another name, or replace it/);
    const missing = cli(home, 'remove', 'nope');
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/No server named 'nope'/);
    const config = readFileSync(join(home, 'config.json'), 'utf8');
    const typo = cli(home, 'add', 'ghost', '--', '/no/such/program');
    expect(typo.code).toBe(1);
    expect(typo.err).toMatch(/'ghost' was not added: .*\/no\/such\/program.*Nothing was written/);
    expect(readFileSync(join(home, 'config.json'), 'utf8')).toBe(config);
  });

  // Every shape the loader reads as remote: Windsurf's serverUrl too, not only url.
  it.each([
    ['url', { url: 'https://mcp.example.test/mcp' }],
    ['serverUrl', { serverUrl: 'https://mcp.example.test/mcp' }],
  ])("'switchyard remove' of a remote server (%s) forgets its sign-in too", (_, cloud) => {
    const home = makeHome({ mcpServers: { cloud } });
    // Records as a sign-in leaves them (the file store: no keyring here); none is a valid token
    // set, so nothing is sent anywhere, and every one is deleted.
    const secrets = join(home, 'secrets.json');
    const records = { 'oauth:cloud:tokens': '{}', 'oauth:cloud:client': '{}', 'var:KEEP': 'x' };
    writeFileSync(secrets, JSON.stringify({ version: 1, secrets: records }), { mode: 0o600 });
    const removed = runCli(
      { ...process.env, SWITCHYARD_HOME: home, SWITCHYARD_SECRET_STORE: 'file' },
      'remove',
      'cloud',
    );
    expect(removed.err).toBe('');
    expect(removed.code).toBe(0);
    expect(removed.out).toMatch(/Forgot the sign-in records of 'cloud'/);
    const left = readFileSync(secrets, 'utf8');
    expect(left).not.toContain('oauth:cloud:');
    expect(left).toContain('var:KEEP');
  });
});

describe('trust/forget', () => {
  it('forgets a stale approval and the pins of a server no longer configured', () =>
    withHost(async (host, home) => {
      await host.call('servers/add', { name: 'memory', ...MEMORY });
      // An approved call pins the tool's definition (design D7).
      await host.call('tools/call', { name: 'memory__read_graph', arguments: {} });
      // The user takes the entry out by hand: the host drops it, the approval stays behind.
      writeFileSync(join(home, 'config.json'), JSON.stringify({ mcpServers: {} }));
      await host.until(() => host.notifications.find(removedNotice('memory')), 'memory removed');
      expect(launchesIn(home).map((l) => l.server)).toEqual(['memory']);

      const forgotten = await host.call('trust/forget', { server: 'memory' });
      expect(forgotten).toEqual({ launch: true, pins: 1, server: null });
      expect(launchesIn(home)).toEqual([]);
      expect(await host.call('trust/forget', { server: 'memory' })).toEqual({
        launch: false,
        pins: 0,
        server: null,
      });
    }));

  it('re-gates a configured server whose approval it forgets', () =>
    withHost(async (host) => {
      const { server } = await host.call<{ server: ServerView }>('servers/add', {
        name: 'memory',
        ...MEMORY,
      });
      const result = await host.call<{ server: ServerView }>('trust/forget', { server: 'memory' });
      expect(result.server.status).toMatchObject({
        state: 'needs-approval',
        consent: { reason: 'edited-outside' },
      });
      expect(isAlive(server.status.pid!)).toBe(false);
    }));
});
