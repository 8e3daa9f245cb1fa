import { describe, expect, test } from 'vitest';
import { canonicalResource, oauthKey, parseOAuthKey, redirectCovered } from './resource';

// Dangerous direction: two different resources mapped to one canonical form (a token for one
// server sent to another), or a plain-http remote accepted (a bearer token sent in the clear).
describe('canonicalResource', () => {
  test.each([
    ['https://example.com/mcp', 'https://example.com/mcp'],
    ['https://EXAMPLE.com/mcp', 'https://example.com/mcp'],
    ['HTTPS://example.com:443/mcp', 'https://example.com/mcp'],
    ['https://example.com/mcp/', 'https://example.com/mcp'],
    ['https://example.com/mcp#frag', 'https://example.com/mcp'],
    ['https://example.com', 'https://example.com'],
    ['https://example.com/', 'https://example.com'],
    ['https://example.com:8443/mcp', 'https://example.com:8443/mcp'],
    ['https://example.com/mcp?tenant=a', 'https://example.com/mcp?tenant=a'],
    ['http://127.0.0.1:3000/mcp', 'http://127.0.0.1:3000/mcp'],
    ['http://localhost:3000/mcp', 'http://localhost:3000/mcp'],
    ['http://[::1]:3000/mcp', 'http://[::1]:3000/mcp'],
  ])('%s -> %s', (input, expected) => {
    expect(canonicalResource(input)).toBe(expected);
  });

  test.each([
    ['plain http to a remote host', 'http://example.com/mcp'],
    ['credentials in the URL', 'https://user:pw@example.com/mcp'],
    ['not http', 'ftp://example.com/mcp'],
    ['a file', 'file:///etc/passwd'],
    ['unparsable', 'not a url'],
    ['http to a name that only starts like loopback', 'http://127.0.0.1.evil.example/mcp'],
  ])('refuses %s', (_why, input) => {
    expect(canonicalResource(input)).toBeUndefined();
  });

  test('different paths, ports and queries stay different resources', () => {
    const forms = [
      'https://example.com/mcp',
      'https://example.com/mcp2',
      'https://example.com:8443/mcp',
      'https://example.com/mcp?tenant=b',
      'https://other.example.com/mcp',
    ].map(canonicalResource);
    expect(new Set(forms).size).toBe(forms.length);
  });
});

describe('oauth keys', () => {
  test.each([
    ['github', 'tokens'],
    ['a:b', 'client'],
    ['x', 'pending'],
  ] as const)('%s / %s round-trips', (server, what) => {
    expect(parseOAuthKey(oauthKey(server, what))).toEqual({ server, what });
  });

  test.each(['var:GITHUB', 'oauth:', 'oauth:server', 'oauth:server:unknown', 'oauth::tokens'])(
    '%s is not an OAuth record',
    (key) => {
      expect(parseOAuthKey(key)).toBeUndefined();
    },
  );
});

// Dangerous direction: a registration treated as covering a redirect it was not made for.
describe('redirectCovered', () => {
  test.each([
    [['http://127.0.0.1:5000/callback'], 'http://127.0.0.1:6000/callback', true],
    [['http://127.0.0.1/callback'], 'http://127.0.0.1:6000/callback', true],
    [['https://abc.chromiumapp.org/oauth'], 'https://abc.chromiumapp.org/oauth', true],
    [['http://127.0.0.1:5000/callback'], 'http://127.0.0.1:5000/other', false],
    [['https://abc.chromiumapp.org:1/oauth'], 'https://abc.chromiumapp.org:2/oauth', false],
    [['http://example.com:1/cb'], 'http://example.com:2/cb', false],
    [['https://abc.chromiumapp.org/oauth'], 'http://127.0.0.1:6000/callback', false],
    [[], 'http://127.0.0.1:6000/callback', false],
  ])('%j covers %s: %s', (registered, current, expected) => {
    expect(redirectCovered(registered, current)).toBe(expected);
  });
});
