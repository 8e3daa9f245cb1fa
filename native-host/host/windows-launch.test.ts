import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeTiers } from '../config/workspace';
import type { ServerLaunch } from '../shared/server-spec';
import {
  FILESYSTEM_JS,
  NODE_EXE,
  NODEJS,
  NPM_CLI,
  NPX_CLI,
  PREFIX,
  WIN_PATH,
  fakeWinFiles,
  winMachine,
} from '../testing/fake-win-files';
import { inMemoryLauncher } from '../testing/in-memory-launcher';
import { diffLaunch, launchFingerprint } from '../trust/fingerprint';
import { TrustStore } from '../trust/trust-store';
import { HostCore } from './core';
import { toSpec } from './setup';

// Banner (decision 0005, 0014): the dangerous direction is a fingerprint, a card or a spawn that
// differ from each other or from what runs. Pasted Windows entries (`npx`, `npm exec`, a global
// package's shim) must become node + script + args in all three, identically.

async function specOf(command: string, args: string[], files = winMachine()) {
  const [server] = mergeTiers([{ name: 'srv', command, args, env: {}, ...timeouts }], []).servers;
  if (server === undefined) throw new Error('not merged');
  return toSpec(server, WIN_PATH, 'win32', fakeWinFiles(files));
}
const timeouts = { handshakeTimeoutMs: 5_000, toolTimeoutMs: 5_000, disabled: false };

const MEMORY = ['-y', '@modelcontextprotocol/server-memory'];

const ROWS = [
  {
    name: 'npx -y pkg',
    command: 'npx',
    args: MEMORY,
    runs: [NODE_EXE, NPX_CLI, ...MEMORY],
    shim: { file: path.win32.join(NODEJS, 'npx.cmd'), kind: 'npm-cli' },
  },
  {
    name: 'npm exec -y pkg',
    command: 'npm',
    args: ['exec', ...MEMORY],
    runs: [NODE_EXE, NPM_CLI, 'exec', ...MEMORY],
    shim: { file: path.win32.join(NODEJS, 'npm.cmd'), kind: 'npm-cli' },
  },
  {
    name: 'npm x -y pkg',
    command: 'npm',
    args: ['x', ...MEMORY],
    runs: [NODE_EXE, NPM_CLI, 'x', ...MEMORY],
    shim: { file: path.win32.join(NODEJS, 'npm.cmd'), kind: 'npm-cli' },
  },
  {
    name: 'a global package bin',
    command: 'mcp-server-filesystem',
    args: ['C:\\Users\\ada\\notes'],
    runs: [NODE_EXE, FILESYSTEM_JS, 'C:\\Users\\ada\\notes'],
    shim: { file: path.win32.join(PREFIX, 'mcp-server-filesystem.cmd'), kind: 'cmd-shim' },
  },
] as const;

describe('toSpec on Windows: an npm shim becomes node + script + the entry args', () => {
  it.each(ROWS)('$name', async ({ command, args, runs, shim }) => {
    const spec = await specOf(command, [...args]);
    const [executable, ...argv] = runs;
    expect(spec.definition).toMatchObject({ executable, args: argv });
    // As written in the file: what the popup's command line and a reload compare.
    expect(spec).toMatchObject({ command, args, resolvedCommand: executable });
    expect(spec.shim).toEqual({ ...shim, prefixArgs: argv.slice(0, argv.length - args.length) });
  });

  it('the fingerprint is that of what runs: the same as node + script written by hand', async () => {
    const viaShim = await specOf('npx', MEMORY);
    const byHand = await specOf(NODE_EXE, [NPX_CLI, ...MEMORY]);
    expect(viaShim.definition).not.toBeNull();
    expect(byHand.definition).not.toBeNull();
    if (viaShim.definition === null || byHand.definition === null) return;
    expect(launchFingerprint(viaShim.definition)).toBe(launchFingerprint(byHand.definition));
    expect(launchFingerprint(viaShim.definition)).not.toBe(
      launchFingerprint({ ...viaShim.definition, executable: path.win32.join(NODEJS, 'npx.cmd') }),
    );
  });

  it('another node under the same shim is a change the card names', async () => {
    const before = await specOf('mcp-server-filesystem', []);
    const files = { ...winMachine(), [path.win32.join(PREFIX, 'node.exe')]: 'file' as const };
    const after = await specOf('mcp-server-filesystem', [], files);
    if (before.definition === null || after.definition === null) throw new Error('unresolved');
    expect(diffLaunch(before.definition, after.definition)).toEqual([
      { field: 'executable', before: NODE_EXE, after: path.win32.join(PREFIX, 'node.exe') },
    ]);
  });

  it('a shim that is refused has no definition and says why; nothing can be approved', async () => {
    const spec = await specOf('py-tool', []);
    expect(spec.definition).toBeNull();
    expect(spec.shim).toBeNull();
    expect(spec.resolutionError).toEqual({
      reason: 'unsupported-shim',
      message: expect.stringMatching(/runs '.*tool\.py' with 'python3'/) as unknown,
    });
  });
});

describe('HostCore on Windows: the consent card and the spawn carry the script', () => {
  it('shows node and the script on the card, and spawns exactly that once approved', async () => {
    const spec = await specOf('npx', MEMORY);
    const trust = await TrustStore.open(mkdtempSync(path.join(tmpdir(), 'switchyard-win-')));
    const launches: ServerLaunch[] = [];
    const { spawnServer } = inMemoryLauncher({
      tools: (launch) => {
        launches.push(launch);
        return [{ name: 'read_graph' }];
      },
    });
    const core = new HostCore({
      servers: [spec],
      spawnServer,
      clientInfo: { name: 'switchyard-test', version: '0' },
      trust,
      toolPolicy: [],
      events: { onServerChanged: () => {}, onToolsChanged: () => {}, onServerRemoved: () => {} },
    });
    await core.startAll();
    const [card] = core.pendingConsents();
    expect(card).toMatchObject({
      command: 'npx',
      executable: NODE_EXE,
      args: [NPX_CLI, ...MEMORY],
    });
    expect(launches).toEqual([]);

    await core.approveLaunch('srv', card?.fingerprint ?? '');
    expect(launches.map((l) => [l.executable, ...l.args])).toEqual([
      [NODE_EXE, NPX_CLI, ...MEMORY],
    ]);
    await core.shutdown();
  });
});
