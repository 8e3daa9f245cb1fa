import { Client } from '@modelcontextprotocol/client';
import { describe, expect, it, vi } from 'vitest';
import { LaunchError } from '../mcp/runtime-types';
import { type ServerLaunch } from '../shared/server-spec';
import { inMemoryLauncher } from './in-memory-launcher';

// The shared fake must keep the production launcher's contract, or tests built on it pass for
// a host that would fail in production: the dangerous direction is a fake that starts a server
// whose command was never resolved.

const LAUNCH: ServerLaunch = {
  name: 'notes',
  executable: '/usr/bin/fake',
  notFound: null,
  notFoundReason: 'command-not-found',
  command: 'fake',
  args: [],
  env: {},
  cwd: undefined,
  handshakeTimeoutMs: 5_000,
  toolTimeoutMs: 5_000,
  remote: null,
};

describe('inMemoryLauncher', () => {
  it('rejects an unresolved command with LaunchError, as production does, and launches nothing', async () => {
    const launcher = inMemoryLauncher();
    const unresolved = { ...LAUNCH, executable: null, notFound: "'fake' was not found." };
    await expect(launcher.spawnServer(unresolved)).rejects.toThrow(LaunchError);
    expect(launcher.launched).toEqual([]);
  });

  it('serves the given tools over the SDK, and counts pids from firstPid', async () => {
    const launcher = inMemoryLauncher({
      firstPid: 7,
      tools: (launch) => [
        {
          name: 'read',
          description: `read of ${launch.name}`,
          annotations: { readOnlyHint: true },
          call: () => ({ content: [{ type: 'text', text: 'done' }] }),
        },
      ],
    });
    const process = await launcher.spawnServer(LAUNCH);
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(process.transport);

    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, t.description, t.annotations])).toEqual([
      ['read', 'read of notes', { readOnlyHint: true }],
    ]);
    expect(await client.callTool({ name: 'read' })).toMatchObject({
      content: [{ type: 'text', text: 'done' }],
    });
    expect(process.pid).toBe(7);
    expect((await launcher.spawnServer(LAUNCH)).pid).toBe(8);
    expect(launcher.launched).toEqual(['notes', 'notes']);
    await client.close();
  });

  it('holds launches until released, oldest first', async () => {
    const launcher = inMemoryLauncher({ hold: true });
    const first = launcher.spawnServer({ ...LAUNCH, name: 'a' });
    const second = launcher.spawnServer({ ...LAUNCH, name: 'b' });
    await vi.waitFor(() => {
      expect(launcher.waiting).toBe(2);
    });
    expect(launcher.launched).toEqual([]);

    launcher.release();
    await first;
    expect(launcher.launched).toEqual(['a']);
    launcher.release();
    await second;
    expect(launcher.launched).toEqual(['a', 'b']);
    expect(launcher.waiting).toBe(0);
  });
});
