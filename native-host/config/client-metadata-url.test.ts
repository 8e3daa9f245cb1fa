import { describe, expect, test } from 'vitest';
import { clientMetadataUrlProblem, readClientMetadataUrl } from './client-metadata-url';

// Dangerous direction: a client id that is not a URL Switchyard controls over https (plain http
// lets anyone on the path swap the redirect URIs the authorization server reads from it).
describe('clientMetadataUrlProblem', () => {
  test.each<[string, unknown, RegExp | undefined]>([
    ['an https document', 'https://switchyard.example.com/oauth/client.json', undefined],
    ['with a query', 'https://example.com/client.json?v=2', undefined],
    ['plain http', 'http://example.com/client.json', /must use https/],
    ['the bare origin', 'https://example.com/', /add its path/],
    ['a fragment', 'https://example.com/c.json#x', /#fragment/],
    ['credentials', 'https://u:p@example.com/c.json', /user name/],
    ['not a URL', 'client.json', /absolute https URL/],
    ['not a string', 7, /must be the https URL/],
  ])('%s', (_label, value, problem) => {
    const found = clientMetadataUrlProblem(value);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(problem);
  });

  test('absent means dynamic registration, a bad one a warning', () => {
    expect(readClientMetadataUrl({})).toEqual({});
    expect(readClientMetadataUrl({ oauthClientMetadataUrl: 'http://x/y' }).warning).toMatch(
      /ignored \(sign-ins register a client dynamically\)/,
    );
    expect(
      readClientMetadataUrl({ oauthClientMetadataUrl: 'https://example.com/client.json' }),
    ).toEqual({ url: 'https://example.com/client.json' });
  });
});
