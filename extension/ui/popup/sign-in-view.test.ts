import { describe, expect, test } from 'vitest';
import type { SignInStatus } from '../../../protocol/auth';
import type { ServerState, ServerSummary } from '../../../protocol/servers';
import { signInView, type SignInView } from './sign-in-view';

const NOW = Date.UTC(2026, 11, 2, 8, 0);

function server(status: ServerState, remote = true): ServerSummary {
  return {
    name: 'linear',
    provenance: 'user',
    workspaceRoot: null,
    disabled: false,
    apps: true,
    command: '',
    args: [],
    resolvedCommand: null,
    cwd: null,
    envKeys: [],
    remote: remote
      ? { url: 'https://mcp.linear.app/mcp', transport: 'streamable-http', headerNames: [] }
      : null,
    status,
    crashes: null,
    toolCount: 0,
    tokens: 0,
  };
}

const signedIn = (over: Partial<SignInStatus> = {}): SignInStatus => ({
  server: 'linear',
  resource: 'https://mcp.linear.app/mcp',
  issuer: 'https://linear.app',
  subject: 'ada@example.com',
  scopes: ['read', 'write'],
  expiresAt: NOW + 30 * 60_000,
  refreshable: true,
  ...over,
});

const needsSignIn: ServerState = {
  state: 'failed',
  reason: 'auth-required',
  message: "'linear' needs sign-in",
};
const running: ServerState = {
  state: 'running',
  pid: -1,
  handshakeMs: 80,
  protocolVersion: '2025-11-25',
  serverInfo: { name: 'linear', version: '1' },
};

describe('signInView', () => {
  test.each<[string, ServerSummary, SignInStatus | null | undefined, SignInView]>([
    ['a local server', server(needsSignIn, false), null, { kind: 'none' }],
    [
      'a remote server the host failed as auth-required',
      server(needsSignIn),
      null,
      { kind: 'sign-in', prompt: 'Sign in to mcp.linear.app to use this server.' },
    ],
    ['while its status is still loading', server(running), undefined, { kind: 'none' }],
    ['a remote server that needs no sign-in', server(running), null, { kind: 'none' }],
    [
      'signed in, with who and the scopes',
      server(running),
      signedIn(),
      {
        kind: 'signed-in',
        label: 'Signed in as ada@example.com (read write)',
        expiry: 'expires in 30 min, renews',
      },
    ],
    [
      'signed in without an ID token or scopes',
      server(running),
      signedIn({ subject: null, scopes: [], expiresAt: null }),
      { kind: 'signed-in', label: 'Signed in', expiry: null },
    ],
    [
      'an expired token that cannot renew',
      server(running),
      signedIn({ expiresAt: NOW - 1, refreshable: false }),
      { kind: 'signed-in', label: 'Signed in as ada@example.com (read write)', expiry: 'expired' },
    ],
    [
      'a long-lived token',
      server(running),
      signedIn({ expiresAt: NOW + 8 * 3_600_000, refreshable: false }),
      {
        kind: 'signed-in',
        label: 'Signed in as ada@example.com (read write)',
        expiry: 'expires in 8 h',
      },
    ],
  ])('%s', (_label, summary, status, expected) => {
    expect(signInView(summary, status, NOW)).toEqual(expected);
  });
});
