import { describe, expect, test } from 'vitest';
import type { ServerSummary } from '../../protocol/servers';
import { browserRedirectUri, oauthRedirectText } from './oauth-redirects';

// Dangerous direction: a redirect URI shown that Switchyard never redirects to (the sign-in then
// fails at the authorization server with a message about redirect_uri), or an id that is not an
// extension id turned into a host name.

const ID = 'abcdefghijklmnopabcdefghijklmnop';

function server(
  name: string,
  oauthClientId?: string,
  oauthGrant?: 'client_credentials' | 'cross-app-access',
): ServerSummary {
  return {
    name,
    provenance: 'user',
    workspaceRoot: null,
    disabled: false,
    apps: true,
    command: '',
    args: [],
    resolvedCommand: null,
    cwd: null,
    envKeys: [],
    remote: {
      url: 'https://mcp.example.com/mcp',
      transport: 'streamable-http',
      headerNames: [],
      ...(oauthClientId === undefined ? {} : { oauthClientId }),
      ...(oauthGrant === undefined ? {} : { oauthGrant }),
    },
    status: { state: 'stopped' },
    crashes: null,
    toolCount: 0,
    tokens: 0,
  };
}

describe('browserRedirectUri', () => {
  test.each<[string, string | undefined]>([
    [ID, `https://${ID}.chromiumapp.org/`],
    ['switchyard@example.org', undefined],
    ['ABCDEFGHIJKLMNOPABCDEFGHIJKLMNOP', undefined],
    [`${ID}.evil.example/x`, undefined],
  ])('%s', (id, uri) => {
    expect(browserRedirectUri(id)).toBe(uri);
  });
});

describe('oauthRedirectText', () => {
  test('is empty without a pre-registered client', () => {
    expect(oauthRedirectText([server('a')], [ID])).toBe('');
  });

  // A machine client or a cross-app access client never opens an authorization page: listing it
  // sends the user to register a redirect that is never used.
  test('leaves out clients that get their tokens with no page', () => {
    const servers = [
      server('svc', 'svc-basic', 'client_credentials'),
      server('xaa', 'xaa-client', 'cross-app-access'),
    ];
    expect(oauthRedirectText(servers, [ID])).toBe('');
    const text = oauthRedirectText([...servers, server('gh', 'Iv1.abc')], [ID]);
    expect(text).toContain('gh (client Iv1.abc)');
    expect(text).not.toContain('svc');
    expect(text).not.toContain('xaa');
  });

  test.each<[string, readonly string[], RegExp]>([
    [
      'the installed extension',
      [ID],
      new RegExp(`for the popup: https://${ID}\\.chromiumapp\\.org/`),
    ],
    ['no install: the shape', [], /https:\/\/<extension-id>\.chromiumapp\.org\//],
    ['a Firefox id only: the shape', ['switchyard@example.org'], /<extension-id>/],
  ])('names %s and the loopback', (_label, ids, browser) => {
    const text = oauthRedirectText([server('gh', 'Iv1.abc'), server('b')], ids);
    expect(text).toMatch(/^OAuth clients: gh \(client Iv1\.abc\)\./);
    expect(text).toMatch(browser);
    expect(text).toContain("for 'switchyard auth': http://127.0.0.1/callback (any port)");
  });
});
