import { describe, expect, test } from 'vitest';
import type { EnterpriseIdp } from '../shared/server-spec';
import { CLOCK_SKEW_SECONDS, idTokenProblem, jwtClaims } from './cross-app-access';

// Dangerous direction (decision 0032): the user's ID token sent to an IdP that did not issue it,
// for a client it was not issued to, or after it expired; or a message that quotes the token.

const NOW = 1_800_000_000;
const idp: EnterpriseIdp = {
  issuer: 'https://acme.okta.com',
  clientId: 'switchyard',
  idToken: '${IDP_ID_TOKEN}',
};

/** An unsigned JWT with `claims` (the client never checks the signature: the IdP does). */
function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'ES256' })}.${part(claims)}.c2lnbmF0dXJl`;
}

const good = { iss: 'https://acme.okta.com', aud: 'switchyard', sub: 'u', exp: NOW + 600 };

describe('idTokenProblem', () => {
  test.each<[string, string, RegExp | undefined]>([
    ['an ID token of this IdP for this client', jwt(good), undefined],
    ['an issuer with a trailing slash', jwt({ ...good, iss: 'https://acme.okta.com/' }), undefined],
    [
      'an audience list naming the client',
      jwt({ ...good, aud: ['other', 'switchyard'] }),
      undefined,
    ],
    ['no exp (the IdP decides)', jwt({ ...good, exp: undefined }), undefined],
    [
      'expired within the clock skew',
      jwt({ ...good, exp: NOW - CLOCK_SKEW_SECONDS + 1 }),
      undefined,
    ],
    ['not a JWT', 'opaque-token', /does not hold an ID token/],
    ['a JWT with a broken payload', 'a.%%%.c', /does not hold an ID token/],
    [
      'another issuer',
      jwt({ ...good, iss: 'https://evil.example.com' }),
      /issued by "https:\/\/evil\.example\.com".*not sent/,
    ],
    ['no issuer', jwt({ ...good, iss: undefined }), /\(no issuer\)/],
    ['another client', jwt({ ...good, aud: 'other-app' }), /another client than "switchyard"/],
    ['no audience', jwt({ ...good, aud: undefined }), /another client/],
    [
      'expired',
      jwt({ ...good, exp: NOW - CLOCK_SKEW_SECONDS }),
      /expired at .*update \$\{IDP_ID_TOKEN\}/,
    ],
  ])('%s', (_label, token, problem) => {
    const found = idTokenProblem('corp', idp, token, NOW);
    if (problem === undefined) expect(found).toBeUndefined();
    else {
      expect(found).toMatch(problem);
      // The message names the variable, never the token.
      expect(found).not.toContain(token);
    }
  });

  test('an issuer that is untrusted text is sanitized in the message', () => {
    const found = idTokenProblem('corp', idp, jwt({ ...good, iss: 'x\u001b[2Jy' }), NOW);
    expect(found).not.toContain('\u001b');
  });
});

describe('jwtClaims', () => {
  test('reads the claims of a JWT and nothing of other text', () => {
    expect(jwtClaims(jwt(good))).toMatchObject({ iss: good.iss, aud: good.aud, exp: good.exp });
    expect(jwtClaims('a.b')).toBeUndefined();
    expect(jwtClaims(jwt({ ...good, exp: 'soon' }))).toBeUndefined();
  });
});
