import { expect, test } from 'vitest';
import { exactCount, longDate } from './format';

test.each([
  [0, '0'],
  [999, '999'],
  [1000, '1,000'],
  [1234567, '1,234,567'],
  [-3, '0'],
])('exactCount(%i) = %s', (n, text) => {
  expect(exactCount(n)).toBe(text);
});

test.each([
  ['2026-04-30', '30 April 2026'],
  ['2029-01-01', '1 January 2029'],
  ['2027-12-09', '9 December 2027'],
  ['2026-13-01', '2026-13-01'],
  ['2026-00-10', '2026-00-10'],
  ['30 April', '30 April'],
])('longDate(%s) = %s', (day, text) => {
  expect(longDate(day)).toBe(text);
});
