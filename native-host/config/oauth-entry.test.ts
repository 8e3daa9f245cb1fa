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
  ])('refuses %s', (_label, input, message) => {
    const parsed = OAuthClientSchema.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message).join('\n')).toMatch(message);
  });
});
