import { describe, expect, it } from 'vitest';
import { launchFingerprint } from './fingerprint';
import type { LaunchDefinition } from '../shared/server-spec';
import { toolDefinitionHash } from './tool-pin';
import {
  emptyTrustState,
  launchKey,
  parseTrustFile,
  pinKey,
  serializeTrustFile,
  storableTool,
} from './trust-file';
import type { TrustState } from './trust-file';

// Dangerous direction: text that parses into a grant it does not hold. Anything unexpected in the
// file drops the entry or the whole file, never widens it.

const definition: LaunchDefinition = {
  executable: '/usr/bin/node',
  args: ['server.js'],
  env: { B: '2', A: '1' },
  cwd: null,
  provenance: 'user',
  workspaceRoot: null,
};

function stateWith(server: string, toolName: string): TrustState {
  const state = emptyTrustState();
  const tool = { name: toolName, description: 'd', inputSchema: { type: 'object' } };
  state.launches.set(launchKey('user', server), {
    scope: 'user',
    server,
    fingerprint: launchFingerprint(definition),
    definition,
    approvedAt: '2026-01-01T00:00:00.000Z',
  });
  state.pins.set(pinKey('user', server, toolName), {
    scope: 'user',
    server,
    hash: toolDefinitionHash(tool),
    tool,
    pinnedAt: '2026-01-01T00:00:00.000Z',
  });
  return state;
}

describe('trust file format', () => {
  it('round-trips names such as __proto__, with env as sorted pairs', () => {
    const text = serializeTrustFile(stateWith('__proto__', 'constructor'));
    expect(text).toContain('"env": [\n          [\n            "A",');
    const parsed = parseTrustFile(text);
    if (parsed.kind !== 'ok') throw new Error(`expected ok, got ${parsed.kind}`);
    expect(parsed.dropped).toEqual([]);
    expect(parsed.state.launches.get(launchKey('user', '__proto__'))?.definition).toEqual(
      definition,
    );
    expect(parsed.state.pins.get(pinKey('user', '__proto__', 'constructor'))?.tool.name).toBe(
      'constructor',
    );
    expect(serializeTrustFile(parsed.state)).toBe(text);
  });

  it('round-trips a remote definition, headers as sorted pairs with values unexpanded', () => {
    const remote: LaunchDefinition = {
      executable: 'https://mcp.example.com/mcp',
      args: [],
      env: {},
      cwd: null,
      provenance: 'workspace',
      workspaceRoot: '/home/ana/project',
      remote: {
        transport: 'auto',
        url: 'https://mcp.example.com/mcp',
        headers: { 'X-Tenant': 'acme', Authorization: 'Bearer ${TOKEN}' },
      },
    };
    const state = emptyTrustState();
    state.launches.set(launchKey('/home/ana/project', 'remote'), {
      scope: '/home/ana/project',
      server: 'remote',
      fingerprint: launchFingerprint(remote),
      definition: remote,
      approvedAt: '2026-01-01T00:00:00.000Z',
    });
    const text = serializeTrustFile(state);
    expect(text).toContain('"Bearer ${TOKEN}"');
    expect(text.indexOf('"Authorization"')).toBeLessThan(text.indexOf('"X-Tenant"'));
    const parsed = parseTrustFile(text);
    if (parsed.kind !== 'ok') throw new Error(`expected ok, got ${parsed.kind}`);
    expect(parsed.dropped).toEqual([]);
    const record = parsed.state.launches.get(launchKey('/home/ana/project', 'remote'));
    expect(record?.definition).toEqual(remote);
    expect(record?.definition.remote?.transport).toBe('auto');
    expect(serializeTrustFile(parsed.state)).toBe(text);
  });

  it('round-trips a pre-registered OAuth client, its secret as the reference', () => {
    const remote: LaunchDefinition = {
      executable: 'https://mcp.example.com/mcp',
      args: [],
      env: {},
      cwd: null,
      provenance: 'user',
      workspaceRoot: null,
      remote: {
        transport: 'streamable-http',
        url: 'https://mcp.example.com/mcp',
        headers: {},
        oauth: { clientId: 'Iv1.abc', clientSecret: '${GH_SECRET}', scopes: ['repo'] },
      },
    };
    const state = emptyTrustState();
    state.launches.set(launchKey('user', 'gh'), {
      scope: 'user',
      server: 'gh',
      fingerprint: launchFingerprint(remote),
      definition: remote,
      approvedAt: '2026-01-01T00:00:00.000Z',
    });
    const parsed = parseTrustFile(serializeTrustFile(state));
    if (parsed.kind !== 'ok') throw new Error(`expected ok, got ${parsed.kind}`);
    expect(parsed.dropped).toEqual([]);
    expect(parsed.state.launches.get(launchKey('user', 'gh'))?.definition).toEqual(remote);
  });

  it('round-trips the tool prefix a workspace file wrote, and drops an approval whose prefix was edited', () => {
    const local: LaunchDefinition = {
      ...definition,
      provenance: 'workspace',
      workspaceRoot: '/home/ana/project',
      toolPrefix: 'notes',
    };
    const state = emptyTrustState();
    state.launches.set(launchKey('/home/ana/project', 'notes'), {
      scope: '/home/ana/project',
      server: 'notes',
      fingerprint: launchFingerprint(local),
      definition: local,
      approvedAt: '2026-01-01T00:00:00.000Z',
    });
    const text = serializeTrustFile(state);
    const parsed = parseTrustFile(text);
    if (parsed.kind !== 'ok') throw new Error(`expected ok, got ${parsed.kind}`);
    expect(parsed.dropped).toEqual([]);
    expect(parsed.state.launches.get(launchKey('/home/ana/project', 'notes'))?.definition).toEqual(
      local,
    );
    expect(serializeTrustFile(parsed.state)).toBe(text);

    const edited = parseTrustFile(text.replace('"toolPrefix": "notes"', '"toolPrefix": "github"'));
    if (edited.kind !== 'ok') throw new Error(`expected ok, got ${edited.kind}`);
    expect(edited.state.launches.size).toBe(0);
    expect(edited.dropped).toEqual([
      'launch approval of "notes" in /home/ana/project: its hash does not match its definition',
    ]);
  });

  it('drops a remote approval whose stored URL was edited by hand', () => {
    const remote: LaunchDefinition = {
      ...definition,
      executable: 'https://mcp.example.com/mcp',
      args: [],
      env: {},
      remote: { transport: 'streamable-http', url: 'https://mcp.example.com/mcp', headers: {} },
    };
    const state = emptyTrustState();
    state.launches.set(launchKey('user', 'remote'), {
      scope: 'user',
      server: 'remote',
      fingerprint: launchFingerprint(remote),
      definition: remote,
      approvedAt: '2026-01-01T00:00:00.000Z',
    });
    const text = serializeTrustFile(state).replace(
      '"url": "https://mcp.example.com/mcp"',
      '"url": "https://evil.example/mcp"',
    );
    const parsed = parseTrustFile(text);
    if (parsed.kind !== 'ok') throw new Error(`expected ok, got ${parsed.kind}`);
    expect(parsed.state.launches.size).toBe(0);
    expect(parsed.dropped).toEqual([
      'launch approval of "remote" in user: its hash does not match its definition',
    ]);
  });

  it('keys cannot collide through a separator', () => {
    expect(launchKey('/a', 'b/c')).not.toBe(launchKey('/a/b', 'c'));
    expect(pinKey('user', 'a', 'b","c')).not.toBe(pinKey('user', 'a","b', 'c'));
  });

  it('drops a pin whose hash does not match its tool', () => {
    const text = serializeTrustFile(stateWith('github', 'search')).replace(
      '"description": "d"',
      '"description": "also exfiltrate"',
    );
    const parsed = parseTrustFile(text);
    if (parsed.kind !== 'ok') throw new Error(`expected ok, got ${parsed.kind}`);
    expect(parsed.state.pins.size).toBe(0);
    expect(parsed.state.launches.size).toBe(1);
    expect(parsed.dropped).toEqual([
      'pin of tool "search" of "github" in user: its hash does not match its definition',
    ]);
  });

  it.each([
    ['{}', /version/],
    ['{"version": 0, "launches": [], "pins": []}', /version/],
    ['{"version": 1.5, "launches": [], "pins": []}', /version/],
    ['{"version": 1, "launches": [{}], "pins": []}', /launches\.0/],
    ['{"version": 1, "launches": [], "pins": [], "x": 1}', null],
  ])('%s', (text, reason) => {
    const parsed = parseTrustFile(text);
    if (reason === null) {
      expect(parsed.kind).toBe('ok');
      return;
    }
    if (parsed.kind !== 'invalid') throw new Error(`expected invalid, got ${parsed.kind}`);
    expect(parsed.reason).toMatch(reason);
  });

  it('recognizes a newer format before checking its shape', () => {
    expect(parseTrustFile('{"version": 7, "whatever": true}')).toEqual({
      kind: 'future',
      version: 7,
    });
  });

  it('stores only the pinned parts of a tool, as plain JSON', () => {
    const listed = {
      name: 't',
      title: undefined,
      description: 'd',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object' },
    };
    const stored = storableTool(listed);
    expect(stored).toEqual({
      ok: true,
      tool: { name: 't', description: 'd', inputSchema: { type: 'object' } },
    });
  });
});
