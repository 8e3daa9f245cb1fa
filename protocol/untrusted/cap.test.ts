import { describe, expect, test } from 'vitest';
import { capBytesUtf8, capText, formatCount, utf8Length } from './cap';

// Returning more than the budget (a frame Chromium drops, a description that eats the context) or
// hiding that text was cut is the dangerous direction; cutting a little early only costs content.

const MARKER = /…\[truncated: showing ([\d,]+) of ([\d,]+) (characters|bytes)\]$/;

function parseCount(text: string): number {
  return Number(text.replace(/,/g, ''));
}

describe('formatCount', () => {
  test.each([
    [0, '0'],
    [999, '999'],
    [1_000, '1,000'],
    [183_422, '183,422'],
    [1_048_576, '1,048,576'],
  ])('%d -> %s', (count, expected) => {
    expect(formatCount(count)).toBe(expected);
  });
});

describe('capText', () => {
  test.each([
    ['shorter than the budget', 'hello', 10],
    ['exactly the budget', 'hello', 5],
    ['empty', '', 0],
  ])('%s: unchanged', (_name, text, maxChars) => {
    expect(capText(text, maxChars)).toEqual({ text, truncated: false, originalChars: text.length });
  });

  test('the example from the contract', () => {
    const text = 'x'.repeat(183_422);
    const marker = '…[truncated: showing 2,000 of 183,422 characters]';
    const { text: capped, truncated, originalChars } = capText(text, 2_000 + marker.length);
    expect(truncated).toBe(true);
    expect(originalChars).toBe(183_422);
    expect(capped).toBe(`${'x'.repeat(2_000)}${marker}`);
  });

  // Budgets around the marker length (49 for these totals) and where the kept count changes digits.
  test.each([
    0, 1, 11, 12, 13, 47, 48, 49, 50, 51, 55, 58, 59, 60, 1_048, 1_049, 1_050, 10_049, 10_050,
  ])('budget %d: fits, says what it shows, and is a prefix', (maxChars) => {
    const text = 'abcdefghij'.repeat(20_000);
    const { text: capped, truncated } = capText(text, maxChars);
    expect(truncated).toBe(true);
    expect(capped.length).toBeLessThanOrEqual(maxChars);
    const match = MARKER.exec(capped);
    if (match === null) {
      // Too small for the full marker: as much of the short one as fits.
      expect('…[truncated]'.startsWith(capped)).toBe(true);
      return;
    }
    const shown = parseCount(match[1]!);
    expect(parseCount(match[2]!)).toBe(text.length);
    expect(capped.slice(0, shown)).toBe(text.slice(0, shown));
    expect(capped.length - match[0].length).toBe(shown);
    // No budget is wasted: one more character, with its own marker, would not fit.
    const longer = `…[truncated: showing ${formatCount(shown + 1)} of ${formatCount(text.length)} characters]`;
    expect(shown + 1 + longer.length).toBeGreaterThan(maxChars);
  });

  test.each([
    ['pair straddles the cut', 'a😀😀😀'.repeat(1_000), 60],
    ['pair straddles the cut, one later', 'a😀😀😀'.repeat(1_000), 61],
    ['all astral', '😀'.repeat(1_000), 60],
    ['all astral, odd budget', '😀'.repeat(1_000), 61],
  ])('never splits a surrogate pair: %s', (_name, text, maxChars) => {
    const { text: capped } = capText(text, maxChars);
    expect(capped.length).toBeLessThanOrEqual(maxChars);
    expect(capped).not.toMatch(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
    );
  });

  test.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects budget %d', (maxChars) => {
    expect(() => capText('abc', maxChars)).toThrow(RangeError);
  });
});

describe('utf8Length', () => {
  test.each([
    ['ASCII', 'abc', 3],
    ['2-byte', 'é', 2],
    ['3-byte', '漢', 3],
    ['4-byte pair', '😀', 4],
    ['lone surrogate as U+FFFD', '\uD800', 3],
    ['mixed', 'aé漢😀\uDC00', 13],
  ])('%s', (_name, text, bytes) => {
    expect(utf8Length(text)).toBe(bytes);
    expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'));
  });
});

describe('capBytesUtf8', () => {
  test('fits: unchanged', () => {
    expect(capBytesUtf8('héllo', 6)).toEqual({ text: 'héllo', truncated: false, originalBytes: 6 });
  });

  test.each([
    ['ASCII', 'a'.repeat(5_000)],
    ['2-byte', 'é'.repeat(5_000)],
    ['3-byte', '漢'.repeat(5_000)],
    ['4-byte', '😀'.repeat(5_000)],
    ['mixed', 'aé漢😀'.repeat(2_000)],
  ])('%s: UTF-8 fits the budget, marker states bytes, cut on a code point', (_name, text) => {
    for (const maxBytes of [0, 2, 3, 5, 14, 40, 47, 48, 49, 50, 51, 52, 53, 100, 1_000, 1_003]) {
      const { text: capped, truncated, originalBytes } = capBytesUtf8(text, maxBytes);
      expect(truncated).toBe(true);
      expect(originalBytes).toBe(Buffer.byteLength(text, 'utf8'));
      expect(Buffer.byteLength(capped, 'utf8')).toBeLessThanOrEqual(maxBytes);
      expect(capped).not.toContain('\uFFFD');
      const match = MARKER.exec(capped);
      if (match === null) {
        expect('…[truncated]'.startsWith(capped)).toBe(true);
        continue;
      }
      const prefix = capped.slice(0, capped.length - match[0].length);
      expect(text.startsWith(prefix)).toBe(true);
      expect(parseCount(match[1]!)).toBe(Buffer.byteLength(prefix, 'utf8'));
      expect(match[3]).toBe('bytes');
    }
  });

  test('a 1 MiB frame budget', () => {
    const text = 'x'.repeat(3_000_000);
    const { text: capped } = capBytesUtf8(text, 1_048_576);
    expect(Buffer.byteLength(capped, 'utf8')).toBeLessThanOrEqual(1_048_576);
    expect(capped).toMatch(/…\[truncated: showing 1,048,\d{3} of 3,000,000 bytes\]$/);
  });
});
