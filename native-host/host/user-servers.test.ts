import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, test } from 'vitest';
import { TrustStore } from '../trust/trust-store';
import { HostError } from '../shared/host-error';
import { loadSetup } from './setup';
import { addUserServer, removeUserServer, setUserServerApps } from './user-servers';
import type { NewUserServer } from './written-entry';
import { reasonOf } from '../testing/host-errors';

// The dangerous direction: an approval that covers something other than what the host will run
// from the written file (a server that starts unseen), or an approval that outlives its entry.
// A refused add only costs the user a retry.

const NODE = process.execPath;
const platform = process.platform;

function fixture(config?: unknown) {
  const home = mkdtempSync(path.join(tmpdir(), 'sy-user-servers-'));
  if (config !== undefined) {
    writeFileSync(
      path.join(home, 'config.json'),
      typeof config === 'string' ? config : JSON.stringify(config),
    );
  }
  const env = { SWITCHYARD_HOME: home, PATH: path.dirname(NODE) };
  const configFile = path.join(home, 'config.json');
  const read = (): Record<string, unknown> =>
    JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, unknown>;
  return { home, env, configFile, read };
}

/** A workspace folder in `home` whose .mcp.json defines `db`, listed in a new config.json. */
function addWorkspaceServer(home: string): void {
  const workspace = path.join(home, 'repo');
  mkdirSync(workspace);
  writeFileSync(
    path.join(workspace, '.mcp.json'),
    JSON.stringify({ mcpServers: { db: { command: NODE } } }),
  );
  writeFileSync(
    path.join(home, 'config.json'),
    JSON.stringify({ mcpServers: {}, workspaces: [workspace] }),
  );
}

async function context(env: NodeJS.ProcessEnv, home: string) {
  return { env, platform, trust: await TrustStore.open(home) };
}

/** What a host loading this home would do with `name`: approved, or which card. */
async function gateOf(env: NodeJS.ProcessEnv, home: string, name: string): Promise<string> {
  const setup = await loadSetup({ env, platform });
  const spec = setup.specs.find((s) => s.name === name);
  if (spec === undefined) return 'not configured';
  if (spec.definition === null) return 'not found';
  const trust = await TrustStore.open(home);
  return (await trust.launchStatus(spec.scope, spec.name, spec.definition)).state;
}

describe('addUserServer', () => {
  const memory: NewUserServer = {
    name: 'memory',
    command: 'node',
    args: ['/opt/mcp/memory.js', 'a b'],
    env: { TOKEN: '${TOKEN}', LEVEL: 'debug' },
  };

  it('writes the entry and approves exactly what a load of the file will run', async () => {
    const { home, env, read } = fixture({ mcpServers: {}, toolPolicy: { 'x__*': 'allow' } });
    const added = await addUserServer(memory, {}, await context(env, home));
    expect(read()).toEqual({
      mcpServers: {
        memory: {
          command: 'node',
          args: ['/opt/mcp/memory.js', 'a b'],
          env: { TOKEN: '${TOKEN}', LEVEL: 'debug' },
        },
      },
      toolPolicy: { 'x__*': 'allow' },
    });
    expect(added).toMatchObject({ replaced: false, executable: NODE, notFound: null });
    expect(added.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(await gateOf(env, home, 'memory')).toBe('approved');
  });

  it('creates config.json in a fresh home', async () => {
    const { home, env, read } = fixture();
    await addUserServer({ name: 'n', command: NODE }, {}, await context(env, home));
    expect(read()).toEqual({ mcpServers: { n: { command: NODE } } });
    expect(await gateOf(env, home, 'n')).toBe('approved');
  });

  it('writes a command that is not found, approves nothing, and says so', async () => {
    const { home, env, read } = fixture({ mcpServers: {} });
    const added = await addUserServer(
      { name: 'ghost', command: 'no-such-command-7f3a' },
      {},
      await context(env, home),
    );
    expect(read()).toEqual({ mcpServers: { ghost: { command: 'no-such-command-7f3a' } } });
    expect(added.executable).toBeNull();
    expect(added.fingerprint).toBeNull();
    expect(added.notFound).toMatch(/no-such-command-7f3a/);
    expect(await gateOf(env, home, 'ghost')).toBe('not found');
    const trust = await TrustStore.open(home);
    expect(await trust.launchApproval('user', 'ghost')).toBeUndefined();
  });

  it('with requireCommand, refuses a command that is not found and writes nothing', async () => {
    const { home, env, configFile } = fixture({ mcpServers: {} });
    const before = readFileSync(configFile, 'utf8');
    const attempt = addUserServer(
      { name: 'ghost', command: 'no-such-command-7f3a' },
      { requireCommand: true },
      await context(env, home),
    );
    await expect(attempt).rejects.toThrow(
      /'ghost' was not added: .*no-such-command-7f3a.*Nothing was written/,
    );
    expect(readFileSync(configFile, 'utf8')).toBe(before);
    const trust = await TrustStore.open(home);
    expect(await trust.launchApproval('user', 'ghost')).toBeUndefined();
  });

  it('refuses a name config.json has, without touching either file', async () => {
    const { home, env, configFile } = fixture({ mcpServers: { memory: { command: 'old' } } });
    const before = readFileSync(configFile, 'utf8');
    expect(await reasonOf(addUserServer(memory, {}, await context(env, home)))).toBe(
      'already-exists',
    );
    expect(readFileSync(configFile, 'utf8')).toBe(before);
    const trust = await TrustStore.open(home);
    expect(await trust.launchApproval('user', 'memory')).toBeUndefined();
  });

  it('refuses a name whose entry is invalid (it is still the user’s entry)', async () => {
    const { home, env } = fixture({ mcpServers: { memory: { command: 42 } } });
    expect(await reasonOf(addUserServer(memory, {}, await context(env, home)))).toBe(
      'already-exists',
    );
  });

  it('replaces only the launch fields when asked to, and re-approves', async () => {
    const { home, env, read } = fixture({
      mcpServers: { memory: { command: 'old', args: ['x'], prefix: 'mem', timeout: 5 } },
    });
    const added = await addUserServer(
      { name: 'memory', command: NODE },
      { replace: true },
      await context(env, home),
    );
    expect(added.replaced).toBe(true);
    expect(read()).toEqual({
      mcpServers: { memory: { prefix: 'mem', timeout: 5, command: NODE } },
    });
    expect(await gateOf(env, home, 'memory')).toBe('approved');
  });

  test.each([
    ['an empty name', { name: '', command: NODE }],
    ['a bidi character in the name', { name: 'a\u202eb', command: NODE }],
    ['"__proto__" as a name', { name: '__proto__', command: NODE }],
    ['a NUL in an argument', { name: 'a', command: NODE, args: ['x\u0000'] }],
    ['"=" in an env name', { name: 'a', command: NODE, env: { 'A=B': 'c' } }],
    ['an empty cwd', { name: 'a', command: NODE, cwd: '' }],
    ['a relative cwd', { name: 'a', command: NODE, cwd: 'src' }],
  ] as const)('refuses %s as invalid-params, writing nothing', async (_label, server) => {
    const { home, env, configFile } = fixture({ mcpServers: {} });
    expect(await reasonOf(addUserServer(server, {}, await context(env, home)))).toBe(
      'invalid-params',
    );
    expect(readFileSync(configFile, 'utf8')).toBe('{"mcpServers":{}}');
  });

  it('never overwrites a config.json broken by hand, and leaves no approval behind', async () => {
    const { home, env, configFile } = fixture('{"mcpServers": {},}');
    expect(await reasonOf(addUserServer(memory, {}, await context(env, home)))).toBe(
      'config-invalid',
    );
    expect(readFileSync(configFile, 'utf8')).toBe('{"mcpServers": {},}');
    const trust = await TrustStore.open(home);
    expect(await trust.launchApproval('user', 'memory')).toBeUndefined();
  });

  it('refuses a name a workspace file defines', async () => {
    const { home, env } = fixture();
    addWorkspaceServer(home);
    const ctx = await context(env, home);
    expect(await reasonOf(addUserServer({ name: 'db', command: NODE }, {}, ctx))).toBe(
      'workspace-server',
    );
    expect(
      await reasonOf(addUserServer({ name: 'db', command: NODE }, { replace: true }, ctx)),
    ).toBe('workspace-server');
  });

  it("replaces the user's own entry that a workspace file overlays: it is still theirs", async () => {
    const { home, env, read } = fixture();
    addWorkspaceServer(home);
    const workspace = path.join(home, 'repo');
    // The repository only adds a variable to a name config.json has.
    writeFileSync(
      path.join(workspace, '.mcp.json'),
      JSON.stringify({ mcpServers: { db: { env: { X: '1' } } } }),
    );
    writeFileSync(
      path.join(home, 'config.json'),
      JSON.stringify({ mcpServers: { db: { command: NODE } }, workspaces: [workspace] }),
    );
    const ctx = await context(env, home);
    await addUserServer({ name: 'db', command: NODE, args: ['--version'] }, { replace: true }, ctx);
    expect(read()['mcpServers']).toEqual({ db: { command: NODE, args: ['--version'] } });
  });
});

describe('addUserServer and removeUserServer racing other writers', () => {
  // Each reads the entry it changes under config.json's lock: read outside it, two writers
  // (the popup and the CLI, two hosts) each approved and wrote from what they had read.

  it('two adds of one name: one wins, and its entry stays approved', async () => {
    const { home, env, read } = fixture({ mcpServers: {} });
    const ctx = await context(env, home);
    const outcomes = await Promise.allSettled([
      addUserServer({ name: 'm', command: NODE, args: ['a.js'] }, {}, ctx),
      addUserServer({ name: 'm', command: NODE, args: ['b.js'] }, {}, ctx),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((o) => o.status === 'rejected');
    expect(refused?.reason).toMatchObject({ reason: 'already-exists' });
    expect(Object.keys(read()['mcpServers'] as object)).toEqual(['m']);
    expect(await gateOf(env, home, 'm')).toBe('approved');
  });

  it('a replace keeps what another writer changed in the entry meanwhile', async () => {
    const { home, env, read } = fixture({ mcpServers: { m: { command: NODE, prefix: 'p' } } });
    const ctx = await context(env, home);
    await Promise.all([
      addUserServer({ name: 'm', command: NODE, args: ['new.js'] }, { replace: true }, ctx),
      setUserServerApps('m', false, ctx),
    ]);
    expect(read()['mcpServers']).toEqual({
      m: { command: NODE, args: ['new.js'], prefix: 'p', apps: false },
    });
    expect(await gateOf(env, home, 'm')).toBe('approved');
  });

  it('a remove racing an add of the same name never leaves the added entry unapproved', async () => {
    const { home, env } = fixture({ mcpServers: { m: { command: NODE } } });
    const ctx = await context(env, home);
    await Promise.allSettled([
      removeUserServer('m', ctx),
      addUserServer({ name: 'm', command: NODE, args: ['b.js'] }, { replace: true }, ctx),
    ]);
    expect(['approved', 'not configured']).toContain(await gateOf(env, home, 'm'));
  });
});

describe('removeUserServer', () => {
  it('deletes the entry, its approval and its pins, and nothing else', async () => {
    const { home, env, read } = fixture({ mcpServers: {}, custom: true });
    const ctx = await context(env, home);
    await addUserServer({ name: 'a', command: NODE }, {}, ctx);
    await addUserServer({ name: 'b', command: NODE }, {}, ctx);
    await ctx.trust.pinTool('user', 'a', { name: 't', description: '', inputSchema: {} });
    const removed = await removeUserServer('a', ctx);
    expect(removed).toMatchObject({ name: 'a', launch: true, pins: 1 });
    expect(read()).toEqual({ mcpServers: { b: { command: NODE } }, custom: true });
    expect(await gateOf(env, home, 'a')).toBe('not configured');
    expect(await ctx.trust.launchApproval('user', 'a')).toBeUndefined();
    expect(await gateOf(env, home, 'b')).toBe('approved');
  });

  it('removes a hand-written entry that was never approved', async () => {
    const { home, env, read } = fixture({ mcpServers: { h: { command: NODE } } });
    const removed = await removeUserServer('h', await context(env, home));
    expect(removed).toMatchObject({ launch: false, pins: 0 });
    expect(read()).toEqual({ mcpServers: {} });
  });

  it('answers unknown-server for a name nobody configured', async () => {
    const { home, env } = fixture({ mcpServers: {} });
    expect(await reasonOf(removeUserServer('nope', await context(env, home)))).toBe(
      'unknown-server',
    );
  });

  it('refuses a workspace server: the repository file is not Switchyard’s to edit', async () => {
    const { home, env } = fixture();
    addWorkspaceServer(home);
    const error = await removeUserServer('db', await context(env, home)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostError);
    expect(error).toMatchObject({ reason: 'workspace-server' });
    expect(String(error)).toMatch(/edit its \.mcp\.json/);
  });
});

describe('setUserServerApps', () => {
  // The dangerous direction here: a switch that changes what runs (or its approval), or that
  // loses the user's other keys. An extra write only costs a reload.
  const entry = { command: NODE, args: ['server.js'], prefix: 'mem', timeout: 30 };
  const cases: ReadonlyArray<
    readonly [string, Record<string, unknown>, boolean, Record<string, unknown>, boolean]
  > = [
    ['turning off writes "apps": false', entry, false, { ...entry, apps: false }, true],
    ['turning on removes the key', { ...entry, apps: false }, true, entry, true],
    ['turning on an entry with no key writes nothing', entry, true, entry, false],
    [
      'turning off an entry already off writes nothing',
      { ...entry, apps: false },
      false,
      { ...entry, apps: false },
      false,
    ],
    [
      'an explicit "apps": true turned on stays as written',
      { ...entry, apps: true },
      true,
      { ...entry, apps: true },
      false,
    ],
    [
      'an explicit "apps": true turned off',
      { ...entry, apps: true },
      false,
      { ...entry, apps: false },
      true,
    ],
  ];
  test.each(cases)('%s', async (_label, before, enabled, after, changed) => {
    const { home, env, read, configFile } = fixture({ mcpServers: { mem: before }, custom: 1 });
    const written = statSync(configFile).mtimeMs;
    const ctx = await context(env, home);
    await ctx.trust.approveLaunch('user', 'mem', {
      executable: NODE,
      args: ['server.js'],
      env: {},
      cwd: null,
      provenance: 'user',
      workspaceRoot: null,
    });
    const trustBefore = readFileSync(path.join(home, 'trust.json'), 'utf8');
    expect(await setUserServerApps('mem', enabled, ctx)).toEqual({ configFile, changed });
    expect(read()).toEqual({ mcpServers: { mem: after }, custom: 1 });
    if (!changed) expect(statSync(configFile).mtimeMs).toBe(written);
    // No approval was written or withdrawn, and the launch is still approved as it was.
    expect(readFileSync(path.join(home, 'trust.json'), 'utf8')).toBe(trustBefore);
    expect(await gateOf(env, home, 'mem')).toBe('approved');
  });

  it('answers unknown-server for a name config.json does not have, and writes nothing', async () => {
    const { home, env, read } = fixture({ mcpServers: {} });
    expect(await reasonOf(setUserServerApps('nope', false, await context(env, home)))).toBe(
      'unknown-server',
    );
    expect(read()).toEqual({ mcpServers: {} });
  });

  it('refuses a server only a workspace file defines: Switchyard does not write it', async () => {
    const { home, env } = fixture();
    addWorkspaceServer(home);
    expect(await reasonOf(setUserServerApps('db', false, await context(env, home)))).toBe(
      'workspace-server',
    );
  });
});
