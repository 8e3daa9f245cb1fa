import { describe, expect, test } from 'vitest';
import { MAX_CLIENT_ID_CHARS, MAX_SCOPES, OAuthClientSchema } from './oauth-entry';

describe('OAuthClientSchema', () => {
  // Dangerous direction: a client secret or a private key accepted as text in config.json (it is
  // then in every copy, sync and paste of the file, and committed with a workspace), a client id
  // or scope that could carry a line break into a URL or a terminal, or a machine client whose
  // credential or issuer is ambiguous. Refusing one costs an edit.
  test.each<[string, unknown, unknown]>([
    ['a public client', { clientId: 'abc' }, { clientId: 'abc', scopes: [] }],
    [
      'a confidential client with its secret in a variable',
      { clientId: 'Iv1.8a61f9b3', clientSecret: '${GH_SECRET}' },
      { clientId: 'Iv1.8a61f9b3', clientSecret: '${GH_SECRET}', scopes: [] },
    ],
    [
      'an env: reference',
      { clientId: 'a', clientSecret: '${env:S}' },
      { clientId: 'a', clientSecret: '${env:S}', scopes: [] },
    ],
    [
      'scopes as a list, duplicates folded',
      { clientId: 'a', scopes: ['repo', 'read:org', 'repo'] },
      { clientId: 'a', scopes: ['repo', 'read:org'] },
    ],
    [
      "Claude Code's scopes string",
      { clientId: 'a', scopes: 'repo  read:org' },
      { clientId: 'a', scopes: ['repo', 'read:org'] },
    ],
    [
      "Claude Code's callbackPort is ignored",
      { clientId: 'a', callbackPort: 8080 },
      { clientId: 'a', scopes: [] },
    ],
    [
      'the longest client id',
      { clientId: 'x'.repeat(MAX_CLIENT_ID_CHARS) },
      { clientId: 'x'.repeat(MAX_CLIENT_ID_CHARS), scopes: [] },
    ],
    [
      'a machine client with a secret',
      { grant: 'client_credentials', clientId: 'svc', clientSecret: '${S}', scopes: ['tools'] },
      { grant: 'client_credentials', clientId: 'svc', clientSecret: '${S}', scopes: ['tools'] },
    ],
    [
      'a machine client with a key, its algorithm and its issuer',
      {
        grant: 'client_credentials',
        clientId: 'svc',
        privateKey: '${K}',
        algorithm: 'ES256',
        issuer: 'https://idp.example.com/tenant',
      },
      {
        grant: 'client_credentials',
        clientId: 'svc',
        privateKey: '${K}',
        algorithm: 'ES256',
        issuer: 'https://idp.example.com/tenant',
        scopes: [],
      },
    ],
    [
      'a cross-app access client with its IdP',
      {
        grant: 'cross-app-access',
        clientId: 'xaa',
        clientSecret: '${XAA_SECRET}',
        issuer: 'https://auth.example.com',
        idp: {
          issuer: 'https://acme.okta.com',
          tokenEndpoint: 'https://acme.okta.com/oauth2/v1/token',
          clientId: 'switchyard',
          clientSecret: '${IDP_SECRET}',
          idToken: '${IDP_ID_TOKEN}',
        },
      },
      {
        grant: 'cross-app-access',
        clientId: 'xaa',
        clientSecret: '${XAA_SECRET}',
        issuer: 'https://auth.example.com',
        scopes: [],
        idp: {
          issuer: 'https://acme.okta.com',
          tokenEndpoint: 'https://acme.okta.com/oauth2/v1/token',
          clientId: 'switchyard',
          clientSecret: '${IDP_SECRET}',
          idToken: '${IDP_ID_TOKEN}',
        },
      },
    ],
    [
      'a cross-app access client with a public IdP client and a discovered endpoint',
      {
        grant: 'cross-app-access',
        clientId: 'xaa',
        clientSecret: '${S}',
        idp: { issuer: 'http://127.0.0.1:9000', clientId: 'sy', idToken: '${T}' },
      },
      {
        grant: 'cross-app-access',
        clientId: 'xaa',
        clientSecret: '${S}',
        scopes: [],
        idp: { issuer: 'http://127.0.0.1:9000', clientId: 'sy', idToken: '${T}' },
      },
    ],
    [
      'the default grant spelled out (reads as before)',
      { grant: 'authorization_code', clientId: 'a' },
      { clientId: 'a', scopes: [] },
    ],
  ])('accepts %s', (_label, input, expected) => {
    expect(OAuthClientSchema.parse(input)).toEqual(expected);
  });

  test.each<[string, unknown, RegExp]>([
    ['not an object', 'abc', /oauth must be an object/],
    ['no client id', { clientSecret: '${S}' }, /oauth.clientId must be a string/],
    ['an empty client id', { clientId: '' }, /clientId is empty/],
    ['a long client id', { clientId: 'x'.repeat(MAX_CLIENT_ID_CHARS + 1) }, /at most 256/],
    ['a client id with a line break', { clientId: 'a\nb' }, /printable ASCII/],
    ['a client id with an escape', { clientId: 'a\u001b[2J' }, /printable ASCII/],
    ['a client id with spaces around', { clientId: ' abc ' }, /no space at either end/],
    ['a client id in Unicode', { clientId: 'clïent' }, /printable ASCII/],
    ['a literal secret', { clientId: 'a', clientSecret: 'hunter2' }, /switchyard secret set/],
    [
      'a secret beside a reference',
      { clientId: 'a', clientSecret: 'x${S}' },
      /never the secret itself/,
    ],
    ['a reference with a default', { clientId: 'a', clientSecret: '${S:-hunter2}' }, /variable/],
    ['a number secret', { clientId: 'a', clientSecret: 7 }, /naming a variable/],
    ['scopes as a number', { clientId: 'a', scopes: 7 }, /list of strings/],
    ['a scope with a quote', { clientId: 'a', scopes: ['a"b'] }, /without spaces, quotes/],
    ['a scope with a space', { clientId: 'a', scopes: ['a b'] }, /without spaces/],
    ['an empty scope', { clientId: 'a', scopes: [''] }, /1 to 128/],
    [
      'too many scopes',
      { clientId: 'a', scopes: Array.from({ length: MAX_SCOPES + 1 }, (_, i) => `s${i}`) },
      /at most 32 scopes/,
    ],
    ['an unknown grant', { grant: 'password', clientId: 'a' }, /"client_credentials"/],
    [
      'a machine client with neither secret nor key',
      { grant: 'client_credentials', clientId: 'svc' },
      /either oauth.clientSecret or oauth.privateKey/,
    ],
    [
      'a machine client with both',
      { grant: 'client_credentials', clientId: 'svc', clientSecret: '${S}', privateKey: '${K}' },
      /exactly one/,
    ],
    [
      'a literal PEM',
      { grant: 'client_credentials', clientId: 'svc', privateKey: '-----BEGIN PRIVATE KEY-----' },
      /never the key itself/,
    ],
    [
      'an algorithm without a key',
      { grant: 'client_credentials', clientId: 'svc', clientSecret: '${S}', algorithm: 'RS256' },
      /needs oauth.privateKey/,
    ],
    [
      'an unknown algorithm',
      { grant: 'client_credentials', clientId: 'svc', privateKey: '${K}', algorithm: 'none' },
      /oauth.algorithm is one of/,
    ],
    [
      'an issuer over plain http elsewhere',
      {
        grant: 'client_credentials',
        clientId: 'svc',
        clientSecret: '${S}',
        issuer: 'http://idp.example.com',
      },
      /https/,
    ],
    [
      'an issuer with a query',
      {
        grant: 'client_credentials',
        clientId: 'svc',
        clientSecret: '${S}',
        issuer: 'https://idp.example.com/?t=1',
      },
      /RFC 8414/,
    ],
    [
      "a key for a person's client",
      { clientId: 'a', privateKey: '${K}' },
      /only used with "grant": "client_credentials"/,
    ],
    [
      "an issuer for a person's client",
      { clientId: 'a', issuer: 'https://idp.example.com' },
      /only used with "grant": "client_credentials"/,
    ],
    ...crossAppRefusals(),
  ])('refuses %s', (_label, input, message) => {
    const parsed = OAuthClientSchema.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message).join('\n')).toMatch(message);
  });
});

/**
 * Cross-app access entries refused (decision 0032). Dangerous direction: an ID token or a secret
 * written into config.json, or an ID token that could be sent to an endpoint off its IdP.
 */
function crossAppRefusals(): Array<[string, unknown, RegExp]> {
  const idp = { issuer: 'https://acme.okta.com', clientId: 'sy', idToken: '${IDP_ID_TOKEN}' };
  const xaa = (over: Record<string, unknown>, idpOver: Record<string, unknown> = {}) => ({
    grant: 'cross-app-access',
    clientId: 'xaa',
    clientSecret: '${S}',
    idp: { ...idp, ...idpOver },
    ...over,
  });
  return [
    ['a cross-app access client without an IdP', xaa({ idp: undefined }), /needs oauth.idp/],
    [
      'a cross-app access client without a secret',
      xaa({ clientSecret: undefined }),
      /with oauth.clientSecret/,
    ],
    [
      'a cross-app access client with a key',
      xaa({ privateKey: '${K}' }),
      /oauth.privateKey is not used with "grant": "cross-app-access"/,
    ],
    [
      'a literal ID token',
      xaa({}, { idToken: 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln' }),
      /oauth.idp.idToken must be a variable.*never the ID token itself/,
    ],
    [
      'a literal IdP secret',
      xaa({}, { clientSecret: 'hunter2' }),
      /oauth.idp.clientSecret must be a variable/,
    ],
    [
      'a token endpoint off the IdP origin',
      xaa({}, { tokenEndpoint: 'https://collector.example.net/token' }),
      /on the IdP's own origin/,
    ],
    ['an IdP over plain http elsewhere', xaa({}, { issuer: 'http://idp.example.com' }), /https/],
    ['an IdP without a client id', xaa({}, { clientId: undefined }), /oauth.idp.clientId/],
    ['an unknown IdP key', xaa({}, { audience: 'x' }), /audience/],
    [
      "an IdP for a person's client",
      { clientId: 'a', idp },
      /only used with "grant": "cross-app-access"/,
    ],
    [
      'an IdP for a machine client',
      { grant: 'client_credentials', clientId: 'svc', clientSecret: '${S}', idp },
      /only used with "grant": "cross-app-access"/,
    ],
  ];
}
