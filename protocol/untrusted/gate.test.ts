import { describe, expect, test } from 'vitest';
import { WITHHELD_JSON, gateText, safeDeep, safeJson, safeText } from './gate';

// Dangerous direction: a secret or an invisible character that reaches a model or a reader.
// A marker too many only costs readability.

// Built from parts so no scanner mistakes the fixtures for leaked tokens.
const GITHUB = ['gh', 'p_', 'a1B2'.repeat(9)].join('');
const ZERO_WIDTH = '\u200b';

describe('safeText', () => {
  test.each([
    ['plain text passes unchanged', 'hello world', {}, 'hello world'],
    ['a secret is redacted', `token ${GITHUB}`, {}, 'token [REDACTED:github]'],
    [
      'an escape sequence inside a token is dropped before redaction sees it',
      `token ${GITHUB.slice(0, 10)}\u001b[0m${GITHUB.slice(10)}`,
      {},
      'token [REDACTED:github]',
    ],
    ['terminal escapes are dropped', '\u001b[31mred\u001b[0m', {}, 'red'],
    ['bidi overrides become markers', 'a\u202eb', {}, 'a⟦U+202E⟧b'],
    [
      'the cap comes after redaction, so a cut cannot split a token into something unrecognised',
      `${GITHUB} ${'x'.repeat(100)}`,
      { maxChars: 60 },
      '[REDACTED:github] …[truncated: showing 18 of 118 characters]',
    ],
    ['newlines kept by default', 'a\nb', {}, 'a\nb'],
    ['newlines folded on request', 'a\nb', { keepNewlines: false }, 'a b'],
  ])('%s', (_name, input, options, expected) => {
    expect(safeText(input, options)).toBe(expected);
  });

  test('reports what it did', () => {
    const both = gateText(`${GITHUB} and ${GITHUB}`, { maxChars: 20 });
    expect(both.text).toContain('…[truncated');
    expect(both).toMatchObject({ redactions: 2, truncated: true });
    expect(gateText('fine')).toEqual({ text: 'fine', redactions: 0, truncated: false });
  });

  test('uses the one cap marker of protocol/untrusted/cap', () => {
    expect(safeText('y'.repeat(5_000), { maxChars: 100 })).toMatch(
      /…\[truncated: showing \d+ of 5,000 characters\]$/,
    );
  });
});

describe('safeDeep', () => {
  test('sanitizes and redacts every string, keys included', () => {
    const value = {
      [`k${ZERO_WIDTH}`]: [`v ${GITHUB}`, 3, true, null],
      [GITHUB]: { nested: 'a\u202eb' },
    };
    expect(safeDeep(value)).toEqual({
      'k⟦U+200B⟧': ['v [REDACTED:github]', 3, true, null],
      '[REDACTED:github]': { nested: 'a⟦U+202E⟧b' },
    });
  });

  test('keeps a "__proto__" key as data', () => {
    const parsed: unknown = JSON.parse('{"__proto__": {"polluted": true}}');
    const clean = safeDeep(parsed);
    expect(Object.getPrototypeOf(clean)).toBe(Object.prototype);
    expect(Object.keys(clean as object)).toEqual(['__proto__']);
  });
});

describe('safeJson', () => {
  test('sees a secret split across a key and its value', () => {
    const basic = ['Basic ', 'dXNlcjpwYXNzd29yZA=='].join('');
    expect(JSON.stringify(safeJson({ authorization: basic }))).not.toContain('dXNlcjpw');
  });

  test('passes clean data through', () => {
    expect(safeJson({ a: [1, 'two'] })).toEqual({ a: [1, 'two'] });
  });

  test('withholds the whole value when a redaction breaks its JSON', () => {
    // A PEM block is redacted to the end of the text when it has no END line: past the quotes.
    const pem = ['-----BEGIN ', 'PRIVATE KEY-----\nMIIE'].join('');
    expect(safeJson({ key: pem, other: 'x' })).toEqual(WITHHELD_JSON);
  });
});
