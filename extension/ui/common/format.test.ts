import { expect, test } from 'vitest';
import { exactCount, localLongDate, longDate } from './format';

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

// Built from local clock readings, so each row holds in any time zone the tests run in.
test.each([
  [new Date(2026, 3, 30, 23, 55).toISOString(), '30 April 2026'],
  [new Date(2026, 3, 30, 0, 5).toISOString(), '30 April 2026'],
  [new Date(2027, 0, 1, 0, 0).toISOString(), '1 January 2027'],
  ['not a time', 'not a time'],
])('localLongDate(%s) = %s', (iso, text) => {
  expect(localLongDate(iso)).toBe(text);
});
