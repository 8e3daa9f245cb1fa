import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LaunchError, type LaunchFn } from '../mcp/runtime-types';
import { TrustStore, nodeTrustFileSystem, type TrustFileSystem } from '../trust/trust-store';
import { HostCore } from './core';
import { LiveConfig } from './live-config';
import { loadSetup } from './setup';

// trust.json is written one call at a time per TrustStore instance; two instances in one host
// can lose each other's writes (a revocation undone by a concurrent `servers/add`). Dangerous
// direction: a live-config write that goes through a store of its own.

describe('LiveConfig', () => {
  it("writes approvals through the core's own trust store", async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sy-live-config-'));
    writeFileSync(path.join(home, 'config.json'), JSON.stringify({ mcpServers: {} }));
    const written: string[] = [];
    const fs: TrustFileSystem = {
      ...nodeTrustFileSystem,
      rename: async (from, to) => {
        written.push(to);
        await nodeTrustFileSystem.rename(from, to);
      },
    };
    const trust = await TrustStore.open(home, { fs });
    const env = { SWITCHYARD_HOME: home, PATH: path.dirname(process.execPath) };
    const setup = await loadSetup({ env, platform: process.platform });
    const spawnServer: LaunchFn = () => Promise.reject(new LaunchError('spawn-failed', 'test'));
    const core = new HostCore({
      servers: setup.specs,
      spawnServer,
      clientInfo: { name: 'test', version: '0' },
      trust,
      toolPolicy: setup.toolPolicy,
    });
    const live = new LiveConfig({
      env,
      platform: process.platform,
      core,
      initial: { ...setup, home, configFile: path.join(home, 'config.json') },
      log: () => undefined,
    });

    await live.addServer({ name: 'memory', command: process.execPath, args: ['memory.js'] });
    expect(written).toEqual([trust.file]);
    expect(await trust.launchApproval('user', 'memory')).toBeDefined();
    await live.removeServer('memory');
    expect(written).toEqual([trust.file, trust.file]);
    expect(await trust.launchApproval('user', 'memory')).toBeUndefined();
    await core.shutdown();
  });

  it('watches the workspace files of the folders in force, and stops when a folder is dropped', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sy-live-config-'));
    const repo = mkdtempSync(path.join(tmpdir(), 'sy-live-repo-'));
    const configFile = path.join(home, 'config.json');
    writeFileSync(configFile, JSON.stringify({ mcpServers: {}, workspaces: [repo, 'relative'] }));
    const env = { SWITCHYARD_HOME: home, PATH: path.dirname(process.execPath) };
    const setup = await loadSetup({ env, platform: process.platform });
    const core = new HostCore({
      servers: setup.specs,
      spawnServer: () => Promise.reject(new LaunchError('spawn-failed', 'test')),
      clientInfo: { name: 'test', version: '0' },
      trust: await TrustStore.open(home),
      toolPolicy: setup.toolPolicy,
    });
    const live = new LiveConfig({
      env,
      platform: process.platform,
      core,
      initial: { ...setup, home, configFile },
      log: () => undefined,
    });
    try {
      expect(live.watchedFiles()).toEqual([]);
      live.start();
      expect(live.watchedFiles().sort()).toEqual(
        [configFile, path.join(repo, '.mcp.json'), path.join(repo, '.vscode', 'mcp.json')].sort(),
      );
      // The folder leaves the configuration: its files are no longer watched.
      writeFileSync(configFile, JSON.stringify({ mcpServers: {} }));
      await live.addServer({ name: 'memory', command: process.execPath, args: ['memory.js'] });
      expect(live.watchedFiles()).toEqual([configFile]);
    } finally {
      live.close();
      expect(live.watchedFiles()).toEqual([]);
      await core.shutdown();
    }
  });
});
