import { describe, expect, test } from 'vitest';
import { assertNever, isRecord, messageOf, nestedDeeperThan } from './guards';

/*
 * Dangerous direction for isRecord: an array or null taken for an object (its keys then read as
 * fields). For messageOf: a thrown value that produces no message at all, or throws itself.
 */

describe('isRecord', () => {
  test.each<[string, unknown, boolean]>([
    ['an empty object', {}, true],
    ['an object with keys', { a: 1 }, true],
    ['an object without a prototype', Object.create(null), true],
    ['null', null, false],
    ['undefined', undefined, false],
    ['an array', [], false],
    ['an array with items', [{ a: 1 }], false],
    ['a string', 'a', false],
    ['a number', 0, false],
    ['a function', () => undefined, false],
  ])('%s -> %s', (_name, value, expected) => {
    expect(isRecord(value)).toBe(expected);
  });
});

// Dangerous direction for nestedDeeperThan: a value deeper than the limit reported as within it
// (it then reaches a recursive walk that overflows), or a walk that itself overflows.
describe('nestedDeeperThan', () => {
  const nest = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
  test.each<[string, unknown, number, boolean]>([
    ['a string has no level', 'x', 0, false],
    ['null has no level', null, 0, false],
    ['{} is one level', {}, 1, false],
    ['{} is past zero levels', {}, 0, true],
    ['[[]] is two levels', [[]], 2, false],
    ['[[]] is past one level', [[]], 1, true],
    ['the deepest branch counts', { a: 1, b: { c: [0] }, d: [] }, 2, true],
    ['the deepest branch counts, within', { a: 1, b: { c: [0] }, d: [] }, 3, false],
    [
      'a "__proto__" key is a member like any other',
      JSON.parse('{"__proto__": {"x": {}}}'),
      2,
      true,
    ],
    ['64 levels at a limit of 64', nest(64), 64, false],
    ['65 levels at a limit of 64', nest(65), 64, true],
    ['100,000 levels, measured without recursion', nest(100_000), 64, true],
  ])('%s', (_name, value, maxDepth, expected) => {
    expect(nestedDeeperThan(value, maxDepth)).toBe(expected);
  });
});

describe('messageOf', () => {
  test.each<[string, unknown, string]>([
    ['an Error', new Error('boom'), 'boom'],
    ['an Error subclass', new TypeError('bad type'), 'bad type'],
    ['a string', 'plain text', 'plain text'],
    ['a number', 42, '42'],
    ['null', null, 'null'],
    ['undefined', undefined, 'undefined'],
    ['an object', { reason: 'x' }, '[object Object]'],
  ])('%s', (_name, error, expected) => {
    expect(messageOf(error)).toBe(expected);
  });
});

describe('assertNever', () => {
  test.each<[string, string | undefined, string]>([
    ['names the kind when given', 'server state', 'Unexpected server state: {"state":"new"}'],
    ['says value otherwise', undefined, 'Unexpected value: {"state":"new"}'],
  ])('%s', (_name, what, message) => {
    // A value the union does not know (a newer peer's) reaches the default branch at run time;
    // the compiler rightly refuses to pass one directly, so the call goes through Reflect.
    expect(() => {
      Reflect.apply(assertNever, undefined, [{ state: 'new' }, what]);
    }).toThrow(message);
  });
});
