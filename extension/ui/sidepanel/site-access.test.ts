import { describe, expect, test } from 'vitest';
import { siteAccessPattern } from './site-access';

describe('siteAccessPattern', () => {
  test.each<[string | null, string | null]>([
    ['https://github.com/a/b?q=1#x', 'https://github.com/*'],
    ['http://localhost:5173/app', 'http://localhost/*'],
    ['https://bücher.example/', 'https://xn--bcher-kva.example/*'],
    ['chrome://extensions/', null],
    ['chrome-extension://abc/popup.html', null],
    ['file:///home/me/a.html', null],
    ['about:blank', null],
    ['not a url', null],
    [null, null],
  ])('%s -> %s', (url, pattern) => {
    expect(siteAccessPattern(url)?.pattern ?? null).toBe(pattern);
  });
});
