import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerSummary } from '../../protocol/servers';
import type { RequestContext } from './dispatcher';
import { HostError } from '../shared/host-error';
import type { LiveConfig } from '../host/live-config';
import { importHandlers } from './import-handlers';
import { Cancellation } from '../shared/cancellation';

/**
 * import/preview and import/apply as the dispatcher calls them, with a fake `servers/add`
 * writer. Every refusal must carry a protocol reason and write nothing.
 */

let root: string;
let added: Parameters<LiveConfig['addServer']>[0][];
let failWith: Error | undefined;

const summary = (name: string): ServerSummary => ({
  name,
  provenance: 'user',
  workspaceRoot: null,
  disabled: false,
  apps: true,
  command: 'uvx',
  args: [],
  resolvedCommand: '/usr/bin/uvx',
  cwd: null,
  envKeys: [],
  remote: null,
  status: { state: 'stopped' },
  crashes: null,
  toolCount: 0,
  tokens: 0,
});

const context: RequestContext = {
  id: 1,
  cancellation: new Cancellation(),
  notify: () => undefined,
};

function handlers() {
  return importHandlers({
    home: path.join(root, 'switchyard'),
    homedir: path.join(root, 'home'),
    env: {},
    platform: 'linux',
    live: () => ({
      addServer: (params) => {
        if (failWith !== undefined) return Promise.reject(failWith);
        added.push(params);
        return Promise.resolve(summary(params.name));
      },
    }),
  });
}

function put(relative: string, text: string): void {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

async function refusal(run: Promise<unknown>): Promise<HostError> {
  const caught = await run.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (caught instanceof HostError) return caught;
  throw new Error(`expected a HostError, got ${String(caught)}`);
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-host-import-'));
  added = [];
  failWith = undefined;
  put(
    'home/.codex/config.toml',
    '[mcp_servers.time]\ncommand = "uvx"\nargs = ["mcp-server-time"]\n\n[mcp_servers.off]\ncommand = "uvx"\nenabled = false\n',
  );
  put('switchyard/config.json', '{"mcpServers": {}}');
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

async function digests(): Promise<Record<string, string>> {
  const preview = await handlers()['import/preview']({ sources: ['codex'] }, context);
  const entries = preview.sources[0]?.entries ?? [];
  return Object.fromEntries(entries.map((e) => [e.name, e.digest ?? '']));
}

describe('import/preview', () => {
  it('reads only the clients asked for, from their default files', async () => {
    const preview = await handlers()['import/preview']({ sources: ['codex', 'zed'] }, context);
    expect(preview.configFile).toBe(path.join(root, 'switchyard', 'config.json'));
    expect(preview.sources.map((s) => [s.source, s.state, s.path])).toEqual([
      ['codex', 'found', path.join(root, 'home', '.codex', 'config.toml')],
      ['zed', 'missing', path.join(root, 'home', '.config', 'zed', 'settings.json')],
    ]);
  });

  it('refuses with config-invalid when config.json is broken', async () => {
    put('switchyard/config.json', '{"mcpServers": ');
    const error = await refusal(handlers()['import/preview'](undefined, context));
    expect(error.reason).toBe('config-invalid');
    expect(error.message).toContain('Nothing was imported; fix the file');
  });
});

describe('import/apply', () => {
  it('writes through servers/add, a switched-off entry switched off first', async () => {
    const digest = await digests();
    const result = await handlers()['import/apply'](
      {
        entries: [
          { source: 'codex', name: 'time', digest: digest['time'] ?? '' },
          { source: 'codex', name: 'off', digest: digest['off'] ?? '' },
        ],
      },
      context,
    );
    expect(added).toEqual([
      { name: 'time', command: 'uvx', args: ['mcp-server-time'], env: {}, replace: false },
      // Written disabled before it is approved; the writer then replaces its launch fields.
      { name: 'off', command: 'uvx', args: [], env: {}, replace: true },
    ]);
    const config: unknown = JSON.parse(
      fs.readFileSync(path.join(root, 'switchyard', 'config.json'), 'utf8'),
    );
    // As the writer writes it (empty args and env left out), switched off.
    expect(config).toEqual({ mcpServers: { off: { command: 'uvx', disabled: true } } });
    expect(result.written.map((w) => w.server)).toEqual(['time', 'off']);
    expect(result.servers.map((s) => s.name)).toEqual(['time', 'off']);
  });

  it('writes a remote entry through servers/add as a url server, headers unexpanded', async () => {
    put(
      'home/.codex/config.toml',
      '[mcp_servers.figma]\nurl = "https://mcp.figma.com/mcp"\nbearer_token_env_var = "FIGMA_TOKEN"\n',
    );
    const digest = await digests();
    await handlers()['import/apply'](
      { entries: [{ source: 'codex', name: 'figma', digest: digest['figma'] ?? '' }] },
      context,
    );
    expect(added).toEqual([
      {
        name: 'figma',
        url: 'https://mcp.figma.com/mcp',
        transport: 'http',
        headers: { Authorization: 'Bearer ${FIGMA_TOKEN}' },
        replace: false,
      },
    ]);
  });

  it('answers fingerprint-mismatch for an entry that changed since the preview', async () => {
    const digest = await digests();
    put('home/.codex/config.toml', '[mcp_servers.time]\ncommand = "evil"\n');
    const error = await refusal(
      handlers()['import/apply'](
        { entries: [{ source: 'codex', name: 'time', digest: digest['time'] ?? '' }] },
        context,
      ),
    );
    expect(error.reason).toBe('fingerprint-mismatch');
    expect(error.details).toEqual({ source: 'codex', name: 'time' });
    expect(added).toEqual([]);
  });

  it('answers config-invalid, with the file and line, for a source that broke', async () => {
    const digest = await digests();
    put('home/.codex/config.toml', '[mcp_servers.time\n');
    const error = await refusal(
      handlers()['import/apply'](
        { entries: [{ source: 'codex', name: 'time', digest: digest['time'] ?? '' }] },
        context,
      ),
    );
    expect(error.reason).toBe('config-invalid');
    expect(error.details).toMatchObject({ source: 'codex', line: 1 });
    expect(error.details['file']).toBe(path.join(root, 'home', '.codex', 'config.toml'));
    expect(added).toEqual([]);
  });

  it('keeps the reason of a failed write and says what was written before it', async () => {
    const digest = await digests();
    failWith = new HostError('workspace-server', 'a workspace defines it', { server: 'time' });
    const error = await refusal(
      handlers()['import/apply'](
        { entries: [{ source: 'codex', name: 'time', digest: digest['time'] ?? '' }] },
        context,
      ),
    );
    expect(error.reason).toBe('workspace-server');
    expect(error.message).toContain('Nothing was imported.');
    expect(error.details).toEqual({ server: 'time', written: [] });
  });
});
