import { describe, expect, test } from 'vitest';
import { assertNever, isRecord, messageOf } from './guards';

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
