import { describe, expect, it } from 'vitest';
import { isAppUri } from './apps';

describe('isAppUri', () => {
  it.each([
    ['ui://pdf-viewer/mcp-app.html', true],
    ['ui://probe/app.html?x=1', true],
    ['file:///etc/passwd', false],
    ['https://example.com/app.html', false],
    ['ui://', false],
    ['ui://a b', false],
    ['ui://a"onload=', false],
    [`ui://${'a'.repeat(3000)}`, false],
  ])('%s -> %s', (value, expected) => {
    expect(isAppUri(value)).toBe(expected);
  });
});
