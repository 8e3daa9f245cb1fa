import { describe, expect, it, test } from 'vitest';
import type { ImportClient } from '../../protocol/import';
import { ServerEntrySchema } from '../config/schema';
import type { RemoteTransport } from '../shared/server-spec';
import { CLIENTS } from './clients';
import { unsupportedKeyReason } from './convert-remote';
import type { ConvertResult, ImportedEntry } from './types';

/**
 * Remote entries of every client, through the client's own converter. Dangerous direction: an
 * entry written with another address, transport or header meaning than the client had (a
 * variable no one expands, a sign-in step left out), or one the loader would refuse. Refusing
 * with a reason costs the user one `switchyard add --url`; a wrong entry is approved as written.
 */

const linux = { homedir: '/home/alex', platform: 'linux' as const };

/** One entry named "s" in a file of `client`, converted. */
function convertOne(client: ImportClient, entry: unknown): ConvertResult {
  const file = client === 'vscode' ? '/u/mcp.json' : '/u/config.json';
  const key = client === 'vscode' ? 'servers' : client === 'zed' ? 'context_servers' : 'mcpServers';
  return CLIENTS[client].convert(JSON.stringify({ [key]: { s: entry } }), file, linux);
}

function remote(
  transport: RemoteTransport,
  url: string,
  headers: Record<string, string> = {},
): ImportedEntry {
  return { remote: { transport, url, headers } };
}

/** What became of the one entry: the entry, or the reason it was refused. */
function outcome(result: ConvertResult): ImportedEntry | string {
  const [converted] = result.entries;
  if (converted !== undefined) return converted.entry;
  return result.problems.map((p) => p.reason).join(' | ');
}

describe('remote entries that convert', () => {
  test.each<[string, ImportClient, unknown, ImportedEntry]>([
    [
      'Claude Code "http"',
      'claude-code',
      { type: 'http', url: 'https://mcp.sentry.dev/mcp' },
      remote('streamable-http', 'https://mcp.sentry.dev/mcp'),
    ],
    [
      'Claude Code "sse" with a header read from the environment',
      'claude-code',
      { type: 'sse', url: 'https://x.example/sse', headers: { Authorization: 'Bearer ${TOKEN}' } },
      remote('sse', 'https://x.example/sse', { Authorization: 'Bearer ${TOKEN}' }),
    ],
    [
      'Claude Code "streamable-http"',
      'claude-code',
      { type: 'streamable-http', url: 'https://x.example/mcp' },
      remote('streamable-http', 'https://x.example/mcp'),
    ],
    [
      'Cursor "streamableHttp"',
      'cursor',
      { type: 'streamableHttp', url: 'https://x.example/mcp' },
      remote('streamable-http', 'https://x.example/mcp'),
    ],
    [
      'Cursor url without a type: either transport, as Cursor tries them',
      'cursor',
      { url: 'http://127.0.0.1:3845/sse' },
      remote('auto', 'http://127.0.0.1:3845/sse'),
    ],
    [
      'Cursor ${env:NAME} in a header: Switchyard reads it the same way',
      'cursor',
      { url: 'https://x.example/mcp', headers: { Authorization: 'Bearer ${env:FIGMA_TOKEN}' } },
      remote('auto', 'https://x.example/mcp', { Authorization: 'Bearer ${env:FIGMA_TOKEN}' }),
    ],
    [
      'VS Code "http" with a header',
      'vscode',
      {
        type: 'http',
        url: 'https://api.githubcopilot.com/mcp/',
        headers: { Authorization: 'Bearer ${env:GITHUB_TOKEN}' },
      },
      remote('streamable-http', 'https://api.githubcopilot.com/mcp/', {
        Authorization: 'Bearer ${env:GITHUB_TOKEN}',
      }),
    ],
    [
      'Windsurf serverUrl',
      'windsurf',
      { serverUrl: 'https://actions.zapier.com/mcp/sse', headers: { 'X-Key': '${env:ZAP}' } },
      remote('auto', 'https://actions.zapier.com/mcp/sse', { 'X-Key': '${env:ZAP}' }),
    ],
    [
      'Windsurf, switched off',
      'windsurf',
      { serverUrl: 'https://x.example/mcp', disabled: true },
      { ...remote('auto', 'https://x.example/mcp'), disabled: true },
    ],
    [
      'Gemini httpUrl (a --file read as Cursor): Streamable HTTP',
      'cursor',
      { httpUrl: 'https://x.example/mcp' },
      remote('streamable-http', 'https://x.example/mcp'),
    ],
    [
      'Cline transportType',
      'claude-desktop',
      { transportType: 'sse', url: 'https://x.example/sse' },
      remote('sse', 'https://x.example/sse'),
    ],
    [
      'Claude Desktop passes ${...} through as written',
      'claude-desktop',
      { url: 'https://x.example/mcp', headers: { 'X-Api-Key': '${API_KEY}' } },
      remote('auto', 'https://x.example/mcp', { 'X-Api-Key': '${API_KEY}' }),
    ],
    [
      'empty local fields are no obstacle',
      'claude-code',
      { type: 'http', url: 'https://x.example/mcp', env: {}, args: [] },
      remote('streamable-http', 'https://x.example/mcp'),
    ],
    [
      'Zed url and headers',
      'zed',
      { url: 'https://mcp.deepwiki.com/mcp', headers: { Authorization: 'Bearer ${T}' } },
      remote('auto', 'https://mcp.deepwiki.com/mcp', { Authorization: 'Bearer ${T}' }),
    ],
    [
      'Zed, switched off',
      'zed',
      { url: 'https://x.example/mcp', enabled: false },
      { ...remote('auto', 'https://x.example/mcp'), disabled: true },
    ],
  ])('%s', (_label, client, raw, expected) => {
    const result = convertOne(client, raw);
    expect(outcome(result)).toEqual(expected);
    // What is written loads as a remote server with the same endpoint.
    const written = result.entries[0]?.entry;
    if (written !== undefined && 'remote' in written) {
      const type = { 'streamable-http': 'http', sse: 'sse', auto: undefined }[
        written.remote.transport
      ];
      const loaded = ServerEntrySchema.parse({
        type,
        url: written.remote.url,
        headers: written.remote.headers,
        ...(written.remote.oauth === undefined ? {} : { oauth: written.remote.oauth }),
      });
      expect(loaded.remote).toEqual(written.remote);
    }
  });
});

describe("Claude Code's pre-registered OAuth client", () => {
  // Imported in the shape config.json reads; its secret stays in Claude Code's keychain, so the
  // notes say how to add one, and that a fixed callback port is not how Switchyard redirects.
  it('imports clientId and scopes, and says what is left to do', () => {
    const result = convertOne('claude-code', {
      type: 'http',
      url: 'https://x.example/mcp',
      oauth: { clientId: 'abc', callbackPort: 8080, scopes: 'repo read:org' },
    });
    const [converted] = result.entries;
    expect(converted?.entry).toEqual({
      remote: {
        transport: 'streamable-http',
        url: 'https://x.example/mcp',
        headers: {},
        oauth: { clientId: 'abc', scopes: ['repo', 'read:org'] },
      },
    });
    const notes = converted?.notes.join(' ') ?? '';
    expect(notes).toContain("'switchyard secret set NAME'");
    expect(notes).toContain('"callbackPort" is not imported');
    expect(notes).toContain('http://127.0.0.1/callback');
  });
});

describe('remote entries that are refused, with the reason', () => {
  test.each<[string, ImportClient, unknown, string]>([
    // The validator's own reasons (config/remote-entry.ts).
    [
      'plain http to another machine',
      'cursor',
      { url: 'http://mcp.example.com/mcp' },
      'url must use https:// unless the server is on this machine',
    ],
    [
      'plain http under Windsurf serverUrl',
      'windsurf',
      { serverUrl: 'http://mcp.example.com/mcp' },
      'url must use https://',
    ],
    [
      'credentials in the url',
      'claude-code',
      { type: 'http', url: 'https://me:secret@x.example/mcp' },
      'url cannot contain a user name or password',
    ],
    ['not a url', 'cursor', { url: 'mcp.example.com' }, 'url must be an absolute address'],
    ['a url that is not text', 'cursor', { url: 42 }, 'url must be a string'],
    [
      'a header name with a space',
      'cursor',
      { url: 'https://x.example/mcp', headers: { 'X Key': 'v' } },
      'headers["X Key"]: a header name can only have letters',
    ],
    [
      'CR/LF in a header value',
      'claude-code',
      { type: 'http', url: 'https://x.example/mcp', headers: { 'X-A': 'a\r\nX-B: b' } },
      'a header value cannot contain line breaks',
    ],
    [
      'a header the transport sets',
      'cursor',
      { url: 'https://x.example/mcp', headers: { 'Mcp-Session-Id': 'abc' } },
      'is set by the transport itself',
    ],
    [
      'headers that are not an object',
      'cursor',
      { url: 'https://x.example/mcp', headers: 'Authorization: x' },
      'headers must be an object of strings',
    ],
    [
      'env on a remote server',
      'claude-code',
      { type: 'http', url: 'https://x.example/mcp', env: { A: '1' } },
      'env has no meaning for a remote server',
    ],
    // The transport keys, read as config.json reads them.
    [
      'a transport Switchyard does not speak',
      'cursor',
      { type: 'ws', url: 'wss://x.example' },
      '"type" is "ws"; Switchyard connects to stdio',
    ],
    ['"http" without an address', 'claude-code', { type: 'http' }, 'url is missing'],
    [
      'a command and a url',
      'cursor',
      { command: 'npx', url: 'https://x.example/mcp' },
      'either a "command" (a local server) or a "url"',
    ],
    [
      'Zed command and url',
      'zed',
      { command: 'npx', url: 'https://x.example/mcp' },
      'it sets both "command" and "url"',
    ],
    // Variables Switchyard would not read as the client did.
    [
      'a VS Code input in a header',
      'vscode',
      { type: 'http', url: 'https://x.example/mcp', headers: { Authorization: '${input:tok}' } },
      'header Authorization uses ${input:tok}, a value VS Code asks you for',
    ],
    [
      'an environment variable in the url',
      'cursor',
      { url: 'https://${env:HOST}/mcp' },
      "url uses ${env:HOST}, and Switchyard does not expand variables in a remote server's url",
    ],
    [
      'Claude Code variable in the url',
      'claude-code',
      { type: 'http', url: 'https://x.example/${TEAM}/mcp' },
      "does not expand variables in a remote server's url",
    ],
    [
      'a bare ${NAME} in a Cursor header (Cursor reads it as its own variable)',
      'cursor',
      { url: 'https://x.example/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
      'which Cursor does not read from the environment (that would be ${env:TOKEN})',
    ],
    [
      'a workspace variable in a header',
      'vscode',
      { type: 'sse', url: 'https://x.example/sse', headers: { 'X-Dir': '${workspaceFolder}' } },
      'depends on the folder open in VS Code',
    ],
    // Sign-in and computed headers have no equivalent.
    [
      'Claude Code headersHelper',
      'claude-code',
      { type: 'http', url: 'https://x.example/mcp', headersHelper: '/bin/get-token' },
      'it gets its headers by running a program (headersHelper)',
    ],
    [
      'a literal client secret in oauth',
      'claude-code',
      { url: 'https://x.example/mcp', oauth: { clientId: 'abc', clientSecret: 'hunter2' } },
      'switchyard secret set',
    ],
    [
      'Cursor static OAuth',
      'cursor',
      { url: 'https://x.example/mcp', auth: { CLIENT_ID: 'a', CLIENT_SECRET: 'b' } },
      'auth sets up how Cursor signs in to the server',
    ],
  ])('%s', (_label, client, raw, reason) => {
    const result = convertOne(client, raw);
    expect(result.entries).toEqual([]);
    expect(outcome(result)).toContain(reason);
    expect(outcome(result)).toMatch(/^cannot convert: /);
  });

  it('names only the keys that sign in or compute headers', () => {
    expect(unsupportedKeyReason('alwaysAllow', 'Cline')).toBeUndefined();
    expect(unsupportedKeyReason('autoApprove', 'Cline')).toBeUndefined();
    expect(unsupportedKeyReason('timeout', 'Cline')).toBeUndefined();
    expect(unsupportedKeyReason('authProviderType', 'Gemini')).toContain('signs in');
    expect(unsupportedKeyReason('bearer_token', 'Codex')).toContain('credential');
  });

  it('never puts a header value in a reason', () => {
    const result = convertOne('cursor', {
      url: 'https://x.example/mcp',
      headers: { 'X Bad': 'sk-live-123', Authorization: 'Bearer sk-live-456\n' },
    });
    expect(outcome(result)).not.toContain('sk-live');
  });
});

describe('Codex remote tables', () => {
  const codex = (table: string): ConvertResult =>
    CLIENTS.codex.convert(`[mcp_servers.s]\n${table}\n`, '/c.toml', linux);

  test.each<[string, string, ImportedEntry | string]>([
    [
      'url only: Streamable HTTP, the only remote transport Codex has',
      'url = "https://mcp.figma.com/mcp"',
      remote('streamable-http', 'https://mcp.figma.com/mcp'),
    ],
    [
      'bearer_token_env_var: the token read from the environment at connect time',
      'url = "https://mcp.figma.com/mcp"\nbearer_token_env_var = "FIGMA_OAUTH_TOKEN"',
      remote('streamable-http', 'https://mcp.figma.com/mcp', {
        Authorization: 'Bearer ${FIGMA_OAUTH_TOKEN}',
      }),
    ],
    [
      'http_headers as written, env_http_headers from the environment',
      'url = "https://x.example/mcp"\nhttp_headers = { "X-Region" = "us" }\nenv_http_headers = { "X-Org" = "ORG_ID" }',
      remote('streamable-http', 'https://x.example/mcp', {
        'X-Region': 'us',
        'X-Org': '${ORG_ID}',
      }),
    ],
    [
      'enabled = false',
      'url = "https://x.example/mcp"\nenabled = false',
      { ...remote('streamable-http', 'https://x.example/mcp'), disabled: true },
    ],
    [
      'Authorization twice',
      'url = "https://x.example/mcp"\nbearer_token_env_var = "T"\nhttp_headers = { "authorization" = "Basic x" }',
      'the header "Authorization" is set twice (again by "bearer_token_env_var")',
    ],
    [
      'an inline bearer_token',
      'url = "https://x.example/mcp"\nbearer_token = "abc"',
      'bearer_token is a credential setting Switchyard does not read',
    ],
    [
      'OAuth settings',
      'url = "https://x.example/mcp"\n[mcp_servers.s.oauth]\nclient_id = "abc"',
      'oauth sets up how Codex signs in',
    ],
    [
      'env_http_headers naming something that is not a variable',
      'url = "https://x.example/mcp"\nenv_http_headers = { "X-Org" = "not a name" }',
      '"env_http_headers" must map each header to a variable name',
    ],
    [
      'bearer_token_env_var that is not a name',
      'url = "https://x.example/mcp"\nbearer_token_env_var = "${T}"',
      '"bearer_token_env_var" must be a variable name',
    ],
    [
      'plain http to another machine',
      'url = "http://mcp.example.com/mcp"',
      'url must use https://',
    ],
    [
      'a remote environment',
      'url = "https://x.example/mcp"\nenvironment_id = "cloud-dev"',
      'Codex runs it in the environment "cloud-dev"',
    ],
  ])('%s', (_label, table, expected) => {
    const result = outcome(codex(table));
    if (typeof expected === 'string') expect(result).toContain(expected);
    else expect(result).toEqual(expected);
  });

  it('notes the timeouts and tool lists it leaves out, and an ignored headers key', () => {
    const [entry] = codex(
      'url = "https://x.example/mcp"\nstartup_timeout_sec = 20\nenabled_tools = ["a"]\nheaders = { "X" = "y" }',
    ).entries;
    const notes = entry?.notes.join(' ') ?? '';
    expect(notes).toContain('startup_timeout_sec');
    expect(notes).toContain('enabled_tools');
    expect(notes).toContain('Codex ignores this key');
    expect(entry?.entry).toEqual(remote('streamable-http', 'https://x.example/mcp'));
  });
});
