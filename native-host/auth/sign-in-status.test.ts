import { expect, test } from 'vitest';
import { MAX_SCOPES } from '../config/oauth-entry';
import { describeTokens } from './sign-in-status';

// Dangerous direction: the authorization server's words shown as if they were ours. What its
// token response says was granted reaches `switchyard auth --status` (a terminal) and the
// popup's "Signed in" label, as the subject does: through the untrusted-text gate.

const status = (scope: string, issuer?: string) =>
  describeTokens('remote', {
    resource: 'https://mcp.example/mcp',
    savedAt: 0,
    tokens: {
      access_token: 'x',
      token_type: 'Bearer',
      scope,
      ...(issuer === undefined ? {} : { issuer }),
    },
  });

test('scopes and the issuer go through the gate: no terminal escape, no bidi override', () => {
  const shown = status(
    'read \u001b]0;pwned\u0007\u001b[2J \u202eetirw',
    'https://as\u202e.example',
  );
  const text = `${shown.scopes.join(' ')} ${shown.issuer ?? ''}`;
  expect(text).not.toContain('\u001b');
  expect(text).not.toContain('\u202e');
  expect(shown.scopes[0]).toBe('read');
});

test(`at most ${String(MAX_SCOPES)} scopes of at most 128 characters are shown`, () => {
  const shown = status(
    Array.from({ length: 100 }, (_, i) => `s${String(i)}`.padEnd(500, 'x')).join(' '),
  );
  expect(shown.scopes).toHaveLength(MAX_SCOPES);
  expect(Math.max(...shown.scopes.map((s) => s.length))).toBeLessThanOrEqual(128);
});
