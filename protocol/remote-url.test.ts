import { describe, expect, test } from 'vitest';
import {
  headerNameProblem,
  headerValueProblem,
  isLoopbackHost,
  originOf,
  remoteUrlProblem,
  displayUrl,
} from './remote-url';

// The dangerous direction is a URL or header let through: a token sent in clear over a network,
// credentials in a URL that is logged and shown, a header split by a line break. Refusing an
// address the user meant is loud and gets fixed. The host and the popup's form both use these.

describe('remote URLs', () => {
  test.each([
    ['https anywhere', 'https://mcp.example.com/mcp'],
    ['http to localhost', 'http://localhost:3000/mcp'],
    ['http to 127.0.0.1', 'http://127.0.0.1:8080/mcp'],
    ['http to the rest of 127.0.0.0/8', 'http://127.1.2.3/mcp'],
    ['http to 127.1 (the URL API spells it 127.0.0.1)', 'http://127.1/mcp'],
    ['http to [::1]', 'http://[::1]:8080/mcp'],
    ['a query', 'https://mcp.example.com/mcp?team=blue'],
  ])('accepts %s', (_, url) => {
    expect(remoteUrlProblem(url)).toBeUndefined();
  });

  test.each([
    ['empty', '', /empty/],
    ['too long', `https://example.com/${'a'.repeat(4096)}`, /at most 4096/],
    ['a space', 'https://example.com/m cp', /spaces/],
    ['relative', '/mcp', /absolute address/],
    ['another scheme', 'ftp://example.com/mcp', /must start with https:\/\/ \(this one is ftp\)/],
    ['plain http over a network', 'http://example.com/mcp', /must use https/],
    ['plain http to a private address', 'http://192.168.1.2/mcp', /must use https/],
    ['plain http to a name ending in 127.0.0.1', 'http://127.0.0.1.example.com/', /https/],
    // RFC 6761 reserves .localhost, but the system resolver may ask the network's DNS for it.
    ['plain http to a .localhost name', 'http://app.localhost/mcp', /must use https/],
    ['a user name', 'https://me@example.com/mcp', /user name or password/],
    ['a password', 'https://me:secret@example.com/mcp', /user name or password/],
    ['a fragment', 'https://example.com/mcp#x', /fragment/],
  ])('refuses %s', (_, url, message) => {
    expect(remoteUrlProblem(url)).toMatch(message);
  });

  test.each([
    ['LOCALHOST', true],
    ['[::1]', true],
    ['127.255.255.255', true],
    ['128.0.0.1', false],
    ['localhost.example.com', false],
    ['[::2]', false],
  ])('%s is loopback: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });

  test.each([
    ['https://mcp.example.com/mcp?q=1', 'https://mcp.example.com'],
    ['http://127.0.0.1:8080/mcp', 'http://127.0.0.1:8080'],
    ['not a url', 'not a url'],
  ])('the origin of %s is %s', (url, origin) => {
    expect(originOf(url)).toBe(origin);
  });
});

describe('header names and values', () => {
  test.each([
    ['Authorization', undefined],
    ["X-Odd!#$%&'*+.^_`|~", undefined],
    ['', /empty/],
    ['X Team', /can only have/],
    ['X-Team:', /can only have/],
    ['Ünicode', /can only have/],
    ['a'.repeat(257), /at most 256/],
    ['Mcp-Session-Id', /set by the transport/],
    ['content-type', /set by the transport/],
  ])('name %j', (name, problem) => {
    const found = headerNameProblem(name);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(problem);
  });

  test.each([
    ['Bearer ${TOKEN}', undefined],
    ['a\tb', undefined],
    ['', undefined],
    ['a\r\nHost: evil', /line breaks/],
    ['a\nb', /line breaks/],
    ['a\u0000b', /control/],
    ['a\u007fb', /control/],
    ['a'.repeat(8193), /at most 8192/],
  ])('value %j', (value, problem) => {
    const found = headerValueProblem(value);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(problem);
  });
});

describe('displayUrl', () => {
  test.each<[string, string, string]>([
    ['an ordinary URL, unchanged', 'https://mcp.linear.app/mcp', 'https://mcp.linear.app/mcp'],
    [
      'a key in the query',
      'https://server.smithery.ai/exa/mcp?api_key=3f9a8b7c6d5e&profile=dev',
      'https://server.smithery.ai/exa/mcp?api_key=…&profile=dev',
    ],
    [
      'a token, whatever its case',
      'https://x.example/mcp?Access_Token=abc123',
      'https://x.example/mcp?Access_Token=…',
    ],
    [
      'a ${VAR} reference, kept',
      'https://x.example/mcp?token=${X_TOKEN}',
      'https://x.example/mcp?token=${X_TOKEN}',
    ],
    [
      'a known token shape in the path',
      `https://x.example/s/ghp_${'A1b2C3d4E5'.repeat(4)}/mcp`,
      'https://x.example/s/[REDACTED:github]/mcp',
    ],
    ['text that is no URL, redacted as text', 'not a url', 'not a url'],
  ])('%s', (_label, url, shown) => {
    expect(displayUrl(url)).toBe(shown);
  });
});
