import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportSelection } from '../../protocol/import';
import { ConfigError } from '../config/load';
import { HostError } from '../shared/host-error';
import {
  ImportRefusal,
  ImportSourceFailure,
  ImportWriteFailure,
  applyImport,
  previewImport,
  defaultSources,
  type ImportEnvironment,
} from './importer';
import type { PlanItem } from './plan';
import type { ImportedEntry } from './types';
import { prepareImport } from './write-servers';

/**
 * Import against real files in a temporary home. Dangerous direction: writing anything when a
 * source is broken, when config.json is broken, or when a file changed since the preview.
 */

let root: string;
let environment: ImportEnvironment;
const written: { name: string; entry: ImportedEntry }[] = [];
const addServer = (name: string, entry: ImportedEntry): Promise<void> => {
  written.push({ name, entry });
  return Promise.resolve();
};

function write(relative: string, text: string): string {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

const cursor = JSON.stringify({
  mcpServers: {
    fetch: { command: 'uvx', args: ['mcp-server-fetch'] },
    memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
  },
});

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-importer-'));
  written.length = 0;
  environment = {
    platform: 'linux',
    homedir: path.join(root, 'home'),
    env: {},
    configFile: path.join(root, 'switchyard', 'config.json'),
  };
  write('home/.cursor/mcp.json', cursor);
  write('switchyard/config.json', JSON.stringify({ mcpServers: {} }));
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

async function selectionsFor(...clients: ('cursor' | 'zed')[]): Promise<ImportSelection[]> {
  const plan = await previewImport(defaultSources(clients, environment), environment);
  return plan.flatMap((source) =>
    source.items.flatMap((item: PlanItem) =>
      item.action === 'add'
        ? [{ source: source.client, name: item.name, digest: item.digest }]
        : [],
    ),
  );
}

describe('applyImport', () => {
  it('writes exactly the previewed entries, in order', async () => {
    const selections = await selectionsFor('cursor');
    const applied = await applyImport(selections, environment, addServer);
    expect(written.map((w) => w.name)).toEqual(['fetch', 'memory']);
    expect(written[0]?.entry).toEqual({ command: 'uvx', args: ['mcp-server-fetch'], env: {} });
    expect(applied.written.map((w) => w.server)).toEqual(['fetch', 'memory']);
  });

  it('writes nothing when a selected source became malformed', async () => {
    const selections = await selectionsFor('cursor');
    write('home/.config/zed/settings.json', '{"context_servers": {"a": {"command": "x"}}}');
    const zed = await selectionsFor('zed');
    write('home/.config/zed/settings.json', '{"context_servers": {');
    const caught = await applyImport([...selections, ...zed], environment, addServer).catch(
      (error: unknown) => error,
    );
    expect(caught).toBeInstanceOf(ImportSourceFailure);
    expect(caught instanceof Error ? caught.message : '').toContain('settings.json:1:');
    expect(written).toEqual([]);
  });

  it('writes nothing when an entry changed since the preview', async () => {
    const selections = await selectionsFor('cursor');
    write('home/.cursor/mcp.json', cursor.replace('mcp-server-fetch', 'evil-fetch'));
    const caught = await applyImport(selections, environment, addServer).catch((e: unknown) => e);
    expect(caught).toBeInstanceOf(ImportRefusal);
    expect(caught).toMatchObject({ kind: 'stale', entryName: 'fetch' });
    expect(written).toEqual([]);
  });

  it('writes nothing into a config.json broken by hand', async () => {
    const selections = await selectionsFor('cursor');
    write('switchyard/config.json', '{"mcpServers": {,}');
    await expect(applyImport(selections, environment, addServer)).rejects.toBeInstanceOf(
      ConfigError,
    );
    await expect(previewImport([], environment)).rejects.toBeInstanceOf(ConfigError);
    expect(written).toEqual([]);
  });

  it('never overwrites a server added since the preview', async () => {
    const selections = await selectionsFor('cursor');
    write(
      'switchyard/config.json',
      JSON.stringify({ mcpServers: { memory: { command: 'npx', args: ['other'] } } }),
    );
    const caught = await applyImport(selections, environment, addServer).catch((e: unknown) => e);
    expect(caught).toMatchObject({ kind: 'invalid', entryName: 'memory' });
    expect(written).toEqual([]);
  });

  it('says which entries were written when one write fails', async () => {
    const selections = await selectionsFor('cursor');
    const failing = (name: string, entry: ImportedEntry): Promise<void> =>
      name === 'memory' ? Promise.reject(new Error('disk full')) : addServer(name, entry);
    const caught = await applyImport(selections, environment, failing).catch((e: unknown) => e);
    expect(caught).toBeInstanceOf(ImportWriteFailure);
    expect(caught).toMatchObject({ message: "Writing 'memory' failed: disk full" });
    expect(caught instanceof ImportWriteFailure && caught.written.map((w) => w.server)).toEqual([
      'fetch',
    ]);
  });
});

describe('prepareImport', () => {
  const entry: ImportedEntry = { command: 'uvx', args: ['x'], env: { A: '1' }, disabled: true };

  it('writes a switched-off entry switched off, before it is approved', async () => {
    expect(await prepareImport(environment.configFile, 'x', entry)).toEqual({ replace: true });
    const config: unknown = JSON.parse(fs.readFileSync(environment.configFile, 'utf8'));
    expect(config).toEqual({
      mcpServers: { x: { command: 'uvx', args: ['x'], env: { A: '1' }, disabled: true } },
    });
  });

  it('leaves an enabled entry to the writer', async () => {
    const before = fs.readFileSync(environment.configFile, 'utf8');
    const enabled: ImportedEntry = { command: 'uvx', args: [], env: {} };
    expect(await prepareImport(environment.configFile, 'x', enabled)).toEqual({ replace: false });
    expect(fs.readFileSync(environment.configFile, 'utf8')).toBe(before);
  });

  it('refuses a name taken meanwhile', async () => {
    write('switchyard/config.json', JSON.stringify({ mcpServers: { x: { command: 'y' } } }));
    const caught = await prepareImport(environment.configFile, 'x', entry).catch((e: unknown) => e);
    expect(caught).toBeInstanceOf(HostError);
    expect(caught).toMatchObject({ reason: 'already-exists' });
  });
});
