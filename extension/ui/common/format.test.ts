import { expect, test } from 'vitest';
import { exactCount } from './format';

test.each([
  [0, '0'],
  [999, '999'],
  [1000, '1,000'],
  [1234567, '1,234,567'],
  [-3, '0'],
])('exactCount(%i) = %s', (n, text) => {
  expect(exactCount(n)).toBe(text);
});
