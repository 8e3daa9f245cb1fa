import { describe, expect, test } from 'vitest';
import { errnoCode, isErrno } from './errno';

describe('errnoCode', () => {
  const enoent = Object.assign(new Error('no such file'), { code: 'ENOENT' });
  test.each([
    ['a Node system error', enoent, 'ENOENT'],
    ['a plain object with a string code', { code: 'EACCES' }, 'EACCES'],
    ['a numeric code', { code: 13 }, undefined],
    ['an error without a code', new Error('boom'), undefined],
    ['a string', 'ENOENT', undefined],
    ['null', null, undefined],
    ['undefined', undefined, undefined],
  ])('%s', (_name, error, expected) => {
    expect(errnoCode(error)).toBe(expected);
  });

  test('isErrno compares the code', () => {
    expect(isErrno(enoent, 'ENOENT')).toBe(true);
    expect(isErrno(enoent, 'EACCES')).toBe(false);
    expect(isErrno('ENOENT', 'ENOENT')).toBe(false);
  });
});
