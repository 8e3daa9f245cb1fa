import { describe, expect, test } from 'vitest';
import { isOwnExtensionPage, type SenderInfo } from './sender';

const ID = 'ddbjoamfefamboaogaeefgfijojophel';
const ORIGIN = `chrome-extension://${ID}`;

// The dangerous direction is accepting a sender that is not our own page: every row marked
// false must stay false.
describe('isOwnExtensionPage', () => {
  test.each<[string, SenderInfo, boolean]>([
    ['the side panel', { id: ID, url: `${ORIGIN}/sidepanel.html`, origin: ORIGIN }, true],
    ['the popup without an origin field', { id: ID, url: `${ORIGIN}/popup.html` }, true],
    ['options opened in a tab', { id: ID, url: `${ORIGIN}/options.html#profiles` }, true],
    ['a content script of ours in a page', { id: ID, url: 'https://evil.example/' }, false],
    ['a content script whose page mimics the path', { id: ID, url: `https://x/${ORIGIN}` }, false],
    [
      'another extension',
      { id: 'a'.repeat(32), url: `chrome-extension://${'a'.repeat(32)}/` },
      false,
    ],
    [
      'another extension claiming our url',
      { id: 'a'.repeat(32), url: `${ORIGIN}/popup.html` },
      false,
    ],
    ['no id', { url: `${ORIGIN}/popup.html` }, false],
    ['no url', { id: ID }, false],
    ['an unparsable url', { id: ID, url: 'not a url' }, false],
    ['a url with our id as a subdomain', { id: ID, url: `https://${ID}.evil.example/` }, false],
    [
      'origin disagreeing with url',
      { id: ID, url: `${ORIGIN}/popup.html`, origin: 'https://evil.example' },
      false,
    ],
    ['a data: frame', { id: ID, url: 'data:text/html,hi' }, false],
    ['an about:blank frame', { id: ID, url: 'about:blank' }, false],
  ])('%s -> %s', (_label, sender, expected) => {
    expect(isOwnExtensionPage(sender, ID, ORIGIN)).toBe(expected);
  });

  test('works for a Firefox moz-extension origin', () => {
    const origin = 'moz-extension://0b3d2a6e-1111-4222-8333-944455556666';
    expect(
      isOwnExtensionPage(
        { id: 'switchyard@switchyard.dev', url: `${origin}/sidepanel.html` },
        'switchyard@switchyard.dev',
        origin,
      ),
    ).toBe(true);
  });
});
