import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostHarness, MEMORY_SERVER, makeHome, runCli as cli } from './host-harness';

// `switchyard import` and the import/* methods against the real bundle, with HOME pointing at a
// folder holding other clients' config files. Dangerous direction: writing (and approving)
// anything the preview did not show, or an imported server that still asks before it starts
// (then it was not recorded as written by Switchyard).

interface ServerView {
  name: string;
  provenance: string;
  command: string;
  args: string[];
  status: { state: string; consent?: unknown };
}

const MEMORY = { command: process.execPath, args: [MEMORY_SERVER] };

/** A home folder with Claude Desktop, Cursor and VS Code configs, as those clients write them. */
function clientHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'switchyard-import-home-'));
  const put = (relative: string, text: string) => {
    const file = join(home, relative);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  put(
    '.config/Claude/claude_desktop_config.json',
    JSON.stringify(
      {
        mcpServers: {
          memory: MEMORY,
          // Remote, but plain http to another machine: refused with the loader's own reason.
          linear: { url: 'http://mcp.linear.example/sse' },
        },
      },
      null,
      2,
    ),
  );
  put(
    '.cursor/mcp.json',
    JSON.stringify({
      mcpServers: {
        notes: { ...MEMORY, env: { MEMORY_FILE_PATH: '${env:NOTES_FILE}' } },
        // Taken in config.json by another server: a conflict, never overwritten.
        existing: { ...MEMORY, env: { FROM: 'cursor' } },
      },
    }),
  );
  put(
    '.config/Code/User/mcp.json',
    `{
  // VS Code user configuration
  "inputs": [{ "type": "promptString", "id": "key", "description": "API key", "password": true }],
  "servers": {
    "asks": { "type": "stdio", "command": "npx", "args": ["-y", "x"], "env": { "KEY": "\${input:key}" } },
  },
}`,
  );
  return home;
}

/** The environment of a CLI or host run with `home` as the user's home folder. */
function envFor(home: string, switchyardHome: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOME: home,
    USERPROFILE: home,
    SWITCHYARD_HOME: switchyardHome,
    // Defaults must come from HOME, not from the machine running the test.
    XDG_CONFIG_HOME: undefined,
    CLAUDE_CONFIG_DIR: undefined,
    CODEX_HOME: undefined,
    FLATPAK_XDG_CONFIG_HOME: undefined,
  };
}

const existingServer = { command: process.execPath, args: [MEMORY_SERVER, '--existing'] };

describe('switchyard import', () => {
  it('previews without writing, imports on --yes, and the host runs the imports without asking', async () => {
    const home = clientHome();
    const switchyardHome = makeHome({ mcpServers: { existing: existingServer } });
    const env = envFor(home, switchyardHome);
    const configBefore = readFileSync(join(switchyardHome, 'config.json'), 'utf8');

    const dry = cli(env, 'import', '--dry-run');
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toContain(`+ memory: ${process.execPath} ${MEMORY_SERVER}`);
    expect(dry.out).toContain('+ notes: ');
    expect(dry.out).toContain('(env: MEMORY_FILE_PATH)');
    expect(dry.out).toContain('x linear: cannot convert: url must use https://');
    expect(dry.out).toContain(
      '! existing: a different server named "existing" is already in config.json',
    );
    expect(dry.out).toContain('x asks: cannot convert: env KEY uses ${input:key}');
    expect(dry.out).toContain('Claude Code: ');
    expect(dry.out).toMatch(/Claude Code: .*: not found/);
    expect(dry.out).toContain('Dry run: nothing was written');
    expect(readFileSync(join(switchyardHome, 'config.json'), 'utf8')).toBe(configBefore);
    expect(existsSync(join(switchyardHome, 'trust.json'))).toBe(false);

    // Without a terminal and without --yes: nothing is written.
    const refused = cli(env, 'import');
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('no terminal to ask (pass --yes to import)');
    expect(readFileSync(join(switchyardHome, 'config.json'), 'utf8')).toBe(configBefore);

    const applied = cli(env, 'import', '--yes');
    expect(applied.code, applied.err).toBe(0);
    expect(applied.out).toContain("Imported 'memory' from Claude Desktop.");
    expect(applied.out).toContain("Imported 'notes' from Cursor.");
    const config = JSON.parse(readFileSync(join(switchyardHome, 'config.json'), 'utf8')) as {
      mcpServers: Record<string, unknown>;
    };
    expect(config.mcpServers).toEqual({
      existing: existingServer,
      memory: MEMORY,
      // `${env:...}` stays as written: the host expands it at launch.
      notes: { ...MEMORY, env: { MEMORY_FILE_PATH: '${env:NOTES_FILE}' } },
    });

    const host = new HostHarness(switchyardHome, {
      env: { ...envFor(home, switchyardHome), NOTES_FILE: join(switchyardHome, 'notes.jsonl') },
    });
    try {
      await host.hello();
      const servers = (await host.settled()) as unknown as ServerView[];
      const byName = new Map(servers.map((s) => [s.name, s]));
      for (const name of ['memory', 'notes']) {
        expect(byName.get(name)?.provenance).toBe('user');
        expect(byName.get(name)?.status.state, JSON.stringify(byName.get(name))).toBe('running');
      }
      // The hand-written entry was not imported and still asks: import approved only its own.
      expect(byName.get('existing')?.status.state).toBe('needs-approval');
      const { tools } = await host.call<{ tools: Array<{ name: string }> }>('tools/list');
      expect(tools.map((t) => t.name)).toContain('notes__read_graph');

      // Importing again finds them configured: nothing to add.
      const again = await host.call<{
        sources: Array<{ source: string; entries: Array<{ name: string; action: string }> }>;
      }>('import/preview', { sources: ['claude-desktop', 'cursor'] });
      expect(again.sources.flatMap((s) => s.entries.map((e) => `${e.name}:${e.action}`))).toEqual([
        'memory:same',
        'linear:cannot-convert',
        'notes:same',
        'existing:conflict',
      ]);
    } finally {
      await host.close();
    }
  });

  it('refuses to import anything while a source file is broken', () => {
    const home = clientHome();
    writeFileSync(join(home, '.cursor', 'mcp.json'), '{"mcpServers": {"notes": {"command": "np');
    const switchyardHome = makeHome({ mcpServers: {} });
    const result = cli(envFor(home, switchyardHome), 'import', '--yes');
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/Cursor: cannot be read: .*mcp\.json:1:\d+: a string is not closed/);
    expect(result.err).toContain('nothing was imported, because');
    expect(JSON.parse(readFileSync(join(switchyardHome, 'config.json'), 'utf8'))).toEqual({
      mcpServers: {},
    });
    // The other clients can still be imported, by naming them.
    const chosen = cli(envFor(home, switchyardHome), 'import', '--from', 'claude-desktop', '--yes');
    expect(chosen.code, chosen.err).toBe(0);
    expect(chosen.out).toContain("Imported 'memory' from Claude Desktop.");
  });

  it('imports a project .mcp.json named with --file', () => {
    const home = clientHome();
    const project = mkdtempSync(join(tmpdir(), 'switchyard-import-project-'));
    writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { team: MEMORY } }));
    const switchyardHome = makeHome({ mcpServers: {} });
    const result = cli(
      envFor(home, switchyardHome),
      'import',
      '--file',
      join(project, '.mcp.json'),
      '--format',
      'claude-code',
      '--yes',
    );
    expect(result.code, result.err).toBe(0);
    expect(result.out).not.toContain('Cursor');
    const config = JSON.parse(readFileSync(join(switchyardHome, 'config.json'), 'utf8')) as {
      mcpServers: Record<string, unknown>;
    };
    expect(Object.keys(config.mcpServers)).toEqual(['team']);
  });
});

describe('import/preview and import/apply', () => {
  it('imports the entries the options page chose, exactly as previewed, and starts them', async () => {
    const home = clientHome();
    const switchyardHome = makeHome({ mcpServers: { existing: existingServer } });
    const host = new HostHarness(switchyardHome, {
      env: { ...envFor(home, switchyardHome), NOTES_FILE: join(switchyardHome, 'notes.jsonl') },
    });
    try {
      await host.hello();
      const preview = await host.call<{
        configFile: string;
        sources: Array<{
          source: string;
          state: string;
          entries: Array<{
            name: string;
            action: string;
            digest: string | null;
            suggestedName: string | null;
          }>;
        }>;
      }>('import/preview', {});
      expect(preview.configFile).toBe(join(switchyardHome, 'config.json'));
      expect(preview.sources.map((s) => `${s.source}:${s.state}`)).toEqual([
        'claude-desktop:found',
        'claude-code:missing',
        'cursor:found',
        'vscode:found',
        'windsurf:missing',
        'codex:missing',
        'zed:missing',
      ]);
      const cursor = preview.sources.find((s) => s.source === 'cursor');
      const notes = cursor?.entries.find((e) => e.name === 'notes');
      const existing = cursor?.entries.find((e) => e.name === 'existing');
      expect(existing).toMatchObject({ action: 'conflict', suggestedName: 'existing-cursor' });

      // A conflict without a new name is refused, and nothing is written.
      const refused = await host.request('import/apply', {
        entries: [{ source: 'cursor', name: 'existing', digest: existing?.digest }],
      });
      expect(refused.error?.data?.reason).toBe('invalid-params');

      // The file changes after the preview: the old digest no longer matches.
      const cursorFile = join(home, '.cursor', 'mcp.json');
      const original = readFileSync(cursorFile, 'utf8');
      writeFileSync(cursorFile, original.replace('${env:NOTES_FILE}', '/tmp/elsewhere'));
      const stale = await host.request('import/apply', {
        entries: [{ source: 'cursor', name: 'notes', digest: notes?.digest }],
      });
      expect(stale.error?.data?.reason).toBe('fingerprint-mismatch');
      writeFileSync(cursorFile, original);

      const applied = await host.call<{
        written: Array<{ source: string; name: string; server: string }>;
        unchanged: unknown[];
        servers: ServerView[];
      }>('import/apply', {
        entries: [
          { source: 'cursor', name: 'notes', digest: notes?.digest },
          {
            source: 'cursor',
            name: 'existing',
            as: existing?.suggestedName,
            digest: existing?.digest,
          },
        ],
      });
      expect(applied.written).toEqual([
        { source: 'cursor', name: 'notes', server: 'notes' },
        { source: 'cursor', name: 'existing', server: 'existing-cursor' },
      ]);
      expect(applied.servers.map((s) => [s.name, s.provenance])).toEqual([
        ['notes', 'user'],
        ['existing-cursor', 'user'],
      ]);
      const servers = (await host.settled()) as unknown as ServerView[];
      expect(servers.find((s) => s.name === 'notes')?.status.state).toBe('running');
      expect(servers.find((s) => s.name === 'existing-cursor')?.status.state).toBe('running');
      expect(servers.find((s) => s.name === 'existing')?.status.state).toBe('needs-approval');
    } finally {
      await host.close();
    }
  });
});
