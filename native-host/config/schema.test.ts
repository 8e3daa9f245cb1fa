import { describe, expect, it, test } from 'vitest';
import {
  DEFAULT_HANDSHAKE_TIMEOUT_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  MAX_ARGS,
  MAX_ENV_VARS,
  ServerEntrySchema,
  UNSUPPORTED_TRANSPORT,
  serverNameProblem,
} from './schema';

// Dangerous direction: accepting an entry the host cannot run as written, or one meant for a
// remote transport. A wrongly accepted entry starts something the user did not mean; a wrongly
// rejected one is skipped with a warning that says what to change.

function issuesOf(entry: unknown) {
  const result = ServerEntrySchema.safeParse(entry);
  if (result.success) throw new Error(`expected ${JSON.stringify(entry)} to be rejected`);
  return result.error.issues;
}

describe('ServerEntrySchema resolves an entry', () => {
  it('applies defaults and keeps only known keys', () => {
    expect(
      ServerEntrySchema.parse({
        command: 'npx',
        alwaysAllow: ['x'],
        autoApprove: [],
        type: 'stdio',
      }),
    ).toStrictEqual({
      command: 'npx',
      args: [],
      env: {},
      handshakeTimeoutMs: DEFAULT_HANDSHAKE_TIMEOUT_MS,
      toolTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
      disabled: false,
    });
  });

  it('converts timeouts from seconds to milliseconds and keeps env unexpanded', () => {
    expect(
      ServerEntrySchema.parse({
        command: 'uvx',
        args: ['mcp-server-git'],
        env: { TOKEN: '${TOKEN}' },
        cwd: '/repo',
        prefix: 'git',
        timeout: 0.5,
        toolTimeout: 120,
        disabled: true,
      }),
    ).toStrictEqual({
      command: 'uvx',
      args: ['mcp-server-git'],
      env: { TOKEN: '${TOKEN}' },
      cwd: '/repo',
      prefix: 'git',
      handshakeTimeoutMs: 500,
      toolTimeoutMs: 120_000,
      disabled: true,
    });
  });
});

describe('ServerEntrySchema rejects', () => {
  test.each<[string, unknown, string, RegExp]>([
    ['no command', { args: [] }, 'command', /command is missing: give the program to run/],
    ['empty command', { command: '' }, 'command', /cannot be empty/],
    ['command not a string', { command: ['npx'] }, 'command', /command must be a string/],
    ['NUL in command', { command: 'np\u0000x' }, 'command', /NUL/],
    [
      'args not an array',
      { command: 'x', args: '-y foo' },
      'args',
      /args must be an array of strings/,
    ],
    ['non-string arg', { command: 'x', args: ['a', 2] }, 'args.1', /an argument must be a string/],
    ['NUL in an arg', { command: 'x', args: ['a\u0000'] }, 'args.0', /NUL/],
    [
      'too many args',
      { command: 'x', args: Array<string>(MAX_ARGS + 1).fill('a') },
      'args',
      /at most 256 args/,
    ],
    ['huge arg', { command: 'x', args: ['a'.repeat(32_768)] }, 'args.0', /at most 32767/],
    [
      'env not an object',
      { command: 'x', env: ['A=1'] },
      'env',
      /env must be an object of strings/,
    ],
    ['env value not a string', { command: 'x', env: { A: 1 } }, 'env.A', /must be a string/],
    ['env name with =', { command: 'x', env: { 'A=B': 'c' } }, 'env.A=B', /cannot contain '='/],
    [
      'env name __proto__',
      { command: 'x', env: JSON.parse('{"__proto__": "x"}') as unknown },
      'env.__proto__',
      /cannot be an env name/,
    ],
    [
      'too many env vars',
      {
        command: 'x',
        env: Object.fromEntries(Array.from({ length: MAX_ENV_VARS + 1 }, (_, i) => [`V${i}`, ''])),
      },
      'env',
      /at most 256 env/,
    ],
    ['empty cwd', { command: 'x', cwd: '' }, 'cwd', /cannot be empty/],
    ['prefix with a space', { command: 'x', prefix: 'my prefix' }, 'prefix', /letters, digits/],
    ['empty prefix', { command: 'x', prefix: '' }, 'prefix', /1-32/],
    [
      'timeout in milliseconds',
      { command: 'x', timeout: 30_000 },
      'timeout',
      /in seconds.*divide by 1000/,
    ],
    ['timeout as a string', { command: 'x', timeout: '30' }, 'timeout', /number of seconds/],
    ['zero timeout', { command: 'x', timeout: 0 }, 'timeout', /more than 0/],
    ['negative toolTimeout', { command: 'x', toolTimeout: -1 }, 'toolTimeout', /more than 0/],
    [
      'toolTimeout over an hour',
      { command: 'x', toolTimeout: 3601 },
      'toolTimeout',
      /at most 3600/,
    ],
    ['disabled as a string', { command: 'x', disabled: 'yes' }, 'disabled', /true or false/],
    ['not an object', 'npx server', '', /a server entry must be an object/],
    ['null', null, '', /a server entry must be an object/],
    ['array', [{ command: 'x' }], '', /a server entry must be an object/],
  ])('%s', (_label, entry, path, message) => {
    const [first] = issuesOf(entry);
    expect(first?.path.join('.')).toBe(path);
    expect(first?.message).toMatch(message);
  });

  const TOKEN_HEADER = { Authorization: 'Bearer ${TOKEN}' };
  test.each<[string, unknown, { transport: string; url: string }]>([
    [
      'type http (Claude Code, VS Code)',
      { type: 'http', url: 'https://example.com/mcp', headers: TOKEN_HEADER },
      { transport: 'streamable-http', url: 'https://example.com/mcp' },
    ],
    [
      'type sse',
      { type: 'sse', url: 'https://example.com/sse' },
      { transport: 'sse', url: 'https://example.com/sse' },
    ],
    [
      'url only (Cursor, Claude Desktop): inferred, with the SSE fallback',
      { url: 'https://example.com/mcp' },
      { transport: 'auto', url: 'https://example.com/mcp' },
    ],
    [
      'serverUrl (Windsurf)',
      { serverUrl: 'https://example.com/mcp' },
      { transport: 'auto', url: 'https://example.com/mcp' },
    ],
    [
      'httpUrl (Gemini CLI): Streamable HTTP',
      { httpUrl: 'https://example.com/mcp' },
      { transport: 'streamable-http', url: 'https://example.com/mcp' },
    ],
    [
      'transportType streamableHttp (Cline)',
      { transportType: 'streamableHttp', url: 'https://example.com/mcp' },
      { transport: 'streamable-http', url: 'https://example.com/mcp' },
    ],
    [
      'http to loopback',
      { type: 'http', url: 'http://127.0.0.1:8080/mcp' },
      { transport: 'streamable-http', url: 'http://127.0.0.1:8080/mcp' },
    ],
    [
      'http to localhost',
      { url: 'http://localhost:3001/sse', type: 'sse' },
      { transport: 'sse', url: 'http://localhost:3001/sse' },
    ],
  ])('accepts a remote entry: %s', (_label, entry, remote) => {
    const parsed = ServerEntrySchema.parse(entry);
    expect(parsed.remote).toMatchObject(remote);
    expect(parsed).toMatchObject({ command: '', args: [], env: {} });
  });

  it('carries a pre-registered OAuth client, its secret a reference', () => {
    const parsed = ServerEntrySchema.parse({
      url: 'https://example.com/mcp',
      oauth: { clientId: 'abc', clientSecret: '${S}' },
    });
    expect(parsed.remote?.oauth).toEqual({ clientId: 'abc', clientSecret: '${S}', scopes: [] });
    expect(ServerEntrySchema.parse({ url: 'https://example.com/mcp' }).remote).not.toHaveProperty(
      'oauth',
    );
  });

  it('keeps header values unexpanded and applies the shared fields', () => {
    const parsed = ServerEntrySchema.parse({
      type: 'http',
      url: 'https://example.com/mcp',
      headers: TOKEN_HEADER,
      prefix: 'ex',
      toolTimeout: 2,
      disabled: true,
    });
    expect(parsed.remote?.headers).toEqual(TOKEN_HEADER);
    expect(parsed).toMatchObject({ prefix: 'ex', toolTimeoutMs: 2000, disabled: true });
  });

  test.each<[string, unknown, string, RegExp]>([
    ['plain http over a network', { url: 'http://example.com/mcp' }, 'url', /must use https/],
    ['ftp', { url: 'ftp://example.com/mcp' }, 'url', /must start with https/],
    ['relative', { url: '/mcp' }, 'url', /absolute address/],
    ['credentials in the url', { url: 'https://u:p@example.com/' }, 'url', /user name or password/],
    ['a fragment', { url: 'https://example.com/mcp#x' }, 'url', /fragment/],
    ['a space', { url: 'https://example.com/m cp' }, 'url', /spaces/],
    ['serverUrl reported at its key', { serverUrl: 'http://example.com' }, 'serverUrl', /https/],
    ['type http without a url', { type: 'http' }, 'url', /url is missing/],
    ['command and url', { command: 'x', url: 'https://example.com' }, 'command', /not both/],
    [
      'a header with a line break',
      { url: 'https://example.com', headers: { 'X-A': 'a\r\nHost: evil' } },
      'headers.X-A',
      /line breaks/,
    ],
    [
      'a header name with a space',
      { url: 'https://example.com', headers: { 'X A': 'a' } },
      'headers.X A',
      /header name/,
    ],
    [
      'a transport header',
      { url: 'https://example.com', headers: { 'Mcp-Session-Id': 'a' } },
      'headers.Mcp-Session-Id',
      /set by the transport/,
    ],
    [
      'a header twice',
      { url: 'https://example.com', headers: { 'x-a': '1', 'X-A': '2' } },
      'headers',
      /twice/,
    ],
    ['args on a remote entry', { url: 'https://example.com', args: ['x'] }, 'args', /no meaning/],
    [
      'a literal client secret',
      { url: 'https://example.com', oauth: { clientId: 'a', clientSecret: 'hunter2' } },
      'oauth.clientSecret',
      /switchyard secret set/,
    ],
    ['env on a remote entry', { url: 'https://example.com', env: { A: 'b' } }, 'env', /no meaning/],
  ])('rejects a remote entry: %s', (_label, entry, path, message) => {
    const [first] = issuesOf(entry);
    expect(first?.path.join('.')).toBe(path);
    expect(first?.message).toMatch(message);
  });

  test.each<[string, unknown, string]>([
    ['type ws', { type: 'ws', url: 'wss://example.com' }, 'type'],
    ['type not a string', { type: 5, command: 'x' }, 'type'],
    ['transportType websocket (Cline)', { transportType: 'websocket', url: 'x' }, 'transportType'],
  ])('unsupported transport: %s', (_label, entry, path) => {
    const issues = issuesOf(entry);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      path: [path],
      params: { code: UNSUPPORTED_TRANSPORT },
      message: expect.stringMatching(/not supported: use "stdio"/) as unknown,
    });
  });

  it('accepts an explicit stdio entry that also carries a url', () => {
    expect(ServerEntrySchema.safeParse({ type: 'stdio', command: 'x', url: 'u' }).success).toBe(
      true,
    );
  });

  test.each([
    [600, true],
    [600.5, false],
  ])('timeout %d s accepted: %s', (timeout, ok) => {
    expect(ServerEntrySchema.safeParse({ command: 'x', timeout }).success).toBe(ok);
  });

  it('never resolves a positive timeout to 0 ms', () => {
    expect(ServerEntrySchema.parse({ command: 'x', timeout: 0.0001 }).handshakeTimeoutMs).toBe(1);
  });
});

describe('serverNameProblem', () => {
  // Dangerous direction: accepting a name that hides characters, since names appear on consent
  // cards and two names that look alike could pass one server off as another.
  test.each<[string, RegExp | undefined]>([
    ['github', undefined],
    ['my server', undefined],
    ['日本語', undefined],
    ['😀'.repeat(64), undefined], // 64 code points, 128 UTF-16 units
    ['a'.repeat(64), undefined],
    ['a'.repeat(65), /at most 64 characters \(this one has 65\)/],
    ['', /cannot be empty/],
    [' github', /start or end with a space/],
    ['github\n', /control or invisible/],
    ['git\u0000hub', /control or invisible/],
    ['git\u202ehub', /control or invisible/], // right-to-left override
    ['git\u200bhub', /control or invisible/], // zero-width space
    ['git\u2028hub', /control or invisible/], // line separator
    ['__proto__', /reserved/],
  ])('%j', (name, problem) => {
    const found = serverNameProblem(name);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(problem);
  });
});
