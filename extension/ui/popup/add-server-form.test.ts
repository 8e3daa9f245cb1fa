import { describe, expect, it, test } from 'vitest';
import {
  EMPTY_ADD_SERVER_FIELDS,
  parseAddServerForm,
  parseEnvLines,
  parseHeaderLines,
  previewArgv,
  remoteOrigin,
  targetKind,
  transportChoice,
  type AddServerFields,
} from './add-server-form';

// The dangerous direction is a server added with a launch the user did not read: arguments that
// merge or split differently from the preview, an environment value that was trimmed or
// expanded, a half-quoted line that is added anyway; for a remote server, an address or header
// the host would refuse sent anyway, a command line read as a URL (or a URL as a program), or a
// header value quoted in an error. Refusing a form is loud and gets fixed.

function form(fields: Partial<AddServerFields>): AddServerFields {
  return { ...EMPTY_ADD_SERVER_FIELDS, ...fields };
}

describe('the command field', () => {
  it('splits the issue example into four arguments, nothing expanded', () => {
    const result = parseAddServerForm(
      form({
        name: 'files',
        target: 'npx -y @modelcontextprotocol/server-filesystem "/Users/me/My Documents"',
      }),
    );
    expect(result).toEqual({
      ok: true,
      params: {
        name: 'files',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/My Documents'],
      },
    });
  });

  it('keeps $VAR, ~ and globs as written', () => {
    const result = parseAddServerForm(form({ name: 'x', target: 'run $HOME ~ *.js' }));
    expect(result.ok && 'args' in result.params && result.params.args).toEqual([
      '$HOME',
      '~',
      '*.js',
    ]);
  });

  it("shows the parser's error for an unbalanced quote", () => {
    const result = parseAddServerForm(form({ name: 'x', target: 'node "server.js' }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.target).toMatch(/double quote at position 6/);
    expect(previewArgv('node "server.js')).toMatchObject({ ok: false });
  });

  test.each([
    ['empty', ''],
    ['only spaces', '   '],
    ['an empty program', '"" arg'],
  ])('refuses %s', (_, target) => {
    const result = parseAddServerForm(form({ name: 'x', target }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.target).toMatch(/program to run/);
  });

  it('previews the argv as chips', () => {
    expect(previewArgv(`node 'a b' ""`)).toEqual({ ok: true, argv: ['node', 'a b', ''] });
  });
});

describe('the name field', () => {
  test.each([
    ['empty', '', /Give the server a name/],
    ['surrounding space', ' x', /start or end with a space/],
    ['too long', 'a'.repeat(65), /at most 64/],
    ['an invisible character', 'git\u200bhub', /invisible/],
    ['reserved', '__proto__', /reserved/],
  ])('refuses %s', (_, name, message) => {
    const result = parseAddServerForm(form({ name, target: 'node s.js' }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.name).toMatch(message);
  });

  it('refuses a name already configured', () => {
    const result = parseAddServerForm(form({ name: 'github', target: 'x' }), ['github']);
    expect(result.ok ? undefined : result.errors.name).toMatch(/already exists/);
  });

  it('allows 64 characters of Unicode', () => {
    expect(parseAddServerForm(form({ name: 'é'.repeat(64), target: 'x' })).ok).toBe(true);
  });
});

describe('the environment field', () => {
  it('keeps values exactly as typed, including = and ${VAR}', () => {
    expect(parseEnvLines('TOKEN=${GITHUB_TOKEN}\n\n# a comment\n URL = a=b \r\nEMPTY=')).toEqual({
      ok: true,
      env: [
        ['TOKEN', '${GITHUB_TOKEN}'],
        ['URL', ' a=b '],
        ['EMPTY', ''],
      ],
    });
  });

  test.each([
    ['no =', 'A=1\nTOKEN', /Line 2 has no '='/],
    ['no name', '=value', /no name before/],
    ['a space in the name', 'MY KEY=1', /spaces or invisible/],
    ['a duplicate', 'A=1\nA=2', /Line 2 sets A a second time/],
    ['a reserved name', '__proto__=1', /reserved/],
    ['a NUL', 'A=a\u0000b', /NUL/],
  ])('refuses %s', (_, text, message) => {
    const result = parseEnvLines(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });

  it('sends env and cwd only when given', () => {
    const result = parseAddServerForm(
      form({ name: 'x', target: 'node s.js', env: 'A=1', cwd: ' /srv/app ' }),
    );
    expect(result).toEqual({
      ok: true,
      params: { name: 'x', command: 'node', args: ['s.js'], env: { A: '1' }, cwd: '/srv/app' },
    });
  });

  it('reports every bad field at once', () => {
    const result = parseAddServerForm(form({ name: '', target: "'", env: 'oops' }));
    expect(result.ok ? [] : Object.keys(result.errors).sort()).toEqual(['env', 'name', 'target']);
  });
});

describe('a URL or a command line', () => {
  test.each([
    ['an https URL', 'https://mcp.example.com/mcp', 'remote'],
    ['an http URL (refused later unless loopback)', 'http://example.com/mcp', 'remote'],
    ['surrounding space', '  https://mcp.example.com/mcp \n', 'remote'],
    ['upper-case scheme', 'HTTPS://MCP.EXAMPLE.COM/', 'remote'],
    ['credentials (refused later)', 'https://me:pw@example.com/', 'remote'],
    ['a command', 'npx -y @modelcontextprotocol/server-filesystem /tmp', 'local'],
    ['a Windows program path', 'C:\\tools\\server.exe --stdio', 'local'],
    ['another scheme', 'ftp://example.com/mcp', 'local'],
    ['a scheme alone', 'https://', 'local'],
    ['a program named like a host', 'mcp.example.com', 'local'],
    ['empty', '', 'local'],
  ])('%s is %s', (_, target, kind) => {
    expect(targetKind(target)).toBe(kind);
  });

  it('names the origin a URL sends data to, and none for a command', () => {
    expect(remoteOrigin(' https://mcp.example.com:8443/a/mcp?x=1 ')).toBe(
      'https://mcp.example.com:8443',
    );
    expect(remoteOrigin('node server.js')).toBeNull();
  });
});

describe('a remote server', () => {
  it('sends the URL as typed, no transport for Automatic, and the headers', () => {
    const result = parseAddServerForm(
      form({
        name: 'linear',
        target: ' https://mcp.linear.app/mcp ',
        headers: 'Authorization: Bearer ${LINEAR_TOKEN}\nX-Team=blue',
        // Fields of a command line, left from before the URL was pasted: not sent.
        env: 'A=1',
        cwd: '/srv',
      }),
    );
    expect(result).toEqual({
      ok: true,
      params: {
        name: 'linear',
        url: 'https://mcp.linear.app/mcp',
        headers: { Authorization: 'Bearer ${LINEAR_TOKEN}', 'X-Team': 'blue' },
      },
    });
  });

  test.each([
    ['http', 'http'],
    ['sse', 'sse'],
  ] as const)('sends transport %s when chosen', (transport, sent) => {
    const result = parseAddServerForm(
      form({ name: 'x', target: 'http://127.0.0.1:3000/mcp', transport }),
    );
    expect(result).toEqual({
      ok: true,
      params: { name: 'x', url: 'http://127.0.0.1:3000/mcp', transport: sent },
    });
  });

  test.each([
    ['auto', 'auto'],
    ['http', 'http'],
    ['sse', 'sse'],
    ['ws', 'auto'],
    ['', 'auto'],
  ])('reads the select value %j as %s', (value, choice) => {
    expect(transportChoice(value)).toBe(choice);
  });

  it('ignores headers and transport for a command line', () => {
    const result = parseAddServerForm(
      form({ name: 'x', target: 'node s.js', headers: 'oops', transport: 'sse' }),
    );
    expect(result).toEqual({ ok: true, params: { name: 'x', command: 'node', args: ['s.js'] } });
  });

  test.each([
    ['plain http over a network', 'http://mcp.example.com/mcp', /^The URL must use https:\/\//],
    ['plain http to a LAN address', 'http://192.168.1.20:3000/mcp', /must use https/],
    ['a user name and password', 'https://me:pw@mcp.example.com/', /user name or password/],
    ['a fragment', 'https://mcp.example.com/mcp#tools', /#fragment/],
    ['a space inside', 'https://mcp.example.com/m cp', /spaces/],
  ])('refuses %s, at the URL field', (_, target, message) => {
    const result = parseAddServerForm(form({ name: 'x', target }));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors.target).toMatch(message);
      expect(result.errors.target).toMatch(/\.$/);
    }
  });

  test.each([
    ['localhost', 'http://localhost:8080/mcp'],
    ['127.0.0.0/8', 'http://127.4.5.6/mcp'],
    ['[::1]', 'http://[::1]:8080/mcp'],
  ])('allows plain http to %s', (_, target) => {
    expect(parseAddServerForm(form({ name: 'x', target })).ok).toBe(true);
  });

  it('reports the name, URL and headers at once', () => {
    const result = parseAddServerForm(
      form({ name: '', target: 'http://example.com', headers: 'no separator' }),
    );
    expect(result.ok ? [] : Object.keys(result.errors).sort()).toEqual([
      'headers',
      'name',
      'target',
    ]);
  });
});

describe('the headers field', () => {
  it('reads Name: value and Name=value, values trimmed of spaces but otherwise as typed', () => {
    expect(
      parseHeaderLines(
        'Authorization: Bearer ${TOKEN}\n\n# a comment\r\nX-Key=a:b=c \nX-Url: https://x.test/a\nX-Empty:',
      ),
    ).toEqual({
      ok: true,
      headers: [
        ['Authorization', 'Bearer ${TOKEN}'],
        ['X-Key', 'a:b=c'],
        ['X-Url', 'https://x.test/a'],
        ['X-Empty', ''],
      ],
    });
  });

  const SECRET = 'sk-live-0123456789';
  test.each([
    ['no separator', `Authorization ${SECRET}`, /Line 1 has no ':'/],
    ['no name', `: ${SECRET}`, /Line 1: a header name cannot be empty/],
    ['a space in the name', `X Key: ${SECRET}`, /Line 1: a header name can only have/],
    ['a non-ASCII name', `Ünicode: ${SECRET}`, /can only have/],
    ['a header the transport sets', `Mcp-Session-Id: ${SECRET}`, /set by the transport/],
    ['a reserved name', `__proto__: ${SECRET}`, /reserved/],
    ['a control character', `X-A: ${SECRET}\u0000`, /line breaks or control characters/],
    ['a lone CR', `X-A: ${SECRET}\rHost: evil`, /line breaks/],
    ['a duplicate, case ignored', `X-A: 1\nx-a: ${SECRET}`, /Line 2 sets x-a a second time/],
    [
      'too many',
      Array.from({ length: 65 }, (_, i) => `X-${i}: ${SECRET}`).join('\n'),
      /At most 64/,
    ],
  ])('refuses %s, naming the line but never the value', (_, text, message) => {
    const result = parseHeaderLines(text);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toMatch(message);
      expect(result.error).not.toContain(SECRET);
    }
  });
});
