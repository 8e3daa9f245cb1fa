import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportSelection } from '../../protocol/import';
import { ConfigError } from '../config/load';
import { HostError } from '../shared/host-error';
import { loadSetup } from '../host/setup';
import { addUserServer } from '../host/user-servers';
import { TrustStore } from '../trust/trust-store';
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
import { newUserServer, prepareImport } from './write-servers';

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

describe('a remote entry, through the writer switchyard add uses', () => {
  const remoteCursor = JSON.stringify({
    mcpServers: {
      linear: {
        url: 'https://mcp.linear.app/mcp',
        headers: { Authorization: 'Bearer ${env:LINEAR_API_KEY}' },
      },
      staging: { url: 'http://staging.example.com/mcp' },
    },
  });
  const windsurf = JSON.stringify({
    mcpServers: { zapier: { serverUrl: 'https://actions.zapier.com/mcp/sse', disabled: true } },
  });

  /** Applies every `add` of the sources with the real writer, as `switchyard import` does. */
  async function importWithTrust(clients: ('cursor' | 'windsurf')[]) {
    const home = path.dirname(environment.configFile);
    const env = { SWITCHYARD_HOME: home };
    const trust = await TrustStore.open(home);
    const plan = await previewImport(defaultSources(clients, environment), environment);
    const selections = plan.flatMap((source) =>
      source.items.flatMap((item: PlanItem) =>
        item.action === 'add'
          ? [{ source: source.client, name: item.name, digest: item.digest }]
          : [],
      ),
    );
    await applyImport(selections, environment, async (name, entry) => {
      const { replace } = await prepareImport(environment.configFile, name, entry);
      await addUserServer(
        newUserServer(name, entry),
        { replace },
        { env, platform: 'linux', trust },
      );
    });
    const setup = await loadSetup({ env, platform: 'linux' });
    const gate = async (name: string) => {
      const spec = setup.specs.find((s) => s.name === name);
      if (spec?.definition == null) return 'not configured';
      return (await trust.launchStatus(spec.scope, spec.name, spec.definition)).state;
    };
    const config: unknown = JSON.parse(fs.readFileSync(environment.configFile, 'utf8'));
    return { plan, gate, config };
  }

  it('is written as switchyard add --url writes it, approved for exactly that endpoint', async () => {
    write('home/.cursor/mcp.json', remoteCursor);
    const { plan, gate, config } = await importWithTrust(['cursor']);
    expect(plan[0]?.items.map((i) => [i.name, i.action])).toEqual([
      ['linear', 'add'],
      ['staging', 'cannot-convert'],
    ]);
    // The refused entry is never written; the header value stays unexpanded.
    expect(config).toEqual({
      mcpServers: {
        linear: {
          url: 'https://mcp.linear.app/mcp',
          headers: { Authorization: 'Bearer ${env:LINEAR_API_KEY}' },
        },
      },
    });
    expect(await gate('linear')).toBe('approved');
  });

  it('a switched-off one stays switched off, approved', async () => {
    write('home/.codeium/windsurf/mcp_config.json', windsurf);
    const { gate, config } = await importWithTrust(['windsurf']);
    expect(config).toEqual({
      mcpServers: { zapier: { url: 'https://actions.zapier.com/mcp/sse', disabled: true } },
    });
    expect(await gate('zapier')).toBe('approved');
  });

  it('is the same as a remote server already in config.json with that endpoint', async () => {
    write('home/.cursor/mcp.json', remoteCursor);
    write(
      'switchyard/config.json',
      JSON.stringify({
        mcpServers: {
          linear: {
            url: 'https://mcp.linear.app/mcp',
            headers: { Authorization: 'Bearer ${env:LINEAR_API_KEY}' },
          },
        },
      }),
    );
    const [cursorPlan] = await previewImport(defaultSources(['cursor'], environment), environment);
    expect(cursorPlan?.items[0]).toMatchObject({ name: 'linear', action: 'same' });
    write(
      'switchyard/config.json',
      JSON.stringify({
        mcpServers: { linear: { type: 'sse', url: 'https://mcp.linear.app/mcp' } },
      }),
    );
    const [again] = await previewImport(defaultSources(['cursor'], environment), environment);
    expect(again?.items[0]).toMatchObject({ name: 'linear', action: 'conflict' });
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

  it('writes a switched-off remote entry as switchyard add --url would, switched off', async () => {
    const remote: ImportedEntry = {
      remote: { transport: 'sse', url: 'https://x.example/sse', headers: { A: '${A}' } },
      disabled: true,
    };
    expect(await prepareImport(environment.configFile, 'x', remote)).toEqual({ replace: true });
    const config: unknown = JSON.parse(fs.readFileSync(environment.configFile, 'utf8'));
    expect(config).toEqual({
      mcpServers: {
        x: { type: 'sse', url: 'https://x.example/sse', headers: { A: '${A}' }, disabled: true },
      },
    });
  });

  it('refuses a name taken meanwhile', async () => {
    write('switchyard/config.json', JSON.stringify({ mcpServers: { x: { command: 'y' } } }));
    const caught = await prepareImport(environment.configFile, 'x', entry).catch((e: unknown) => e);
    expect(caught).toBeInstanceOf(HostError);
    expect(caught).toMatchObject({ reason: 'already-exists' });
  });
});
