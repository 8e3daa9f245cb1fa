import { describe, expect, it, test } from 'vitest';
import { ConfigError } from '../config/load';
import { MAX_DOCUMENT_DEPTH, parseJsonDocument, parseTomlDocument } from './parse-document';

/** Parsing foreign files: a broken file is rejected whole, with where it broke. */

function error(run: () => unknown): ConfigError {
  try {
    run();
  } catch (caught) {
    if (caught instanceof ConfigError) return caught;
    throw caught;
  }
  throw new Error('expected a ConfigError');
}

describe('parseJsonDocument', () => {
  test.each<[string, string, unknown]>([
    ['strict JSON', '{"a": [1, "x"]}', { a: [1, 'x'] }],
    ['a byte order mark', '\uFEFF{"a": 1}', { a: 1 }],
    ['comments', '// settings\n{ /* one */ "a": 1 // two\n}', { a: 1 }],
    ['trailing commas', '{"a": [1, 2,], "b": {"c": 3,},}', { a: [1, 2], b: { c: 3 } }],
  ])('reads %s', (_, text, expected) => {
    expect(parseJsonDocument(text, '/f.json')).toEqual(expected);
  });

  test.each(['{"__proto__": {"command": "x"}}', '// c\n{"__proto__": {"command": "x"},}'])(
    'keeps "__proto__" as an own key, not a prototype: %s',
    (text) => {
      const value = parseJsonDocument(text, '/f.json');
      expect(Object.keys(value as object)).toEqual(['__proto__']);
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    },
  );

  test.each<[string, string, string]>([
    [
      'cut off',
      '{\n  "mcpServers": {\n    "a": {',
      "/f.json:3:11: a '}' is missing (the file may be cut off)",
    ],
    ['a missing comma', '{"a": 1\n "b": 2}', "/f.json:2:2: a ',' is missing"],
    ['an unclosed string', '{"a": "x', '/f.json:1:7: a string is not closed'],
    ['empty', '  \n', '/f.json: the file is empty'],
    ['only a BOM', '\uFEFF', '/f.json: the file is empty'],
    ['text after the value', '{} {}', '/f.json:1:4: unexpected text after the end'],
  ])('rejects %s', (_, text, message) => {
    expect(error(() => parseJsonDocument(text, '/f.json')).message).toContain(message);
  });

  it('says nothing was imported', () => {
    expect(error(() => parseJsonDocument('{', '/f.json')).detail).toContain(
      'so nothing was imported from it',
    );
  });

  test.each([
    ['strict', (n: number) => '['.repeat(n) + ']'.repeat(n)],
    ['JSONC', (n: number) => `// c\n${'['.repeat(n)}${']'.repeat(n)}`],
  ])('refuses %s nesting past the cap, even far past it', (_, make) => {
    expect(() => parseJsonDocument(make(MAX_DOCUMENT_DEPTH), '/f.json')).not.toThrow();
    for (const depth of [MAX_DOCUMENT_DEPTH + 2, 200_000]) {
      expect(error(() => parseJsonDocument(make(depth), '/f.json')).detail).toContain(
        `nested deeper than ${MAX_DOCUMENT_DEPTH} levels`,
      );
    }
  });
});

describe('parseTomlDocument', () => {
  it('reads tables, inline tables and arrays', () => {
    const text = '[mcp_servers.a]\ncommand = "x"\nargs = ["-y"]\nenv = { "K" = "v" }\n';
    expect(parseTomlDocument(text, '/c.toml')).toEqual({
      mcp_servers: { a: { command: 'x', args: ['-y'], env: { K: 'v' } } },
    });
  });

  test.each<[string, string, string]>([
    ['an unclosed array', '[a]\nb = ["x"\n', '/c.toml:3:1: '],
    ['a key without a value', '[a]\nb =\n', '/c.toml:2:'],
    ['a table defined twice', '[a]\nb = 1\n[a]\nc = 2\n', '/c.toml:3:'],
    ['empty', '', '/c.toml: the file is empty'],
  ])('rejects %s with its line', (_, text, message) => {
    const caught = error(() => parseTomlDocument(text, '/c.toml'));
    expect(caught.message).toContain(message);
    // Only the first line of the parser's message: not the quoted file text after it.
    expect(caught.message).not.toContain('\n');
  });
});
