import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { MAX_MINIFY_DEPTH, MAX_MINIFY_NODES, minifySchema } from './schema-minify';
import { estimateTokens } from './token-estimate';
import { seededRandom } from '../test/support/seeded-random';

// The dangerous direction is losing information: a constraint, a name or a description the model
// needed and no longer sees makes it call tools wrongly, silently. A byte kept that could have
// gone only costs a token. So every case below is checked by the oracle too, which allows exactly
// the documented drops and demands everything else back verbatim, at the same place.

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SCHEMA_KEYWORDS = [
  'additionalItems',
  'additionalProperties',
  'contains',
  'contentSchema',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
];
const LIST_KEYWORDS = ['allOf', 'anyOf', 'items', 'oneOf', 'prefixItems'];
const NAMED_MAPS = ['$defs', 'definitions', 'properties'];
const UNNAMED_MAPS = ['dependencies', 'dependentSchemas', 'patternProperties'];

const letters = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** The JSON types a `type` value accepts (`number` includes `integer`). */
function acceptedTypes(type: unknown): unknown {
  const list: unknown[] = Array.isArray(type) ? type : [type];
  if (!list.every((t) => typeof t === 'string')) return type;
  const set = new Set(list);
  if (set.has('number')) set.add('integer');
  return [...set].sort();
}

/** The documented drops, restated independently of the implementation. */
function mayDrop(schema: Json, key: string, names: readonly string[]): boolean {
  const value = schema[key];
  const blank = typeof value === 'string' && value.trim() === '';
  switch (key) {
    case '$schema':
    case '$comment':
      return typeof value === 'string';
    case 'description':
      return blank;
    case 'title': {
      if (typeof value !== 'string') return false;
      const description = schema['description'];
      return (
        blank ||
        (typeof description === 'string' && description.trim() === value.trim()) ||
        names.some((name) => letters(name) === letters(value))
      );
    }
    case 'additionalProperties':
      return (
        value === true ||
        // A schema whose lossless form is {} (accepts anything), as the oracle itself judges.
        (isObject(value) && lostInformation(value, {}).length === 0) ||
        (value === false && isObject(schema['properties']) && !('patternProperties' in schema))
      );
    case 'required':
      return Array.isArray(value) && value.length === 0;
    default:
      return false;
  }
}

/**
 * Walks `original` and `minified` side by side: `minified` has no key `original` lacks, every
 * missing key is a documented drop, `type` accepts the same JSON types, sub-schemas are checked
 * the same way, and every other value (enum, const, default, bounds, pattern, format, $ref...) is
 * deep-equal. Returns the problems found, each with its path.
 */
function lostInformation(
  original: unknown,
  minified: unknown,
  names: readonly string[] = [],
  path = '#',
): string[] {
  if (!isObject(original) || !isObject(minified)) {
    return JSON.stringify(original) === JSON.stringify(minified) ? [] : [`${path}: changed`];
  }
  const problems: string[] = [];
  for (const key of Object.keys(minified)) {
    if (!(key in original)) problems.push(`${path}/${key}: added`);
  }
  for (const key of Object.keys(original)) {
    const at = `${path}/${key}`;
    const before = original[key];
    if (!(key in minified)) {
      if (!mayDrop(original, key, names)) problems.push(`${at}: dropped`);
      continue;
    }
    const after = minified[key];
    const named = NAMED_MAPS.includes(key);
    if (key === 'type') {
      if (JSON.stringify(acceptedTypes(before)) !== JSON.stringify(acceptedTypes(after))) {
        problems.push(`${at}: accepts other types`);
      }
    } else if ((named || UNNAMED_MAPS.includes(key)) && isObject(before) && isObject(after)) {
      if (JSON.stringify(Object.keys(before)) !== JSON.stringify(Object.keys(after))) {
        problems.push(`${at}: other names`);
      }
      for (const name of Object.keys(before)) {
        problems.push(
          ...lostInformation(before[name], after[name], named ? [name] : [], `${at}/${name}`),
        );
      }
    } else if (LIST_KEYWORDS.includes(key) && Array.isArray(before) && Array.isArray(after)) {
      const list: unknown[] = before;
      if (list.length !== after.length) problems.push(`${at}: other length`);
      list.forEach((sub, i) => {
        problems.push(...lostInformation(sub, after[i], [], `${at}/${i}`));
      });
    } else if (SCHEMA_KEYWORDS.includes(key)) {
      problems.push(...lostInformation(before, after, [], at));
    } else if (JSON.stringify(before) !== JSON.stringify(after)) {
      problems.push(`${at}: changed`);
    }
  }
  return problems;
}

const ROOT_SUFFIXES = ['', 'args', 'arguments', 'input', 'params', 'parameters', 'request'];

function checked(schema: Json, toolName?: string): Json {
  const minified = minifySchema(schema, toolName === undefined ? {} : { toolName });
  const rootNames = toolName === undefined ? [] : ROOT_SUFFIXES.map((s) => toolName + s);
  expect(lostInformation(schema, minified, rootNames)).toEqual([]);
  // Idempotent, and never dearer than what it came from.
  expect(minifySchema(minified, toolName === undefined ? {} : { toolName })).toEqual(minified);
  expect(estimateTokens(JSON.stringify(minified))).toBeLessThanOrEqual(
    estimateTokens(JSON.stringify(schema)),
  );
  return minified;
}

describe('minifySchema: what goes', () => {
  test.each<[string, Json, Json, string?]>([
    [
      '$schema at the root (zod-to-json-schema, every reference server)',
      {
        type: 'object',
        properties: { a: { type: 'string' } },
        $schema: 'http://json-schema.org/draft-07/schema#',
      },
      { type: 'object', properties: { a: { type: 'string' } } },
    ],
    [
      '$schema and $comment in a sub-schema',
      { type: 'object', properties: { a: { $schema: 'x', $comment: 'todo', type: 'string' } } },
      { type: 'object', properties: { a: { type: 'string' } } },
    ],
    [
      'a property title that repeats its name (pydantic)',
      {
        type: 'object',
        properties: { file_path: { title: 'File Path', type: 'string' } },
        required: ['file_path'],
      },
      { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
    ],
    [
      'a root title that repeats the tool name (FastMCP)',
      { type: 'object', title: 'read_fileArguments', properties: {} },
      { type: 'object', properties: {} },
      'read_file',
    ],
    [
      'a $defs title that repeats its key',
      { type: 'object', $defs: { Edit: { title: 'Edit', type: 'object' } } },
      { type: 'object', $defs: { Edit: { type: 'object' } } },
    ],
    [
      'a title equal to the description',
      { type: 'object', properties: { q: { title: 'Search text', description: 'Search text' } } },
      { type: 'object', properties: { q: { description: 'Search text' } } },
    ],
    [
      'blank titles and descriptions',
      { type: 'object', description: ' ', properties: { q: { title: '', description: '' } } },
      { type: 'object', properties: { q: {} } },
    ],
    [
      'additionalProperties: false on an object listing its properties (zod 4)',
      {
        type: 'object',
        properties: { a: { type: 'object', properties: { b: {} }, additionalProperties: false } },
        additionalProperties: false,
      },
      { type: 'object', properties: { a: { type: 'object', properties: { b: {} } } } },
    ],
    [
      'additionalProperties true or {} (the default)',
      {
        type: 'object',
        properties: { a: { type: 'object', additionalProperties: {} } },
        additionalProperties: true,
      },
      { type: 'object', properties: { a: { type: 'object' } } },
    ],
    [
      'required: [] (the default)',
      { type: 'object', properties: {}, required: [] },
      { type: 'object', properties: {} },
    ],
    [
      'redundant type unions',
      {
        type: ['object'],
        properties: {
          a: { type: ['string', 'string'] },
          b: { type: ['integer', 'number', 'null'] },
        },
      },
      { type: 'object', properties: { a: { type: 'string' }, b: { type: ['number', 'null'] } } },
    ],
    [
      'drops in every kind of sub-schema position',
      {
        type: 'object',
        properties: {
          list: { type: 'array', items: { $comment: 'c', type: 'string' } },
          tuple: { type: 'array', items: [{ $comment: 'c' }], additionalItems: { $comment: 'c' } },
          either: {
            anyOf: [{ $comment: 'c' }],
            oneOf: [{ $comment: 'c' }],
            allOf: [{ $comment: 'c' }],
          },
          not: { not: { $comment: 'c' } },
          cond: { if: { $comment: 'c' }, then: { $comment: 'c' }, else: { $comment: 'c' } },
        },
        patternProperties: { '^x-': { $comment: 'c' } },
        dependencies: { a: { $comment: 'c' }, b: ['a'] },
        definitions: { d: { $comment: 'c' } },
      },
      {
        type: 'object',
        properties: {
          list: { type: 'array', items: { type: 'string' } },
          tuple: { type: 'array', items: [{}], additionalItems: {} },
          either: { anyOf: [{}], oneOf: [{}], allOf: [{}] },
          not: { not: {} },
          cond: { if: {}, then: {}, else: {} },
        },
        patternProperties: { '^x-': {} },
        dependencies: { a: {}, b: ['a'] },
        definitions: { d: {} },
      },
    ],
  ])('%s', (_label, schema, expected, toolName) => {
    expect(checked(schema, toolName)).toEqual(expected);
  });
});

describe('minifySchema: what stays', () => {
  test.each<[string, Json, string?]>([
    [
      'properties named like keywords',
      {
        type: 'object',
        properties: {
          $schema: { type: 'string' },
          title: { type: 'string', title: 'Heading' },
          description: { type: 'string' },
          additionalProperties: { type: 'boolean' },
          required: { type: 'array' },
        },
        required: ['title', '$schema'],
      },
    ],
    [
      'data that looks like a schema: enum, const, default, examples',
      {
        type: 'object',
        properties: {
          mode: {
            enum: [{ $schema: 'x', title: 'mode' }, ''],
            const: { required: [] },
            default: { additionalProperties: true, description: '' },
            examples: [{ $comment: 'kept' }],
          },
        },
      },
    ],
    [
      'every constraint keyword',
      {
        type: 'object',
        properties: {
          s: { type: 'string', minLength: 1, maxLength: 9, pattern: '^a', format: 'uri' },
          n: { type: 'integer', minimum: 0, maximum: 10, exclusiveMaximum: 11, multipleOf: 2 },
          a: { type: 'array', minItems: 1, maxItems: 3, uniqueItems: true, contains: {} },
          o: {
            type: 'object',
            minProperties: 1,
            maxProperties: 2,
            propertyNames: { pattern: 'x' },
          },
          e: { enum: ['a', 'b'], default: 'a', examples: ['b'], deprecated: true, readOnly: true },
          r: { $ref: '#/$defs/r' },
        },
        required: ['s'],
        $defs: { r: { $ref: '#' } },
        'x-vendor': { $schema: 'kept' },
      },
    ],
    [
      'titles that say more than the name',
      {
        type: 'object',
        title: 'Search the web',
        properties: { q: { title: 'Query text', type: 'string' } },
      },
      'search',
    ],
    [
      'additionalProperties false where the keys are not all listed',
      {
        type: 'object',
        additionalProperties: false,
        patternProperties: { '^x-': {} },
        properties: { a: {}, b: { type: 'object', additionalProperties: false } },
      },
    ],
    [
      'additionalProperties as a schema, and unions that are not redundant',
      {
        type: ['object', 'null'],
        additionalProperties: { type: 'string' },
        properties: { a: { type: [] }, b: { type: ['integer', 'string'] } },
      },
    ],
  ])('%s', (_label, schema, toolName) => {
    expect(checked(schema, toolName)).toEqual(schema);
  });

  test('the input is not modified', () => {
    const schema = { type: 'object', $schema: 'x', properties: { a: { title: 'A' } } };
    const copy = structuredClone(schema);
    minifySchema(schema);
    expect(schema).toEqual(copy);
  });

  test('a "__proto__" property stays a property', () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string","title":"__proto__"}}}',
    ) as Json;
    const minified = minifySchema(schema);
    expect(Object.keys(minified['properties'] as Json)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(minified['properties'])).toBe(Object.prototype);
  });
});

describe('minifySchema on the reference servers (server-everything, -filesystem, -memory)', () => {
  // Their inputSchemas as listed by the versions in package.json (bench/token-cost.ts measures the
  // listings live).
  const fixture = JSON.parse(
    readFileSync(join(__dirname, '../test/fixtures/reference-input-schemas.json'), 'utf8'),
  ) as Record<string, Record<string, Json>>;
  const cases = Object.entries(fixture).flatMap(([server, tools]) =>
    Object.entries(tools).map(([tool, schema]) => [`${server} ${tool}`, tool, schema] as const),
  );

  test.each(cases)('%s loses nothing', (_label, tool, schema) => {
    const minified = checked(schema, tool);
    expect(JSON.stringify(minified)).not.toContain('$schema');
  });

  test('the listing costs at least 15% fewer tokens', () => {
    const tokens = (minify: boolean): number =>
      cases.reduce(
        (sum, [, tool, schema]) =>
          sum +
          estimateTokens(
            JSON.stringify(minify ? minifySchema(schema, { toolName: tool }) : schema),
          ),
        0,
      );
    expect(tokens(true)).toBeLessThan(tokens(false) * 0.85);
  });
});

describe('minifySchema on hostile input: total and bounded', () => {
  test('nesting far deeper than the bound is kept, not walked', () => {
    let deep: Json = { $comment: 'bottom' };
    for (let i = 0; i < 20_000; i += 1) deep = { type: 'object', properties: { a: deep } };
    const minified = minifySchema(deep);
    let at: unknown = minified;
    let depth = 1;
    while (isObject(at) && isObject(at['properties'])) {
      at = at['properties']['a'];
      depth += 1;
    }
    expect(depth).toBe(20_001);
    // Past the bound the original objects are kept as they are.
    expect(JSON.stringify(at)).toBe('{"$comment":"bottom"}');
  });

  test('a cyclic object ends at the bounds instead of looping', () => {
    const cyclic: Json = { type: 'object', $comment: 'c' };
    cyclic['properties'] = { self: cyclic };
    const minified = minifySchema(cyclic);
    expect(minified['$comment']).toBeUndefined();
    let at: unknown = minified;
    for (let i = 0; i <= MAX_MINIFY_DEPTH; i += 1)
      at = ((at as Json)['properties'] as Json)['self'];
    expect(at).toBe(cyclic);
  });

  test('more schema objects than the node bound: the rest is kept as it is', () => {
    const properties: Json = {};
    for (let i = 0; i < MAX_MINIFY_NODES + 10; i += 1) properties[`p${i}`] = { $comment: 'c' };
    const minified = minifySchema({ type: 'object', properties });
    const shown = minified['properties'] as Json;
    expect(Object.keys(shown)).toHaveLength(MAX_MINIFY_NODES + 10);
    expect(shown['p0']).toEqual({});
    expect(shown[`p${MAX_MINIFY_NODES + 9}`]).toEqual({ $comment: 'c' });
  });

  test('a huge enum is kept whole', () => {
    const values = Array.from({ length: 200_000 }, (_, i) => `v${i}`);
    const minified = minifySchema({ type: 'object', properties: { e: { enum: values } } });
    expect((minified['properties'] as Json)['e']).toEqual({ enum: values });
  });

  test('$ref cycles are never followed', () => {
    const schema = {
      type: 'object',
      $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } },
      properties: { x: { $ref: '#' } },
    };
    expect(checked(schema)).toEqual(schema);
  });

  test('a value that throws when read is returned as it came', () => {
    const hostile = new Proxy(
      { type: 'object' },
      {
        ownKeys: () => {
          throw new Error('no');
        },
      },
    );
    expect(minifySchema(hostile)).toBe(hostile);
  });

  test('keywords with values of the wrong kind are kept', () => {
    const schema = {
      type: 'object',
      properties: 'nope',
      items: 3,
      anyOf: { not: 'a list' },
      title: 7,
      $schema: { not: 'a string' },
      additionalProperties: 'no',
      required: 'a',
      description: null,
    };
    expect(checked(schema)).toEqual(schema);
  });
});

describe('minifySchema fuzz: random schemas lose nothing', () => {
  const KEYS = [
    'type',
    'title',
    'description',
    '$schema',
    '$comment',
    'additionalProperties',
    'required',
    'properties',
    'items',
    'anyOf',
    'enum',
    'default',
    'minimum',
    'pattern',
    'patternProperties',
    '$defs',
    'not',
  ];
  const NAMES = ['a', 'title', '$schema', 'file_path', 'required', 'x'];
  const TEXTS = ['', ' ', 'A', 'File Path', 'x', 'file path', 'Title'];

  function randomSchema(next: () => number, depth: number): unknown {
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
    if (depth > 3 || next() < 0.15) return pick([true, false, {}, 'str', 1, null]);
    const schema: Json = {};
    const count = Math.floor(next() * 6);
    for (let i = 0; i < count; i += 1) {
      const key = pick(KEYS);
      switch (key) {
        case 'type':
          schema[key] = pick(['string', ['string'], ['integer', 'number'], ['object', 'null'], []]);
          break;
        case 'title':
        case 'description':
        case '$schema':
        case '$comment':
        case 'pattern':
          schema[key] = pick(TEXTS);
          break;
        case 'required':
          schema[key] = pick([[], ['a'], 'a']);
          break;
        case 'properties':
        case 'patternProperties':
        case '$defs': {
          const map: Json = {};
          for (let j = Math.floor(next() * 3); j > 0; j -= 1)
            map[pick(NAMES)] = randomSchema(next, depth + 1);
          schema[key] = map;
          break;
        }
        case 'anyOf':
          schema[key] = [randomSchema(next, depth + 1), randomSchema(next, depth + 1)];
          break;
        case 'enum':
        case 'default':
          schema[key] = randomSchema(next, depth + 1);
          break;
        default:
          schema[key] = key === 'minimum' ? next() : randomSchema(next, depth + 1);
      }
    }
    return schema;
  }

  test.each(Array.from({ length: 300 }, (_, i) => i))('case %i', (index) => {
    const next = seededRandom(1_500 + index);
    const body = randomSchema(next, 0);
    const schema = { type: 'object', ...(isObject(body) ? body : {}) };
    checked(schema, next() < 0.5 ? 'file_path' : undefined);
  });
});
