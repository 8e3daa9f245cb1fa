import { describe, expect, test } from 'vitest';
import { DEFAULT_LOG_LINES, parseLogsArgs } from './logs';

describe('parseLogsArgs', () => {
  test.each([
    [['memory'], { ok: true, server: 'memory', lines: DEFAULT_LOG_LINES }],
    [['memory', '--lines', '5'], { ok: true, server: 'memory', lines: 5 }],
    [['--lines=0', 'my server'], { ok: true, server: 'my server', lines: 0 }],
  ])('%j', (argv, expected) => {
    expect(parseLogsArgs(argv)).toEqual(expected);
  });

  test.each([
    [[], /name the server/],
    [['a', 'b'], /unknown argument 'b'/],
    [['a', '--lines'], /whole number/],
    [['a', '--lines', '-3'], /whole number/],
    [['a', '--lines', '1e3'], /whole number/],
    [['a', '--follow'], /unknown argument '--follow'/],
  ])('refuses %j', (argv, message) => {
    const parsed = parseLogsArgs(argv);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });
});
