import { describe, expect, test } from 'vitest';
import { oauthClientMetadata, parseMetadataArgs } from './oauth-client-metadata';

// Dangerous direction: a document listing a redirect Switchyard does not own (an authorization
// server would then send a user's code there), or one published at a URL that is not https.
const CHROMIUM_ID = 'abcdefghijklmnopabcdefghijklmnop';
const URL = 'https://switchyard.example.com/oauth/client.json';

describe('parseMetadataArgs', () => {
  test.each<[string, string[], RegExp | readonly string[]]>([
    [
      'a Chromium id',
      [URL, '--extension-id', CHROMIUM_ID],
      [`https://${CHROMIUM_ID}.chromiumapp.org/`],
    ],
    [
      "Firefox's redirect as given",
      [URL, '--redirect-uri', 'https://0123abcd.extensions.allizom.org/'],
      ['https://0123abcd.extensions.allizom.org/'],
    ],
    ['no extension', [URL], /--extension-id ID/],
    ['not an extension id', [URL, '--extension-id', 'evil'], /not a Chromium extension id/],
    [
      'another redirect',
      [URL, '--redirect-uri', 'https://evil.example/cb'],
      /not a browser sign-in redirect/,
    ],
    ['plain http', ['http://example.com/c.json', '--extension-id', CHROMIUM_ID], /must use https/],
    ['no URL', ['--extension-id', CHROMIUM_ID], /name the URL/],
  ])('%s', (_label, argv, expected) => {
    const parsed = parseMetadataArgs(argv);
    if (expected instanceof RegExp) {
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.error).toMatch(expected);
    } else {
      expect(parsed).toEqual({ ok: true, url: URL, redirects: expected });
    }
  });
});

test('prints the document: the URL as client id, the browser and CLI redirects, a public client', async () => {
  const out: string[] = [];
  const code = await oauthClientMetadata(
    { out: (t) => out.push(t), err: () => undefined, env: {}, platform: 'linux' },
    [URL, '--extension-id', CHROMIUM_ID],
  );
  expect(code).toBe(0);
  expect(JSON.parse(out.join(''))).toMatchObject({
    client_id: URL,
    redirect_uris: [`https://${CHROMIUM_ID}.chromiumapp.org/`, 'http://127.0.0.1/callback'],
    grant_types: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_method: 'none',
  });
});
