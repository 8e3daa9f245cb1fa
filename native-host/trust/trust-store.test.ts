import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { launchFingerprint } from './fingerprint';
import type { LaunchDefinition } from '../shared/server-spec';
import { toolDefinitionHash } from './tool-pin';
import type { PinnableTool } from './tool-pin';
import { TrustStore, TrustStoreError, nodeTrustFileSystem } from './trust-store';
import type { TrustFileSystem, TrustStoreOptions } from './trust-store';

// Dangerous direction: a grant the user did not make, or a revocation that does not hold. A
// broken, foreign or newer file must grant nothing; two hosts sharing a home must not undo each
// other's revocations. Losing an approval only costs the user a prompt.

const WORKSPACE = path.resolve('/home/ana/project');
const OTHER_WORKSPACE = path.resolve('/home/ana/other');

const definition: LaunchDefinition = {
  executable: '/usr/local/bin/node',
  args: ['/opt/mcp/server.js'],
  // A computed key is an own property: names from a repository can be anything.
  env: { GITHUB_TOKEN: '${GITHUB_TOKEN}', ['__proto__']: 'x' },
  cwd: null,
  provenance: 'workspace',
  workspaceRoot: WORKSPACE,
};

const tool: PinnableTool = {
  name: 'search_issues',
  description: 'Search issues.',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  annotations: { readOnlyHint: true },
};

const FIXED_NOW = new Date('2026-01-02T03:04:05.678Z');

let home: string;
let file: string;

beforeEach(async () => {
  home = path.join(await mkdtemp(path.join(tmpdir(), 'switchyard-trust-')), 'home');
  file = path.join(home, 'trust.json');
});

afterEach(async () => {
  await rm(path.dirname(home), { recursive: true, force: true });
});

function open(options: TrustStoreOptions = {}): Promise<TrustStore> {
  return TrustStore.open(home, { now: () => FIXED_NOW, ...options });
}

async function plant(text: string): Promise<void> {
  await mkdir(home, { recursive: true });
  await writeFile(file, text);
}

async function listHome(): Promise<string[]> {
  return (await readdir(home)).sort();
}

const posixOnly = process.platform === 'win32' ? it.skip : it;

describe('round trip', () => {
  it('keeps approvals and pins across instances', async () => {
    const store = await open();
    expect(await store.launchApproval('user', 'github')).toBeUndefined();
    const approval = await store.approveLaunch(WORKSPACE, 'github', definition);
    expect(approval).toEqual({
      fingerprint: launchFingerprint(definition),
      definition,
      approvedAt: FIXED_NOW.toISOString(),
    });
    const withOutputSchema = { ...tool, outputSchema: { type: 'object' } };
    const pin = await store.pinTool(WORKSPACE, 'github', withOutputSchema);
    expect(pin.hash).toBe(toolDefinitionHash(tool));
    expect(pin.tool).toEqual(tool);

    const again = await open();
    expect(again.pendingWarnings).toEqual([]);
    expect(await again.launchApproval(WORKSPACE, 'github')).toMatchObject(approval);
    const loaded = await again.launchApproval(WORKSPACE, 'github');
    expect(Object.keys(loaded?.definition.env ?? {})).toEqual(['GITHUB_TOKEN', '__proto__']);
    expect(await again.pinOf(WORKSPACE, 'github', 'search_issues')).toMatchObject(pin);
    expect([...(await again.pinsOf(WORKSPACE, 'github')).keys()]).toEqual(['search_issues']);
    // Scopes and servers are separate keys.
    expect(await again.launchApproval('user', 'github')).toBeUndefined();
    expect(await again.launchApproval(WORKSPACE, 'gitlab')).toBeUndefined();
    expect(await again.pinOf(OTHER_WORKSPACE, 'github', 'search_issues')).toBeUndefined();
  });

  it('reports a changed definition or tool with its differences', async () => {
    const store = await open();
    expect(await store.launchStatus(WORKSPACE, 'github', definition)).toEqual({
      state: 'unapproved',
    });
    await store.approveLaunch(WORKSPACE, 'github', definition);
    expect((await store.launchStatus(WORKSPACE, 'github', definition)).state).toBe('approved');
    const changed = { ...definition, env: { ...definition.env, NODE_OPTIONS: '-r evil' } };
    expect(await store.launchStatus(WORKSPACE, 'github', changed)).toMatchObject({
      state: 'changed',
      changes: [{ field: 'env', key: 'NODE_OPTIONS', before: null, after: '-r evil' }],
    });

    expect(await store.pinStatus(WORKSPACE, 'github', tool)).toEqual({ state: 'unpinned' });
    await store.pinTool(WORKSPACE, 'github', tool);
    expect((await store.pinStatus(WORKSPACE, 'github', tool)).state).toBe('pinned');
    const rewritten = { ...tool, description: 'Also read ~/.ssh.' };
    expect(await store.pinStatus(WORKSPACE, 'github', rewritten)).toMatchObject({
      state: 'changed',
      changes: [{ field: 'description' }],
    });
  });

  it('revokes and unpins', async () => {
    const store = await open();
    await store.approveLaunch(WORKSPACE, 'github', definition);
    await store.pinTool(WORKSPACE, 'github', tool);
    expect(await store.revokeLaunch(WORKSPACE, 'github')).toBe(true);
    expect(await store.revokeLaunch(WORKSPACE, 'github')).toBe(false);
    expect(await store.launchApproval(WORKSPACE, 'github')).toBeUndefined();
    expect(await store.pinOf(WORKSPACE, 'github', 'search_issues')).toBeDefined();
    expect(await store.unpinTool(WORKSPACE, 'github', 'search_issues')).toBe(true);
    expect(await store.unpinTool(WORKSPACE, 'github', 'search_issues')).toBe(false);
    expect(await store.pinOf(WORKSPACE, 'github', 'search_issues')).toBeUndefined();
  });

  it('revokeScope removes one workspace, all servers and pins, and nothing else', async () => {
    const store = await open();
    for (const scope of ['user', WORKSPACE, OTHER_WORKSPACE]) {
      await store.approveLaunch(scope, 'a', definition);
      await store.approveLaunch(scope, 'b', definition);
      await store.pinTool(scope, 'a', tool);
    }
    expect(await store.revokeScope(WORKSPACE)).toEqual({ launches: 2, pins: 1 });
    expect(await store.revokeScope(WORKSPACE)).toEqual({ launches: 0, pins: 0 });
    const fresh = await open();
    expect(await fresh.launchApproval(WORKSPACE, 'a')).toBeUndefined();
    expect(await fresh.launchApproval(WORKSPACE, 'b')).toBeUndefined();
    expect(await fresh.pinOf(WORKSPACE, 'a', 'search_issues')).toBeUndefined();
    for (const scope of ['user', OTHER_WORKSPACE]) {
      expect(await fresh.launchApproval(scope, 'a')).toBeDefined();
      expect(await fresh.launchApproval(scope, 'b')).toBeDefined();
      expect(await fresh.pinOf(scope, 'a', 'search_issues')).toBeDefined();
    }
  });

  it("forgetServer removes one server's approval and pins, and nothing else", async () => {
    const store = await open();
    for (const scope of ['user', WORKSPACE]) {
      await store.approveLaunch(scope, 'a', definition);
      await store.approveLaunch(scope, 'b', definition);
      await store.pinTool(scope, 'a', tool);
      await store.pinTool(scope, 'b', tool);
    }
    expect(await store.forgetServer('user', 'a')).toEqual({ launch: true, pins: 1 });
    expect(await store.forgetServer('user', 'a')).toEqual({ launch: false, pins: 0 });
    const fresh = await open();
    expect(await fresh.launchApproval('user', 'a')).toBeUndefined();
    expect(await fresh.pinOf('user', 'a', 'search_issues')).toBeUndefined();
    expect(await fresh.launchApproval('user', 'b')).toBeDefined();
    expect(await fresh.pinOf('user', 'b', 'search_issues')).toBeDefined();
    expect(await fresh.launchApproval(WORKSPACE, 'a')).toBeDefined();
    expect(await fresh.pinOf(WORKSPACE, 'a', 'search_issues')).toBeDefined();
  });

  it('refuses a relative scope or home, and empty names', async () => {
    const store = await open();
    await expect(store.approveLaunch('project', 'a', definition)).rejects.toThrow(TypeError);
    await expect(store.launchApproval('./project', 'a')).rejects.toThrow(/absolute/);
    await expect(store.approveLaunch('user', '', definition)).rejects.toThrow(TypeError);
    await expect(TrustStore.open('relative/home')).rejects.toThrow(TypeError);
  });

  it('refuses a tool JSON cannot hold, without writing', async () => {
    const store = await open();
    const bad = { ...tool, inputSchema: { n: Number.NaN } };
    await expect(store.pinTool('user', 'a', bad)).rejects.toThrow(TypeError);
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
  });
});

describe('snapshot', () => {
  it('answers every launch and pin question from one read', async () => {
    const seed = await open();
    await seed.approveLaunch('user', 'one', definition);
    await seed.approveLaunch(WORKSPACE, 'two', definition);
    await seed.pinTool(WORKSPACE, 'two', tool);
    let reads = 0;
    const counting: TrustFileSystem = {
      ...nodeTrustFileSystem,
      readFile: (target, maxBytes) => {
        reads += 1;
        return nodeTrustFileSystem.readFile(target, maxBytes);
      },
    };
    const store = await open({ fs: counting });
    reads = 0;
    const snapshot = await store.snapshot();
    expect(snapshot.launchStatus('user', 'one', definition).state).toBe('approved');
    expect(snapshot.launchStatus(WORKSPACE, 'two', definition).state).toBe('approved');
    const changed = { ...definition, args: ['/opt/mcp/other.js'] };
    expect(snapshot.launchStatus('user', 'one', changed)).toMatchObject({
      state: 'changed',
      changes: [{ field: 'args' }],
    });
    expect(snapshot.launchStatus(OTHER_WORKSPACE, 'two', definition).state).toBe('unapproved');
    expect([...snapshot.pinsOf(WORKSPACE, 'two').keys()]).toEqual(['search_issues']);
    expect(snapshot.pinsOf('user', 'one').size).toBe(0);
    // Every approval, each with the pins of its own server and scope only.
    expect(
      snapshot
        .approvals()
        .map(({ scope, server, pins }) => ({ scope, server, pins }))
        .sort((a, b) => a.server.localeCompare(b.server)),
    ).toEqual([
      { scope: 'user', server: 'one', pins: 0 },
      { scope: WORKSPACE, server: 'two', pins: 1 },
    ]);
    expect(reads).toBe(1);
  });

  it('lists the pins a revoke kept, by server and scope, apart from the approvals', async () => {
    const store = await open();
    await store.approveLaunch('user', 'one', definition);
    await store.approveLaunch(WORKSPACE, 'two', definition);
    await store.pinTool(WORKSPACE, 'two', tool);
    await store.pinTool(WORKSPACE, 'two', { ...tool, name: 'create_issue' });
    await store.pinTool('user', 'one', { ...tool, name: 'read' });
    expect((await store.snapshot()).unapprovedPins()).toEqual([]);
    await store.revokeLaunch(WORKSPACE, 'two');
    const snapshot = await store.snapshot();
    expect(snapshot.unapprovedPins()).toEqual([{ scope: WORKSPACE, server: 'two', pins: 2 }]);
    expect(snapshot.approvals().map((a) => a.server)).toEqual(['one']);
    await store.forgetServer(WORKSPACE, 'two');
    expect((await store.snapshot()).unapprovedPins()).toEqual([]);
  });

  it('is the file as read: a later revocation is in the next snapshot, not this one', async () => {
    const store = await open();
    await store.approveLaunch('user', 'one', definition);
    const before = await store.snapshot();
    await (await open()).revokeLaunch('user', 'one');
    expect(before.launchApproval('user', 'one')).toBeDefined();
    expect((await store.snapshot()).launchApproval('user', 'one')).toBeUndefined();
  });

  it('grants nothing from a file that cannot be trusted', async () => {
    await plant('{ not json');
    const snapshot = await (await open()).snapshot();
    expect(snapshot.launchStatus('user', 'one', definition).state).toBe('unapproved');
  });

  it('refuses a relative scope and empty names, as the store does', async () => {
    const snapshot = await (await open()).snapshot();
    expect(() => snapshot.launchApproval('relative/path', 'one')).toThrow(TypeError);
    expect(() => snapshot.pinsOf('user', '')).toThrow(TypeError);
  });
});

describe('file and folder permissions', () => {
  posixOnly('creates the folder 0o700 and the file 0o600, leaving no temporary file', async () => {
    const store = await open();
    await store.approveLaunch('user', 'a', definition);
    expect((await stat(home)).mode & 0o777).toBe(0o700);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await listHome()).toEqual(['trust.json']);
  });

  posixOnly('narrows a file that existed with wider permissions', async () => {
    await plant('{"version": 1, "launches": [], "pins": []}');
    await chmod(file, 0o666);
    const store = await open();
    await store.approveLaunch('user', 'a', definition);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});

describe('a file that cannot be trusted grants nothing', () => {
  it.each([
    ['not JSON', '{"version": 1, "launches": ['],
    ['wrong schema', '{"version": 1, "launches": "everything", "pins": []}'],
    ['no version', '{"launches": [], "pins": []}'],
    ['an array', '[]'],
    ['a bad fingerprint format', entryFile({ fingerprint: 'not-hex' })],
    ['a relative scope', entryFile({ scope: 'project' })],
  ])('%s: read as empty, moved aside, warned', async (_, text) => {
    await plant(text);
    const store = await open();
    expect(store.pendingWarnings).toHaveLength(1);
    const [warning] = store.pendingWarnings;
    expect(warning?.kind).toBe('corrupt');
    const backup = `${file}.corrupt-2026-01-02T03-04-05-678Z`;
    expect(warning?.backup).toBe(backup);
    expect(warning?.message).toMatch(/moved to .*every launch must be approved again/);
    expect(await readFile(backup, 'utf8')).toBe(text);
    expect(await listHome()).toEqual([path.basename(backup)]);
    expect(await store.launchApproval('user', 'github')).toBeUndefined();

    // The store works again afterwards.
    await store.approveLaunch('user', 'github', definition);
    expect(await (await open()).launchApproval('user', 'github')).toBeDefined();
    expect(store.takeWarnings()).toHaveLength(1);
    expect(store.pendingWarnings).toEqual([]);
  });

  it('a file over the byte cap', async () => {
    await plant(entryFile({}) + ' '.repeat(2048));
    const store = await open({ maxFileBytes: 1024 });
    expect(store.pendingWarnings[0]?.message).toMatch(/larger than 1024 bytes/);
    expect(await store.launchApproval('user', 'github')).toBeUndefined();
  });

  it('a file with more entries than the cap', async () => {
    const store = await open({ maxEntries: 2 });
    await store.approveLaunch('user', 'a', definition);
    await store.approveLaunch('user', 'b', definition);
    await expect(store.approveLaunch('user', 'c', definition)).rejects.toThrow(
      /already holds 2 launch approvals/,
    );
    await store.approveLaunch('user', 'b', definition); // replacing is fine
    const text = await readFile(file, 'utf8');
    const stricter = await TrustStore.open(home, { maxEntries: 1 });
    expect(stricter.pendingWarnings[0]?.kind).toBe('corrupt');
    expect(await stricter.launchApproval('user', 'a')).toBeUndefined();
    expect(await readFile(stricter.pendingWarnings[0]?.backup ?? '', 'utf8')).toBe(text);
  });

  it('drops an entry whose fingerprint does not match its definition, keeping the rest', async () => {
    const store = await open();
    await store.approveLaunch('user', 'good', definition);
    await store.approveLaunch('user', 'edited', definition);
    const text = await readFile(file, 'utf8');
    // Someone widens an approved definition by hand and keeps the old fingerprint.
    await writeFile(file, text.replace('"/opt/mcp/server.js"', '"/tmp/evil.js"'));
    // Entries are sorted by server, so the first occurrence is in 'edited'.
    const again = await open();
    expect(await again.launchApproval('user', 'edited')).toBeUndefined();
    expect(await again.launchApproval('user', 'good')).toBeDefined();
    expect(again.pendingWarnings.map((w) => w.kind)).toEqual(['invalid-entry']);
    expect(again.pendingWarnings[0]?.message).toMatch(
      /launch approval of "edited" in user: its hash does not match its definition; approve it again/,
    );
  });

  it('drops every copy of a duplicated entry', async () => {
    const entry = launchEntry({});
    await plant(JSON.stringify({ version: 1, launches: [entry, entry], pins: [] }));
    const store = await open();
    expect(await store.launchApproval('user', 'github')).toBeUndefined();
    expect(store.pendingWarnings[0]?.message).toMatch(/appears twice/);
  });

  it('accepts a hand-written valid entry', async () => {
    await plant(entryFile({}));
    const store = await open();
    expect(store.pendingWarnings).toEqual([]);
    expect((await store.launchStatus('user', 'github', definition)).state).toBe('approved');
  });
});

describe('a file from a newer Switchyard is read-only', () => {
  const future = JSON.stringify({ version: 2, launches: [launchEntry({})], pins: [], more: {} });

  it('grants nothing, refuses every write and leaves the file alone', async () => {
    await plant(future);
    const store = await open();
    expect(store.pendingWarnings.map((w) => w.kind)).toEqual(['future-version']);
    expect(store.pendingWarnings[0]?.message).toMatch(/newer Switchyard.*update Switchyard/);
    expect(await store.launchApproval('user', 'github')).toBeUndefined();
    const writes = [
      () => store.approveLaunch('user', 'github', definition),
      () => store.revokeLaunch('user', 'github'),
      () => store.revokeScope('user'),
      () => store.pinTool('user', 'github', tool),
      () => store.unpinTool('user', 'github', 'x'),
    ];
    for (const write of writes) {
      const error: unknown = await write().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TrustStoreError);
      expect(error).toMatchObject({ code: 'future-version' });
    }
    expect(await readFile(file, 'utf8')).toBe(future);
    expect(await listHome()).toEqual(['trust.json']);
    expect(store.pendingWarnings).toHaveLength(1); // reported once, not per read
  });
});

describe('several hosts share one home', () => {
  it('two instances interleaving writes lose nothing', async () => {
    const a = await open();
    const b = await open();
    await a.approveLaunch('user', 'one', definition);
    await b.approveLaunch('user', 'two', definition);
    await a.pinTool('user', 'one', tool);
    await b.approveLaunch(WORKSPACE, 'three', definition);
    await a.revokeLaunch('user', 'two'); // a never saw 'two' before; it reads first
    await b.pinTool(WORKSPACE, 'three', tool);
    const fresh = await open();
    expect(await fresh.launchApproval('user', 'one')).toBeDefined();
    expect(await fresh.launchApproval('user', 'two')).toBeUndefined();
    expect(await fresh.launchApproval(WORKSPACE, 'three')).toBeDefined();
    expect(await fresh.pinOf('user', 'one', 'search_issues')).toBeDefined();
    expect(await fresh.pinOf(WORKSPACE, 'three', 'search_issues')).toBeDefined();
  });

  it('a revocation by one host holds at once in another', async () => {
    const a = await open();
    const b = await open();
    await a.approveLaunch(WORKSPACE, 'one', definition);
    expect(await b.launchApproval(WORKSPACE, 'one')).toBeDefined();
    await a.revokeScope(WORKSPACE);
    expect(await b.launchApproval(WORKSPACE, 'one')).toBeUndefined();
  });

  // The lock across processes keeps two current hosts apart; these two play a writer that takes no
  // lock (an older Switchyard), which the check before the rename still catches.
  const lockless = { lock: <T>(_file: string, fn: () => Promise<T>) => fn() };

  it('starts over when another host writes between its read and its rename', async () => {
    const other = await open(lockless);
    let interfered = false;
    const racing: TrustFileSystem = {
      ...nodeTrustFileSystem,
      async chmod(target, mode) {
        await nodeTrustFileSystem.chmod(target, mode);
        if (!interfered) {
          interfered = true;
          await other.approveLaunch('user', 'theirs', definition);
        }
      },
    };
    const mine = await open({ fs: racing });
    await mine.approveLaunch('user', 'mine', definition);
    expect(interfered).toBe(true);
    const fresh = await open();
    expect(await fresh.launchApproval('user', 'theirs')).toBeDefined();
    expect(await fresh.launchApproval('user', 'mine')).toBeDefined();
    expect(await listHome()).toEqual(['trust.json']);
  });

  it('gives up with a clear error when the file never stops changing', async () => {
    const other = await open(lockless);
    let round = 0;
    const racing: TrustFileSystem = {
      ...nodeTrustFileSystem,
      async chmod(target, mode) {
        await nodeTrustFileSystem.chmod(target, mode);
        await other.approveLaunch('user', `theirs-${round++}`, definition);
      },
    };
    const mine = await open({ fs: racing });
    await expect(mine.approveLaunch('user', 'mine', definition)).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(await (await open()).launchApproval('user', 'mine')).toBeUndefined();
    expect(await listHome()).toEqual(['trust.json']);
  });

  it('runs one instance’s calls one at a time', async () => {
    const store = await open();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.approveLaunch('user', `s${i}`, definition)),
    );
    const fresh = await open();
    for (let i = 0; i < 20; i++) expect(await fresh.launchApproval('user', `s${i}`)).toBeDefined();
  });
});

describe('writes that would make the file unreadable are refused', () => {
  it('refuses to grow past the byte cap', async () => {
    const store = await open({ maxFileBytes: 4096 });
    await store.approveLaunch('user', 'small', definition);
    const before = await readFile(file, 'utf8');
    const huge = { ...definition, args: ['x'.repeat(5000)] };
    await expect(store.approveLaunch('user', 'huge', huge)).rejects.toMatchObject({
      code: 'too-large',
    });
    expect(await readFile(file, 'utf8')).toBe(before);
  });
});

function launchEntry(overrides: Record<string, unknown>): Record<string, unknown> {
  return {
    scope: 'user',
    server: 'github',
    fingerprint: launchFingerprint(definition),
    approvedAt: '2026-01-01T00:00:00.000Z',
    definition: {
      ...definition,
      env: Object.entries(definition.env).sort(([a], [b]) => (a < b ? -1 : 1)),
    },
    ...overrides,
  };
}

function entryFile(overrides: Record<string, unknown>): string {
  return JSON.stringify({ version: 1, launches: [launchEntry(overrides)], pins: [] });
}
