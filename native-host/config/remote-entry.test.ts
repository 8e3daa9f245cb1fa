import { describe, expect, test } from 'vitest';
import {
  MAX_HEADER_NAME_CHARS,
  MAX_HEADER_VALUE_CHARS,
  MAX_HEADERS,
  MAX_URL_CHARS,
  headerNameProblem,
  headerValueProblem,
  isLoopbackHost,
  originOf,
  remoteUrlProblem,
} from '../../protocol/remote-url';
import { HeadersSchema, UrlSchema, readTransport, type TransportReading } from './remote-entry';

// Dangerous direction: plain http accepted to a host that is not this machine (a token in clear on
// the network), a header value that splits the request, or an entry read as a different
// transport than the client that wrote it meant. Refusing an odd but harmless entry only costs an
// edit.

describe('readTransport', () => {
  // Every shape another client writes, pasted unchanged.
  test.each<[string, Record<string, unknown>, TransportReading]>([
    ['Claude Desktop stdio', { command: 'npx', args: ['x'] }, { kind: 'stdio' }],
    ['explicit stdio', { type: 'stdio', command: 'npx' }, { kind: 'stdio' }],
    [
      'stdio with a url ignores the url',
      { type: 'stdio', command: 'npx', url: 'https://x.example' },
      { kind: 'stdio' },
    ],
    [
      'Claude Code type http',
      { type: 'http', url: 'https://mcp.example.com/mcp' },
      { kind: 'remote', transport: 'streamable-http', urlKey: 'url' },
    ],
    [
      'VS Code type sse',
      { type: 'sse', url: 'https://old.example.com/sse' },
      { kind: 'remote', transport: 'sse', urlKey: 'url' },
    ],
    [
      'type streamable-http',
      { type: 'streamable-http', url: 'https://x.example/mcp' },
      { kind: 'remote', transport: 'streamable-http', urlKey: 'url' },
    ],
    [
      'type streamable_http',
      { type: 'streamable_http', url: 'https://x.example/mcp' },
      { kind: 'remote', transport: 'streamable-http', urlKey: 'url' },
    ],
    [
      'Cline transportType streamableHttp',
      { transportType: 'streamableHttp', url: 'https://x.example/mcp' },
      { kind: 'remote', transport: 'streamable-http', urlKey: 'url' },
    ],
    [
      'Cline transportType sse',
      { transportType: 'sse', url: 'https://x.example/sse' },
      { kind: 'remote', transport: 'sse', urlKey: 'url' },
    ],
    [
      'Cursor bare url is auto',
      { url: 'https://mcp.example.com/mcp' },
      { kind: 'remote', transport: 'auto', urlKey: 'url' },
    ],
    [
      'Windsurf serverUrl is auto',
      { serverUrl: 'https://mcp.example.com/mcp' },
      { kind: 'remote', transport: 'auto', urlKey: 'serverUrl' },
    ],
    [
      'Gemini httpUrl is Streamable HTTP',
      { httpUrl: 'https://mcp.example.com/mcp' },
      { kind: 'remote', transport: 'streamable-http', urlKey: 'httpUrl' },
    ],
    [
      'type sse with serverUrl',
      { type: 'sse', serverUrl: 'https://x.example/sse' },
      { kind: 'remote', transport: 'sse', urlKey: 'serverUrl' },
    ],
    [
      'url wins over serverUrl',
      { url: 'https://a.example', serverUrl: 'https://b.example' },
      { kind: 'remote', transport: 'auto', urlKey: 'url' },
    ],
    [
      'type wins over transportType',
      { type: 'sse', transportType: 'streamableHttp', url: 'https://x.example' },
      { kind: 'remote', transport: 'sse', urlKey: 'url' },
    ],
    ['an undefined url is no url', { command: 'npx', url: undefined }, { kind: 'stdio' }],
    [
      'ws is unsupported',
      { type: 'ws', url: 'wss://x' },
      { kind: 'unsupported', key: 'type', shown: '"ws"' },
    ],
    [
      'a typo is quoted',
      { transportType: 'htpp', url: 'https://x' },
      { kind: 'unsupported', key: 'transportType', shown: '"htpp"' },
    ],
    [
      'a word with an escape is not quoted',
      { type: 'http\u001b[2J', url: 'https://x' },
      { kind: 'unsupported', key: 'type', shown: 'this' },
    ],
    ['a number is not quoted', { type: 7 }, { kind: 'unsupported', key: 'type', shown: 'this' }],
    [
      'a prototype key is not a transport',
      { type: 'constructor', url: 'https://x' },
      { kind: 'unsupported', key: 'type', shown: '"constructor"' },
    ],
    [
      'Http is case-sensitive',
      { type: 'HTTP', url: 'https://x' },
      { kind: 'unsupported', key: 'type', shown: '"HTTP"' },
    ],
  ])('%s', (_label, entry, reading) => {
    expect(readTransport(entry)).toEqual(reading);
  });

  test.each<[string, Record<string, unknown>, string, RegExp]>([
    [
      'type http without a url',
      { type: 'http', command: 'npx' },
      'url',
      /url is missing: a "http" server/,
    ],
    ['type sse without a url', { type: 'sse' }, 'url', /url is missing/],
    ['a url beside a command', { url: 'https://x', command: 'npx' }, 'command', /not both/],
    [
      'a serverUrl beside a command names serverUrl',
      { serverUrl: 'https://x', command: 'npx' },
      'command',
      /"serverUrl"/,
    ],
    [
      'type http with a url and a command',
      { type: 'http', url: 'https://x', command: 'npx' },
      'command',
      /not both/,
    ],
  ])('%s is invalid', (_label, entry, key, message) => {
    const reading = readTransport(entry);
    if (reading.kind !== 'invalid') throw new Error(`expected invalid, got ${reading.kind}`);
    expect(reading.key).toBe(key);
    expect(reading.message).toMatch(message);
  });
});

describe('isLoopbackHost', () => {
  // A false "yes" lets a token go over plain http to another machine.
  test.each<[string, boolean]>([
    ['localhost', true],
    ['LOCALHOST', true],
    // Reserved, but resolved by the network's DNS unless this machine has a rule for them.
    ['x.localhost', false],
    ['a.b.localhost', false],
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['127.255.255.255', true],
    ['[::1]', true],
    ['127.0.0.1.evil.com', false],
    ['localhost.evil.com', false],
    ['evil-localhost', false],
    ['evillocalhost', false],
    ['0.0.0.0', false],
    ['128.0.0.1', false],
    ['10.0.0.1', false],
    ['1127.0.0.1', false],
    ['127.0.0', false],
    ['[::]', false],
    ['::1', false],
    ['[::2]', false],
    ['[::ffff:7f00:1]', false],
    ['', false],
  ])('%j is loopback: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });

  // What URL makes of the host an entry writes: the check sees URL's hostname.
  test.each<[string, boolean]>([
    ['http://localhost:3000/mcp', true],
    ['http://[::1]:8080/mcp', true],
    ['http://127.1/mcp', true], // URL reads 127.1 as 127.0.0.1
    ['http://2130706433/mcp', true], // and this too
    ['http://127.0.0.1.evil.com/mcp', false],
    ['http://localhost.evil.com/mcp', false],
    ['http://0.0.0.0:3000/mcp', false],
    ['http://localhost./mcp', false], // trailing dot: refusing costs an edit
  ])('%s', (url, loopback) => {
    expect(isLoopbackHost(new URL(url).hostname)).toBe(loopback);
  });
});

describe('remoteUrlProblem', () => {
  test.each([
    'https://mcp.example.com/mcp',
    'https://mcp.example.com:8443/mcp?tenant=a',
    'HTTPS://MCP.EXAMPLE.COM/MCP',
    'http://localhost:3000/mcp',
    'http://127.0.0.1:3000/mcp',
    'http://127.1.2.3/mcp',
    'http://[::1]:3000/mcp',
    'https://xn--80ak6aa92e.com/mcp',
  ])('accepts %s', (url) => {
    expect(remoteUrlProblem(url)).toBeUndefined();
  });

  test.each<[string, string, RegExp]>([
    ['empty', '', /cannot be empty/],
    ['too long', `https://x.example/${'a'.repeat(MAX_URL_CHARS)}`, /at most 4096/],
    ['a space', 'https://x.example/a b', /spaces or control/],
    ['a leading space', ' https://x.example/', /spaces or control/],
    ['a newline', 'https://x.example/\n', /spaces or control/],
    ['a NUL', 'https://x.example/\u0000', /spaces or control/],
    ['a zero-width space', 'https://x\u200b.example/', /spaces or control/],
    ['a bidi override', 'https://x.example/\u202e', /spaces or control/],
    ['relative', '/mcp', /absolute address/],
    ['a bare host', 'mcp.example.com', /absolute address/],
    ['ftp', 'ftp://x.example/', /https:\/\/ \(this one is ftp\)/],
    ['ws', 'ws://localhost:3000/', /this one is ws/],
    ['javascript', 'javascript:alert(1)', /this one is javascript/],
    ['file', 'file:///etc/passwd', /this one is file/],
    ['http to a remote host', 'http://mcp.example.com/mcp', /must use https/],
    ['http to a lookalike', 'http://127.0.0.1.evil.com/mcp', /must use https/],
    ['http to localhost.evil.com', 'http://localhost.evil.com/mcp', /must use https/],
    ['http to 0.0.0.0', 'http://0.0.0.0:3000/mcp', /must use https/],
    ['http to a LAN address', 'http://192.168.1.10/mcp', /must use https/],
    ['a user name', 'https://ana@x.example/', /user name or password/],
    ['a password', 'https://ana:secret@x.example/', /user name or password/],
    ['http loopback with a password', 'http://a:b@localhost/', /user name or password/],
    ['a fragment', 'https://x.example/mcp#top', /#fragment/],
  ])('refuses %s', (_label, url, message) => {
    expect(remoteUrlProblem(url)).toMatch(message);
  });

  test('the message for a password never quotes the URL', () => {
    expect(remoteUrlProblem('https://ana:hunter2@x.example/')).not.toContain('hunter2');
  });

  test('UrlSchema reports the same problem', () => {
    const parsed = UrlSchema.safeParse('http://mcp.example.com/mcp');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/must use https/);
    expect(UrlSchema.safeParse(42).error?.issues[0]?.message).toMatch(/url must be a string/);
    expect(UrlSchema.parse('https://x.example/mcp')).toBe('https://x.example/mcp');
  });
});

describe('headerNameProblem', () => {
  test.each([
    'Authorization',
    'X-Api-Key',
    'x_tenant',
    "!#$%&'*+.^_`|~-",
    'a'.repeat(MAX_HEADER_NAME_CHARS),
  ])('accepts %s', (name) => {
    expect(headerNameProblem(name)).toBeUndefined();
  });

  test.each<[string, string, RegExp]>([
    ['empty', '', /cannot be empty/],
    ['too long', 'a'.repeat(MAX_HEADER_NAME_CHARS + 1), /at most 256/],
    ['a space', 'X Api', /can only have/],
    ['a colon', 'X:Api', /can only have/],
    ['a CR', 'X\rApi', /can only have/],
    ['a LF', 'X\nInjected: 1', /can only have/],
    ['a NUL', 'X\u0000', /can only have/],
    ['non-ASCII', 'X-Clé', /can only have/],
    ['Content-Type', 'Content-Type', /set by the transport/],
    ['accept in any case', 'ACCEPT', /set by the transport/],
    ['Mcp-Session-Id', 'Mcp-Session-Id', /set by the transport/],
    ['MCP-Protocol-Version', 'MCP-Protocol-Version', /set by the transport/],
    ['Host', 'Host', /set by the transport/],
    ['Content-Length', 'content-length', /set by the transport/],
    ['Transfer-Encoding', 'Transfer-Encoding', /set by the transport/],
    ['Last-Event-ID', 'Last-Event-ID', /set by the transport/],
  ])('refuses %s', (_label, name, message) => {
    expect(headerNameProblem(name)).toMatch(message);
  });
});

describe('headerValueProblem', () => {
  // A CR or LF would split the request (header injection); fetch refuses the other controls.
  test.each(['Bearer ${API_TOKEN}', '', 'a\tb', 'é', 'x'.repeat(MAX_HEADER_VALUE_CHARS)])(
    'accepts %j',
    (value) => {
      expect(headerValueProblem(value)).toBeUndefined();
    },
  );

  test.each<[string, string, RegExp]>([
    ['too long', 'x'.repeat(MAX_HEADER_VALUE_CHARS + 1), /at most 8192/],
    ['a CR', 'Bearer a\rX-Injected: 1', /line breaks or control/],
    ['a LF', 'Bearer a\nX-Injected: 1', /line breaks or control/],
    ['a CRLF', 'a\r\n', /line breaks or control/],
    ['a NUL', 'a\u0000b', /line breaks or control/],
    ['a DEL', 'a\u007fb', /line breaks or control/],
    ['an ESC', '\u001b[2J', /line breaks or control/],
    ['a vertical tab', 'a\u000bb', /line breaks or control/],
    // fetch throws on these at connect time ("Cannot convert argument to a ByteString").
    ['a euro sign', 'Bearer \u20ac', /Latin-1/],
    ['pasted curly quotes', '\u201cBearer abc\u201d', /Latin-1/],
    ['a line separator', 'a\u2028b', /Latin-1/],
    ['an emoji', 'team \u{1f680}', /Latin-1/],
  ])('refuses %s', (_label, value, message) => {
    expect(headerValueProblem(value)).toMatch(message);
  });

  test('a refusal never quotes the value', () => {
    expect(headerValueProblem('secret-token\n')).not.toContain('secret-token');
  });
});

describe('HeadersSchema', () => {
  test('accepts names and values as written, unexpanded', () => {
    const headers = { Authorization: 'Bearer ${TOKEN}', 'X-Tenant': 'a' };
    expect(HeadersSchema.parse(headers)).toEqual(headers);
  });

  test.each<[string, unknown, RegExp]>([
    ['not an object', 'Bearer x', /headers must be an object of strings/],
    ['a number value', { 'X-A': 1 }, /a header value must be a string/],
    ['a reserved name', { 'Content-Type': 'text/plain' }, /set by the transport/],
    ['a CRLF value', { 'X-A': 'a\r\nb' }, /line breaks/],
    ['the same name twice in two cases', { 'X-A': '1', 'x-a': '2' }, /names one header twice/],
    [
      'too many',
      Object.fromEntries(Array.from({ length: MAX_HEADERS + 1 }, (_, i) => [`X-${i}`, 'v'])),
      /at most 64 headers/,
    ],
  ])('refuses %s', (_label, headers, message) => {
    const parsed = HeadersSchema.safeParse(headers);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message).join('\n')).toMatch(message);
  });

  test('refuses a __proto__ header name', () => {
    const parsed = HeadersSchema.safeParse(JSON.parse('{"__proto__": "x"}'));
    expect(parsed.success).toBe(false);
  });
});

describe('originOf', () => {
  test.each<[string, string]>([
    ['https://mcp.example.com/mcp?x=1', 'https://mcp.example.com'],
    ['https://mcp.example.com:443/mcp', 'https://mcp.example.com'],
    ['https://mcp.example.com:8443/mcp', 'https://mcp.example.com:8443'],
    ['http://localhost:3000/mcp', 'http://localhost:3000'],
    ['https://MCP.Example.COM/', 'https://mcp.example.com'],
    // An internationalized name is shown as the punycode a lookalike cannot imitate.
    ['https://пример.com/mcp', 'https://xn--e1afmkfd.com'],
    ['not a url', 'not a url'],
  ])('%s -> %s', (url, origin) => {
    expect(originOf(url)).toBe(origin);
  });
});
