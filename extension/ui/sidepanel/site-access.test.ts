import { describe, expect, test } from 'vitest';
import { grantedFor, siteAccessPattern } from './site-access';

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

describe('grantedFor', () => {
  const GITHUB = 'https://github.com/*';
  const EXAMPLE = 'https://example.com/*';

  test("one site's answer", () => {
    expect(grantedFor({ pattern: GITHUB, granted: false }, GITHUB)).toBe(false);
    expect(grantedFor({ pattern: GITHUB, granted: true }, GITHUB)).toBe(true);
  });

  // Regression: the panel kept the last answer across a tab switch, so a site already granted
  // was offered access (or one not granted was not) until the new answer came, and a prompt
  // answered after the switch decided the offer for the new site.
  test.each<[boolean]>([[true], [false]])(
    "another site's answer (%s) says nothing about this one",
    (granted) => {
      expect(grantedFor({ pattern: GITHUB, granted }, EXAMPLE)).toBeNull();
      expect(grantedFor({ pattern: GITHUB, granted }, null)).toBeNull();
    },
  );

  test('no answer yet', () => {
    expect(grantedFor(null, GITHUB)).toBeNull();
  });
});
