import { describe, expect, it } from 'vitest';
import {
  appContentSecurityPolicy,
  htmlWithPolicy,
  isCspOrigin,
  readDeclaredCsp,
  withoutLoopback,
} from './app-csp';

describe('isCspOrigin', () => {
  it.each([
    ['https://api.example.com', true],
    ['https://*.example.com', true],
    ['https://cdn.example.com:8443', true],
    ['wss://realtime.example.com', true],
    ['HTTPS://API.EXAMPLE.COM', true],
    ['http://localhost:3000', true],
    ['http://127.0.0.1:*', true],
    ['ws://[::1]:9000', true],
    // Not an origin, or one that would widen or end a directive.
    ['http://api.example.com', false],
    ['*', false],
    ['https://*', false],
    ["'unsafe-eval'", false],
    ["'self'", false],
    ['https://x.test; script-src *', false],
    ['https://x.test https://y.test', false],
    ['https://example.com/path', false],
    ['data:', false],
    ['blob:', false],
    ['https://localhost', true],
    ['https://example', false],
    ['https://a.example.com:99999', false],
    ['javascript:alert(1)', false],
    ['', false],
  ])('%s -> %s', (value, expected) => {
    expect(isCspOrigin(value)).toBe(expected);
  });
});

describe('readDeclaredCsp', () => {
  it('keeps origins, lower-cased and once, and reports the rest', () => {
    expect(
      readDeclaredCsp({
        connectDomains: ['https://API.example.com', 'https://api.example.com', '*', 42],
        resourceDomains: 'https://cdn.example.com',
        frameDomains: ['https://frames.example.com'],
        baseUriDomains: [],
      }),
    ).toEqual({
      csp: { connectDomains: ['https://api.example.com'], resourceDomains: [] },
      ignored: [
        'connectDomains: *',
        'connectDomains: number',
        'resourceDomains: not a list',
        'frameDomains: not granted',
      ],
    });
  });

  it.each([[undefined], [null], ['csp'], [[1]]])('a declaration of %j grants nothing', (value) => {
    expect(readDeclaredCsp(value).csp).toEqual({ connectDomains: [], resourceDomains: [] });
  });
});

describe('appContentSecurityPolicy', () => {
  it('grants no network by default', () => {
    const policy = appContentSecurityPolicy({ connectDomains: [], resourceDomains: [] });
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'none'");
    expect(policy).toContain("frame-src 'none'");
    expect(policy).toContain("form-action 'none'");
    expect(policy).not.toMatch(/https?:/u);
  });

  it('adds the declared origins to exactly their directives', () => {
    const policy = appContentSecurityPolicy({
      connectDomains: ['https://api.example.com'],
      resourceDomains: ['https://cdn.example.com'],
    });
    const directive = (name: string) =>
      policy.split('; ').find((d) => d.startsWith(`${name} `)) ?? '';
    expect(directive('connect-src')).toBe('connect-src https://api.example.com');
    expect(directive('script-src')).toContain('https://cdn.example.com');
    expect(directive('img-src')).toContain('https://cdn.example.com');
    expect(directive('frame-src')).toBe("frame-src 'none'");
  });
});

describe('htmlWithPolicy', () => {
  it('puts the policy before anything the page wrote, in standards mode', () => {
    const html = htmlWithPolicy('<!doctype html><script>x()</script>', "default-src 'none'");
    expect(html.startsWith('<!DOCTYPE html><meta http-equiv="Content-Security-Policy"')).toBe(true);
    expect(html.indexOf('<script>')).toBeGreaterThan(html.indexOf('default-src'));
  });

  it('cannot be ended early by the policy text', () => {
    expect(htmlWithPolicy('', 'a"b&c')).toContain('content="a&quot;b&amp;c"');
  });
});

describe('withoutLoopback', () => {
  it("takes this machine's origins from a remote server's app, and says so", () => {
    const reading = withoutLoopback(
      readDeclaredCsp({
        connectDomains: ['https://api.example.com', 'http://localhost:*', 'ws://127.0.0.1:8080'],
        resourceDomains: ['http://[::1]:3000', 'https://cdn.example.com'],
      }),
    );
    expect(reading.csp).toEqual({
      connectDomains: ['https://api.example.com'],
      resourceDomains: ['https://cdn.example.com'],
    });
    expect(reading.ignored).toEqual([
      "connectDomains: http://localhost:* (this machine: not for a remote server's app)",
      "connectDomains: ws://127.0.0.1:8080 (this machine: not for a remote server's app)",
      "resourceDomains: http://[::1]:3000 (this machine: not for a remote server's app)",
    ]);
  });
});
