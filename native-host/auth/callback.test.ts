import { describe, expect, test } from 'vitest';
import { parseCallback } from './callback';

const REDIRECT = 'http://127.0.0.1:5000/callback';
const STATE = 'abcdefghijklmnopqrstuvwxyz012345';

// Dangerous direction: accepting a callback that is not ours (another path, host or port, a
// missing or different state): that is the login-CSRF / code-injection the state check exists for.
describe('parseCallback', () => {
  test.each([
    ['a code', `${REDIRECT}?code=c1&state=${STATE}`, { kind: 'code', code: 'c1', iss: undefined }],
    [
      'a code with iss',
      `${REDIRECT}?code=c1&state=${STATE}&iss=https%3A%2F%2Fas.example`,
      { kind: 'code', code: 'c1', iss: 'https://as.example' },
    ],
    [
      'an error',
      `${REDIRECT}?error=access_denied&error_description=no&state=${STATE}`,
      { kind: 'error', error: 'access_denied', description: 'no', iss: undefined },
    ],
  ])('reads %s', (_what, url, expected) => {
    expect(parseCallback(url, REDIRECT, STATE)).toEqual(expected);
  });

  test.each([
    ['another port', `http://127.0.0.1:5001/callback?code=c&state=${STATE}`, 'not-our-redirect'],
    ['another path', `http://127.0.0.1:5000/other?code=c&state=${STATE}`, 'not-our-redirect'],
    ['another host', `http://localhost:5000/callback?code=c&state=${STATE}`, 'not-our-redirect'],
    ['https instead', `https://127.0.0.1:5000/callback?code=c&state=${STATE}`, 'not-our-redirect'],
    ['garbage', 'not a url', 'not-our-redirect'],
    ['no state', `${REDIRECT}?code=c`, 'state-mismatch'],
    ['another state', `${REDIRECT}?code=c&state=${STATE.slice(1)}x`, 'state-mismatch'],
    ['a shorter state', `${REDIRECT}?code=c&state=abc`, 'state-mismatch'],
    ['two states', `${REDIRECT}?code=c&state=${STATE}&state=${STATE}`, 'state-mismatch'],
    ['an empty state', `${REDIRECT}?code=c&state=`, 'state-mismatch'],
    ['neither code nor error', `${REDIRECT}?state=${STATE}`, 'empty'],
    ['two codes', `${REDIRECT}?code=a&code=b&state=${STATE}`, 'empty'],
    ['an overlong URL', `${REDIRECT}?code=${'c'.repeat(9000)}&state=${STATE}`, 'not-our-redirect'],
  ])('refuses %s', (_what, url, why) => {
    expect(parseCallback(url, REDIRECT, STATE)).toEqual({ kind: 'refused', why });
  });

  test('an error with a bad state is refused before its description is read', () => {
    const result = parseCallback(
      `${REDIRECT}?error=access_denied&error_description=click%20evil.example&state=x`,
      REDIRECT,
      STATE,
    );
    expect(result).toEqual({ kind: 'refused', why: 'state-mismatch' });
  });
});
