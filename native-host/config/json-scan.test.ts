import { describe, expect, it, test } from 'vitest';
import { JsonSyntaxError, scanJson } from './json-scan';
import { lineColumn } from './json-format';
import type { JsonPath } from './json-format';

// Dangerous direction: accepting text JSON.parse rejects, or reading a different value from it.
// Then the host would run a config that every other tool reads differently. A rejection of valid
// JSON is only an annoyance, but it is a bug too: the scanner must agree with JSON.parse exactly.

function syntaxError(text: string): JsonSyntaxError {
  try {
    scanJson(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return error;
    throw error;
  }
  throw new Error(`expected a syntax error for ${JSON.stringify(text)}`);
}

describe('scanJson agrees with JSON.parse on valid text', () => {
  test.each([
    '{}',
    '[]',
    ' \t\r\n{ "a" : 1 } \n',
    '"text"',
    '0',
    '-0',
    '12.5e-3',
    '1E+2',
    'true',
    'null',
    '[false, null, true, -1, "x", {}, []]',
    '{"a": {"b": [1, {"c": "d"}]}}',
    '"esc \\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\uD83D\\uDE00 \\ud800"',
    '{"é😀": "日本語"}',
    '{"a": 1, "b": 2, "a": 3}',
    '{"__proto__": {"polluted": true}, "constructor": 1}',
  ])('%j', (text) => {
    expect(scanJson(text).value).toStrictEqual(JSON.parse(text));
  });

  it('keeps "__proto__" as an own key, not as the prototype', () => {
    const value = scanJson('{"__proto__": {"x": 1}}').value;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value as object)).toEqual(['__proto__']);
  });

  it('agrees on accept/reject for thousands of mutated documents', () => {
    const base =
      '{"mcpServers": {"a b": {"command": "npx", "args": ["-y", 1.5e3, null]}}, "x": [true]}';
    const alphabet = [
      '{',
      '}',
      '[',
      ']',
      '"',
      ',',
      ':',
      ' ',
      '\n',
      '\\',
      '/',
      '-',
      '0',
      '.',
      'e',
      'x',
    ];
    let seed = 12345;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 5000; round++) {
      let text = base;
      for (let edits = 1 + random(3); edits > 0; edits--) {
        const at = random(text.length + 1);
        const op = random(3);
        const char = alphabet[random(alphabet.length)]!;
        if (op === 0) text = text.slice(0, at) + char + text.slice(at);
        else if (op === 1) text = text.slice(0, at) + text.slice(at + 1);
        else text = text.slice(0, at) + char + text.slice(at + 1);
      }
      let expected: unknown;
      let parsed = true;
      try {
        expected = JSON.parse(text);
      } catch {
        parsed = false;
      }
      if (parsed) expect(scanJson(text).value, text).toStrictEqual(expected);
      else expect(() => scanJson(text), text).toThrow(JsonSyntaxError);
    }
  });
});

describe('scanJson rejects what JSON.parse rejects, at the right place', () => {
  test.each([
    // [text, line, column, reason]
    ['', 1, 1, /end of file/],
    ['{"a": 1,}', 1, 8, /trailing comma/],
    ['[1, 2,\n]', 1, 6, /trailing comma/],
    ['{\n  // note\n  "a": 1\n}', 2, 3, /comments are not allowed.*JSONC/],
    ['{"a": 1 /* c */}', 1, 9, /comments are not allowed/],
    ["{'a': 1}", 1, 2, /double quotes/],
    ['{a: 1}', 1, 2, /property name 'a' must be in double quotes/],
    ['{"a": 1\n "b": 2}', 2, 2, /',' is missing/],
    ['{"a" 1}', 1, 6, /':' is missing/],
    ['{"a": undefined}', 1, 7, /undefined is not a JSON value/],
    ['[NaN]', 1, 2, /NaN is not a JSON value/],
    ['[01]', 1, 2, /leading zeros/],
    ['[1.]', 1, 2, /digit must follow/],
    ['[-]', 1, 2, /'-' must be followed/],
    ['["a\nb"]', 1, 4, /line break inside a string/],
    ['["a\tb"]', 1, 4, /control character U\+0009/],
    ['["C:\\Users"]', 1, 5, /invalid escape '\\U'/],
    ['["\\u12"]', 1, 3, /four hexadecimal digits/],
    ['{"a": "open', 1, 7, /never closed/],
    ['{"a": 1} x', 1, 10, /after the end of the JSON value/],
    ['{"a": 1}}', 1, 9, /unexpected '}'/],
    ['[\u00a0]', 1, 2, /character U\+00A0/],
    ['{"a":', 1, 6, /end of file/],
  ])('%j -> %i:%i', (text, line, column, reason) => {
    expect(() => {
      JSON.parse(text);
    }).toThrow();
    const error = syntaxError(text);
    expect(lineColumn(text, error.offset)).toEqual({ line, column });
    expect(error.reason).toMatch(reason);
  });

  it('refuses nesting deeper than the cap instead of overflowing the stack', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(syntaxError(deep).reason).toMatch(/nested deeper than 64 levels/);
    expect(() => scanJson('['.repeat(64) + ']'.repeat(64))).not.toThrow();
  });
});

describe('locate', () => {
  const text = '{\n  "a": {\n    "b": [10, "x"]\n  },\n  "0": 1\n}';
  const scanned = scanJson(text);
  test.each<[JsonPath, { line: number; column: number } | undefined]>([
    [[], { line: 1, column: 1 }],
    [['a'], { line: 2, column: 8 }],
    [['a', 'b'], { line: 3, column: 10 }],
    [['a', 'b', 1], { line: 3, column: 15 }],
    [['0'], { line: 5, column: 8 }],
    [[0], undefined],
    [['a', 'c'], undefined],
  ])('%j', (path, expected) => {
    const location = scanned.locate(path);
    expect(location && lineColumn(text, location.valueOffset)).toEqual(expected);
  });

  it('records the key of each member and every duplicate', () => {
    const dup = scanJson('{"a": 1,\n "a": 2}');
    expect(dup.duplicates).toEqual([{ path: ['a'], keyOffset: 10 }]);
    expect(dup.locate(['a'])).toEqual({ keyOffset: 10, valueOffset: 15 });
  });
});
