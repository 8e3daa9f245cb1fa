import { describe, expect, test } from 'vitest';
import { estimateTokens, estimateToolTokens, type ToolTokenInput } from './token-estimate';
import { seededRandom as prng } from '../test/support/seeded-random';

// Underestimating is the dangerous direction: a profile's budget then admits more tool schemas
// than fit, and every turn pays for them. Overestimating only shows less headroom than there is.

describe('estimateTokens examples', () => {
  // The cl100k / o200k columns were measured with gpt-tokenizer when the constants were chosen;
  // they document how far off the heuristic is on purpose, and are not checked here.
  test.each([
    // text, estimate, cl100k, o200k
    ['', 0, 0, 0],
    [' ', 0, 1, 1],
    ['a', 1, 1, 1],
    ['\n', 1, 1, 1],
    ['    ', 1, 1, 1],
    ['a  b', 3, 3, 3],
    ['hello world', 2, 2, 2],
    ['The quick brown fox jumps over the lazy dog.', 10, 10, 10],
    ['internationalization', 3, 2, 2],
    ['12345', 2, 2, 2],
    ['3.14159', 4, 4, 4],
    ['{"type":"object"}', 5, 5, 5],
    ['{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}', 18, 18, 19],
    ['é', 1, 1, 1],
    ['café', 2, 2, 2],
    ['Привет', 3, 3, 2],
    ['中文', 2, 2, 1],
    ['😀', 2, 2, 1],
    ['👍🏽', 4, 6, 3],
  ])('%j -> %i (cl100k %i, o200k %i)', (text, expected) => {
    expect(estimateTokens(text)).toBe(expected);
  });

  test('a lone surrogate is counted, not dropped', () => {
    expect(estimateTokens('\ud800')).toBe(1);
    expect(estimateTokens('a\udc00b')).toBe(3);
  });

  test('linear in size: a megabyte of text is estimated, not rejected', () => {
    const text = 'The server returned a list of files. '.repeat(30_000);
    const tokens = estimateTokens(text);
    expect(tokens).toBeGreaterThan(200_000);
    expect(tokens).toBeLessThan(300_000);
  });
});

describe('estimateToolTokens on real tool listings', () => {
  const readFile: ToolTokenInput = {
    name: 'read_file',
    description:
      'Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        tail: {
          description: 'If provided, returns only the last N lines of the file',
          type: 'number',
        },
        head: {
          description: 'If provided, returns only the first N lines of the file',
          type: 'number',
        },
      },
      required: ['path'],
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  };
  const readGraph: ToolTokenInput = {
    name: 'read_graph',
    description: 'Read the entire knowledge graph',
    inputSchema: {
      type: 'object',
      properties: {},
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  };
  const getSum: ToolTokenInput = {
    name: 'get-sum',
    description: 'Returns the sum of two numbers',
    inputSchema: {
      type: 'object',
      properties: {
        a: { type: 'number', description: 'First number' },
        b: { type: 'number', description: 'Second number' },
      },
      required: ['a', 'b'],
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  };
  const createEntities: ToolTokenInput = {
    name: 'create_entities',
    description: 'Create multiple new entities in the knowledge graph',
    inputSchema: {
      type: 'object',
      properties: {
        entities: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string', description: 'The name of the entity' },
              entityType: { type: 'string', description: 'The type of the entity' },
              observations: {
                type: 'array',
                items: { type: 'string' },
                description: 'An array of observation contents associated with the entity',
              },
            },
            required: ['name', 'entityType', 'observations'],
          },
        },
      },
      required: ['entities'],
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  };

  // Tools from @modelcontextprotocol/server-filesystem, -memory and -everything; cl100k and o200k
  // counts of the same `{name, description, input_schema}` JSON, measured with gpt-tokenizer.
  test.each([
    ['filesystem read_file', 110, 104, 106, readFile],
    ['memory read_graph', 43, 40, 40, readGraph],
    ['everything get-sum', 72, 68, 70, getSum],
    ['memory create_entities', 128, 124, 129, createEntities],
  ])('%s -> %i (cl100k %i, o200k %i)', (_label, expected, cl100k, o200k, tool) => {
    const tokens = estimateToolTokens(tool);
    expect(tokens).toBe(expected);
    for (const measured of [cl100k, o200k]) {
      expect(Math.abs(tokens / measured - 1)).toBeLessThanOrEqual(0.15);
    }
  });

  test('outputSchema and annotations are not counted (design D11)', () => {
    const withExtras = {
      ...readFile,
      outputSchema: { type: 'object', properties: { content: { type: 'string' } } },
      annotations: { readOnlyHint: true },
    };
    expect(estimateToolTokens(withExtras)).toBe(estimateToolTokens(readFile));
  });

  test.each([
    ['undefined', undefined],
    ['a BigInt', { max: 10n }],
    [
      'a cycle',
      (() => {
        const node: Record<string, unknown> = { type: 'object' };
        node.self = node;
        return node;
      })(),
    ],
  ])('a schema holding %s is estimated, not thrown on', (_label, inputSchema) => {
    const tokens = estimateToolTokens({ name: 't', description: 'd', inputSchema });
    expect(Number.isInteger(tokens)).toBe(true);
    expect(tokens).toBeGreaterThan(0);
  });
});

describe('monotone: more text is never fewer tokens', () => {
  const PIECES = [
    'a',
    'Z',
    'word',
    'internationalization',
    '7',
    '2024',
    ' ',
    '  ',
    '\n',
    '\t',
    '"',
    '":"',
    '{',
    '}',
    '.',
    'é',
    'Ж',
    '中',
    '😀',
    '\u200d',
    '\ud800',
  ];

  function randomText(random: () => number, pieces: number): string {
    let out = '';
    for (let i = 0; i < pieces; i++) out += PIECES[Math.floor(random() * PIECES.length)] ?? '';
    return out;
  }

  test('inserting a piece anywhere never lowers the estimate (5,000 seeded cases)', () => {
    const random = prng(0x70c5);
    for (let trial = 0; trial < 5_000; trial++) {
      const text = randomText(random, Math.floor(random() * 40));
      const at = Math.floor(random() * (text.length + 1));
      const longer = text.slice(0, at) + randomText(random, 1) + text.slice(at);
      const before = estimateTokens(text);
      const after = estimateTokens(longer);
      if (after < before) expect({ text, longer, before, after }).toBeUndefined();
    }
  });

  test('every prefix of a text costs no more than the text', () => {
    const random = prng(42);
    const text = randomText(random, 400);
    let previous = 0;
    for (let end = 1; end <= text.length; end++) {
      const tokens = estimateTokens(text.slice(0, end));
      expect(tokens).toBeGreaterThanOrEqual(previous);
      previous = tokens;
    }
  });

  test('a longer name or description never lowers a tool estimate', () => {
    const random = prng(7);
    const schema = { type: 'object', properties: { q: { type: 'string' } } };
    for (let trial = 0; trial < 1_000; trial++) {
      const name = randomText(random, 3);
      const description = randomText(random, 20);
      const base = estimateToolTokens({ name, description, inputSchema: schema });
      const extra = randomText(random, 1 + Math.floor(random() * 5));
      expect(
        estimateToolTokens({ name: name + extra, description, inputSchema: schema }),
      ).toBeGreaterThanOrEqual(base);
      expect(
        estimateToolTokens({ name, description: description + extra, inputSchema: schema }),
      ).toBeGreaterThanOrEqual(base);
    }
  });
});
