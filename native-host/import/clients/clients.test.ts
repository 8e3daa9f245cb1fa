import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, test } from 'vitest';
import type { ImportClient } from '../../../protocol/import';
import { ConfigError } from '../../config/load';
import { ServerEntrySchema } from '../../config/schema';
import { CLIENTS } from '../clients';
import type { RemoteTransport } from '../../shared/server-spec';
import { writtenEntry } from '../../host/written-entry';
import type { ConvertResult, ImportedEntry } from '../types';
import { newUserServer } from '../write-servers';

/**
 * Converters against realistic files of each client (fixtures/<client>/). The dangerous
 * direction is a wrong conversion that still converts: a command, argument or variable that means
 * something else once Switchyard runs it. An entry refused with a reason costs the user a manual
 * `switchyard add`; a silently wrong one runs the wrong thing with launch trust already granted.
 */

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const context = { homedir: '/home/alex', platform: 'linux' as const };

function convert(client: ImportClient, fixture: string): ConvertResult {
  const file = join(FIXTURES, fixture);
  return CLIENTS[client].convert(readFileSync(file, 'utf8'), file, context);
}

function entry(command: string, args: string[] = [], env: Record<string, string> = {}) {
  return { command, args, env };
}

function remote(
  transport: RemoteTransport,
  url: string,
  headers: Record<string, string> = {},
): ImportedEntry {
  return { remote: { transport, url, headers } };
}

interface Case {
  readonly client: ImportClient;
  readonly fixture: string;
  /** Every converted entry, in file order. */
  readonly entries: Record<string, ImportedEntry>;
  /** Every problem: server name (or '' for none) -> a part of its reason. */
  readonly problems: Record<string, string>;
}

const cases: Case[] = [
  {
    client: 'claude-desktop',
    fixture: 'claude-desktop/claude_desktop_config.json',
    entries: {
      filesystem: entry('npx', [
        '-y',
        '@modelcontextprotocol/server-filesystem',
        '/Users/alex/Desktop',
        '/Users/alex/My Documents',
      ]),
      github: entry(
        'docker',
        [
          'run',
          '-i',
          '--rm',
          '-e',
          'GITHUB_PERSONAL_ACCESS_TOKEN',
          'ghcr.io/github/github-mcp-server',
        ],
        // Kept as written: Switchyard expands it from its own environment at launch.
        { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}' },
      ),
      sqlite: entry('uvx', ['mcp-server-sqlite', '--db-path', '/Users/alex/test.db']),
      notes: entry('/home/alex/bin/notes-mcp'),
      // No type: the host tries Streamable HTTP, then SSE.
      linear: remote('auto', 'https://mcp.linear.app/sse'),
    },
    problems: {},
  },
  {
    client: 'claude-code',
    fixture: 'claude-code/claude.json',
    entries: {
      // User scope; the identical copy in the webshop project is not repeated.
      context7: entry('npx', ['-y', '@upstash/context7-mcp']),
      sentry: remote('streamable-http', 'https://mcp.sentry.dev/mcp'),
      'shop-tools': {
        ...entry('node', ['./tools/mcp/server.js'], {
          SHOP_ENV: 'dev',
          API_KEY: '${SHOP_API_KEY:-none}',
        }),
        cwd: '/home/alex/src/webshop',
      },
      // Header values kept as written: Switchyard expands ${SHOP_MCP_TOKEN} when connecting.
      'shop-api': remote('sse', 'https://mcp.shop.example.com/sse', {
        Authorization: 'Bearer ${SHOP_MCP_TOKEN}',
        'X-Shop': 'dev',
      }),
    },
    problems: {
      vault: 'it gets its headers by running a program (headersHelper)',
      staging: 'url must use https:// unless the server is on this machine',
      db: 'argument 4 uses ${DATABASE_URL}, and Switchyard expands variables only in "env" values',
      // The blog project's context7 is another version: never merged into the user's one.
      context7: 'another server named "context7" in this file (project "/home/alex/src/blog")',
    },
  },
  {
    client: 'claude-code',
    fixture: 'claude-code/project.mcp.json',
    entries: {
      playwright: entry('npx', ['@playwright/mcp@latest']),
      airtable: entry('npx', ['-y', 'airtable-mcp-server'], {
        AIRTABLE_API_KEY: '${AIRTABLE_API_KEY}',
      }),
    },
    problems: {},
  },
  {
    client: 'cursor',
    fixture: 'cursor/mcp.json',
    entries: {
      postgres: entry('npx', [
        '-y',
        '@modelcontextprotocol/server-postgres',
        'postgresql://localhost/mydb',
      ]),
      'brave-search': entry('npx', ['-y', '@modelcontextprotocol/server-brave-search'], {
        BRAVE_API_KEY: '${env:BRAVE_API_KEY}',
      }),
      notes: entry('node', ['/home/alex/mcp/notes/index.js']),
      // Plain http is allowed to this machine.
      figma: remote('auto', 'http://127.0.0.1:3845/sse'),
      linear: remote('auto', 'https://mcp.linear.app/mcp', {
        Authorization: 'Bearer ${env:LINEAR_API_KEY}',
      }),
    },
    problems: {
      'repo-tools': '${workspaceFolder}, which depends on the folder open in Cursor',
      secrets: '("envFile"), which Switchyard does not do',
      notion: 'auth sets up how Cursor signs in to the server',
    },
  },
  {
    client: 'vscode',
    fixture: 'vscode/mcp.json',
    entries: {
      memory: entry('npx', ['-y', '@modelcontextprotocol/server-memory']),
      github: remote('streamable-http', 'https://api.githubcopilot.com/mcp/', {
        Authorization: 'Bearer ${env:GITHUB_TOKEN}',
      }),
      fetch: { ...entry('uvx', ['mcp-server-fetch'], { LOG_LEVEL: '2' }), cwd: '/home/alex/tmp' },
    },
    problems: {
      perplexity:
        'env PERPLEXITY_API_KEY uses ${input:perplexity-key}, a value VS Code asks you for ("Perplexity API Key")',
      context7:
        'header CONTEXT7_API_KEY uses ${input:context7-key}, a value VS Code asks you for ("Context7 API key")',
    },
  },
  {
    client: 'windsurf',
    fixture: 'windsurf/mcp_config.json',
    entries: {
      git: {
        ...entry('uvx', ['mcp-server-git', '--repository', '/home/alex/src/webshop']),
        disabled: true,
      },
      slack: entry('npx', ['-y', '@modelcontextprotocol/server-slack'], {
        SLACK_BOT_TOKEN: '${env:SLACK_BOT_TOKEN}',
        SLACK_TEAM_ID: 'T01234567',
      }),
      zapier: remote('auto', 'https://actions.zapier.com/mcp/YOUR_MCP_KEY/sse'),
    },
    problems: {
      devbox: 'url must use https:// unless the server is on this machine',
      keys: '${file:/home/alex/.token}, which only Windsurf can work out',
    },
  },
  {
    client: 'codex',
    fixture: 'codex/config.toml',
    entries: {
      docs: entry('npx', ['-y', 'mcp-server'], { API_KEY: 'value' }),
      mingli: entry('uvx', ['mingli-mcp@1.0.1'], {
        TRANSPORT_TYPE: 'stdio',
        LOG_LEVEL: 'INFO',
        HTTPS_PROXY: '${HTTPS_PROXY}',
        NO_PROXY: '${NO_PROXY}',
      }),
      old: { ...entry('/opt/old/bin/server'), cwd: '/opt/old', disabled: true },
      // bearer_token_env_var and env_http_headers: read from the environment when connecting.
      figma: remote('streamable-http', 'https://mcp.figma.com/mcp', {
        Authorization: 'Bearer ${FIGMA_OAUTH_TOKEN}',
      }),
      linear: remote('streamable-http', 'https://mcp.linear.app/mcp', {
        'X-Linear-Team': 'ENG',
        'X-Linear-Key': '${LINEAR_API_KEY}',
      }),
    },
    problems: {
      notion: 'oauth sets up how Codex signs in to the server',
      cloudbox: 'Codex runs it in the environment "cloud-dev"',
    },
  },
  {
    client: 'zed',
    fixture: 'zed/settings.json',
    entries: {
      'mcp-local-server': entry('uv', ['run', '/home/alex/Dev/MCPs/mcp-local-server/main.py']),
      silverbullet: { ...entry('/home/alex/.local/bin/sb_mcp'), disabled: true },
      postgres: entry('/usr/local/bin/postgres-context-server', ['--stdio'], {
        DATABASE_URL: 'postgresql://localhost/app',
      }),
      deepwiki: remote('auto', 'https://mcp.deepwiki.com/mcp'),
      internal: {
        ...remote('auto', 'https://mcp.internal.example.com/mcp', {
          Authorization: 'Bearer ${INTERNAL_TOKEN}',
        }),
        disabled: true,
      },
    },
    problems: {
      'context7-mcp-server': 'a Zed extension provides this server',
      'github-mcp-server': 'a Zed extension provides this server',
    },
  },
];

describe('converters on real client files', () => {
  test.each(cases)('$client: $fixture', ({ client, fixture, entries, problems }) => {
    const result = convert(client, fixture);
    expect(Object.fromEntries(result.entries.map((e) => [e.name, e.entry]))).toEqual(entries);
    expect(result.entries.map((e) => e.name)).toEqual(Object.keys(entries));
    expect(result.problems).toHaveLength(Object.keys(problems).length);
    for (const [name, reason] of Object.entries(problems)) {
      const found = result.problems.filter((p) => (p.name ?? '') === name);
      expect(
        found.some((p) => p.reason.includes(reason)),
        `${name}: ${JSON.stringify(found)}`,
      ).toBe(true);
    }
  });

  test.each(cases)('$client: every converted entry, as written, loads the same', (c) => {
    for (const { name, entry: imported } of convert(c.client, c.fixture).entries) {
      const loaded = ServerEntrySchema.parse(writtenEntry(newUserServer(name, imported)));
      if ('remote' in imported) {
        expect(loaded.remote).toEqual(imported.remote);
      } else {
        expect(loaded.remote).toBeUndefined();
        expect(loaded.command).toBe(imported.command);
      }
    }
  });

  it('notes what it dropped or changed', () => {
    const windsurf = convert('windsurf', 'windsurf/mcp_config.json').entries;
    expect(windsurf.find((e) => e.name === 'slack')?.notes.join(' ')).toContain(
      'not imported: alwaysAllow, disabledTools',
    );
    const codex = convert('codex', 'codex/config.toml').entries;
    expect(codex.find((e) => e.name === 'linear')?.notes.join(' ')).toContain('tool_timeout_sec');
    const mingli = codex.find((e) => e.name === 'mingli')?.notes.join(' ');
    expect(mingli).toContain('startup_timeout_sec');
    expect(mingli).toContain('passes HTTPS_PROXY, NO_PROXY through');
    const vscode = convert('vscode', 'vscode/mcp.json').entries;
    expect(vscode.find((e) => e.name === 'fetch')?.notes.join(' ')).toContain('env PROXY is unset');
    const desktop = convert('claude-desktop', 'claude-desktop/claude_desktop_config.json').entries;
    expect(desktop.find((e) => e.name === 'notes')?.notes.join(' ')).toContain('"~"');
    const code = convert('claude-code', 'claude-code/claude.json').entries;
    expect(code.find((e) => e.name === 'shop-tools')?.notes.join(' ')).toContain(
      'runs in /home/alex/src/webshop',
    );
  });

  it('reads VS Code servers kept in settings.json under "mcp"', () => {
    const text = JSON.stringify({
      'editor.fontSize': 14,
      mcp: { servers: { time: { command: 'uvx', args: ['mcp-server-time'] } } },
    });
    const result = CLIENTS.vscode.convert(text, '/x/settings.json', context);
    expect(result.entries).toEqual([
      { name: 'time', entry: entry('uvx', ['mcp-server-time']), notes: [] },
    ]);
  });
});

describe('malformed files: a located error, nothing converted', () => {
  // Each throws ConfigError: applying an import reads sources first and writes nothing then.
  test.each<[ImportClient, string, string]>([
    [
      'cursor',
      'malformed/truncated.json',
      "truncated.json:5:59: a ']' is missing (the file may be cut off)",
    ],
    ['claude-desktop', 'malformed/servers-array.json', 'mcpServers: this must be an object'],
    ['vscode', 'malformed/root-array.json', 'the top level is not an object'],
    ['zed', 'malformed/empty.json', 'the file is empty'],
    ['codex', 'malformed/syntax-error.toml', 'syntax-error.toml:4:1: '],
    ['codex', 'malformed/truncated.json', 'The file is not valid TOML'],
  ])('%s %s', (client, fixture, message) => {
    expect(() => convert(client, fixture)).toThrow(ConfigError);
    expect(() => convert(client, fixture)).toThrow(message);
  });

  it('rejects a VS Code file whose servers are a list', () => {
    const text = '{"servers": [{"command": "npx"}]}';
    expect(() => CLIENTS.vscode.convert(text, '/u/mcp.json', context)).toThrow(
      '/u/mcp.json: servers: this must be an object',
    );
  });

  it('rejects a Codex file whose mcp_servers is not a table', () => {
    expect(() => CLIENTS.codex.convert('mcp_servers = 3\n', '/c.toml', context)).toThrow(
      'mcp_servers: this must be a table',
    );
  });

  it('converts the good entries of a file with bad ones and says why each bad one failed', () => {
    const result = convert('claude-desktop', 'malformed/wrong-types.json');
    expect(result.entries.map((e) => e.name)).toEqual(['ok', 'evil']);
    expect(result.entries[1]?.notes[0]).toBe(
      'named "  \\u{202e}evil\\u{200b}  " in Claude Desktop',
    );
    expect(result.problems).toEqual([
      { name: 'numeric-command', reason: 'cannot convert: "command" must be a string' },
      { name: 'args-string', reason: 'cannot convert: "args" must be a list of strings' },
      { name: 'env-list', reason: 'cannot convert: "env" must be an object of strings' },
      { name: 'nul', reason: 'cannot convert: command cannot contain a NUL character' },
      { name: 'not-an-object', reason: 'cannot convert: the entry is not an object' },
      {
        reason:
          'the server named "__proto__" cannot be imported ("__proto__" is reserved; choose another name); rename it in Claude Desktop',
      },
    ]);
  });
});
