import { describe, expect, test } from 'vitest';
import type { ServerSummary } from '../../protocol/servers';
import { browserRedirectUri, oauthRedirectText } from './oauth-redirects';

// Dangerous direction: a redirect URI shown that Switchyard never redirects to (the sign-in then
// fails at the authorization server with a message about redirect_uri), or an id that is not an
// extension id turned into a host name.

const ID = 'abcdefghijklmnopabcdefghijklmnop';

function server(name: string, oauthClientId?: string): ServerSummary {
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
