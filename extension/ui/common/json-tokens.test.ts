import { describe, expect, test } from 'vitest';
import {
  collapseTokens,
  jsonTokens,
  MAX_JSON_DEPTH,
  totalChars,
  type JsonToken,
} from './json-tokens';

/**
 * JsonView is what the user approves a call by: the dangerous direction is an argument the user
 * cannot see (hidden characters, cut content, a string that forges structure).
 */

function render(tokens: readonly JsonToken[]): string {
  return tokens
    .map((token) => {
      switch (token.kind) {
        case 'break':
          return '\n';
        case 'marker':
          return token.part.symbol + (token.part.lineBreak ? '\n' : '');
        case 'chars':
        case 'indent':
        case 'literal':
        case 'number':
        case 'punct':
          return token.text;
      }
    })
    .join('');
}

describe('jsonTokens', () => {
  test('pretty-prints like JSON.stringify(value, null, 2) for plain values', () => {
    const value = { path: '/tmp/a.txt', mode: 420, flags: [true, null], nested: { empty: [] } };
    expect(render(jsonTokens(value))).toBe(JSON.stringify(value, null, 2));
  });

  test('keeps the order the keys came in', () => {
    expect(render(jsonTokens({ b: 1, a: 2 }))).toBe('{\n  "b": 1,\n  "a": 2\n}');
  });

  test('shows newlines inside strings as a marker and a real line break', () => {
    expect(render(jsonTokens({ content: 'line 1\nline 2' }))).toBe(
      '{\n  "content": "line 1↵\nline 2"\n}',
    );
  });

  test('shows tabs, edge spaces and invisible characters', () => {
    expect(render(jsonTokens(' a\tb\u200B '))).toBe('"·a→b⟨ZWSP⟩·"');
  });

  test('marks invisible characters in keys too', () => {
    expect(render(jsonTokens({ 'pa\u200Bth': 1 }))).toBe('{\n  "pa⟨ZWSP⟩th": 1\n}');
  });

  test('escapes quotes and backslashes, so a string cannot fake a key', () => {
    const forged = 'a.txt", "overwrite": "true';
    expect(render(jsonTokens({ path: forged }))).toBe(
      '{\n  "path": "a.txt\\", \\"overwrite\\": \\"true"\n}',
    );
    expect(render(jsonTokens('C:\\dir'))).toBe('"C:\\\\dir"');
  });

  test('renders values JSON cannot hold instead of dropping them', () => {
    expect(render(jsonTokens({ a: undefined, n: Number.NaN }))).toBe(
      '{\n  "a": undefined,\n  "n": NaN\n}',
    );
  });

  test('shows very deep nesting as compact text instead of overflowing', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < MAX_JSON_DEPTH + 10; i += 1) deep = [deep];
    expect(render(jsonTokens(deep))).toContain('[[[["bottom"]]]]');
  });
});

describe('collapseTokens', () => {
  const tokens = jsonTokens({ content: 'x'.repeat(100) });

  test('keeps everything under the limit', () => {
    expect(collapseTokens(tokens, 1000)).toEqual({ shown: tokens, hidden: 0 });
  });

  test('cuts inside a long string and counts what it left out', () => {
    const { shown, hidden } = collapseTokens(tokens, 40);
    expect(totalChars(shown)).toBe(40);
    expect(hidden).toBe(totalChars(tokens) - 40);
    expect(render(shown)).toBe(`{\n  "content": "${'x'.repeat(24)}`);
  });
});
