import { describe, expect, test } from 'vitest';
import { UNKNOWN_ADDRESS, tabAddress, type TabAddress, type TabFacts } from './active-tab';

const tabs: Readonly<Record<number, TabFacts>> = {
  1: { url: 'https://evil.example/page' },
  2: { pendingUrl: 'https://pending.example/' },
  // A blank window the page in tab 1 opened, which opened another.
  3: { url: 'about:blank', openerTabId: 1 },
  // A blank window whose opener (a page that closed itself) is gone.
  4: { url: 'about:blank', openerTabId: 9 },
  // A chain of blank windows longer than any page needs: 10 opened 11, ... up to 30.
  ...Object.fromEntries(
    Array.from({ length: 20 }, (_, i) => [11 + i, { url: 'about:blank', openerTabId: 10 + i }]),
  ),
  10: { url: 'about:blank', openerTabId: 1 },
};
const openerOf = (tabId: number): Promise<TabFacts | undefined> => Promise.resolve(tabs[tabId]);

describe('tabAddress', () => {
  test.each<[string, TabFacts | undefined, TabAddress]>([
    ['no tab', undefined, null],
    ['a tab without a URL yet', {}, null],
    ['a page', { url: 'https://github.com/a' }, 'https://github.com/a'],
    ['a page still loading', { pendingUrl: 'https://github.com/b' }, 'https://github.com/b'],
    [
      'a page another tab linked to',
      { url: 'https://b.example/', openerTabId: 1 },
      'https://b.example/',
    ],
    [
      'a blank window a page opened',
      { url: 'about:blank', openerTabId: 1 },
      'https://evil.example/page',
    ],
    ['a srcdoc one', { url: 'about:srcdoc', openerTabId: 1 }, 'https://evil.example/page'],
    [
      'a blank one with a fragment',
      { url: 'about:blank#x', openerTabId: 1 },
      'https://evil.example/page',
    ],
    ['an opener still loading', { url: 'about:blank', openerTabId: 2 }, 'https://pending.example/'],
    ['a blank tab nobody opened', { url: 'about:blank' }, 'about:blank'],
    ['a blank tab whose opener is gone', { url: 'about:blank', openerTabId: 9 }, UNKNOWN_ADDRESS],
    [
      'a blank window a blank window opened',
      { url: 'about:blank', openerTabId: 3 },
      'https://evil.example/page',
    ],
    [
      'one whose chain ends in a closed tab',
      { url: 'about:blank', openerTabId: 4 },
      UNKNOWN_ADDRESS,
    ],
    ['too long a chain', { url: 'about:blank', openerTabId: 30 }, UNKNOWN_ADDRESS],
    ['not a blank page', { url: 'about:blankish', openerTabId: 1 }, 'about:blankish'],
  ])('%s', async (_name, tab, address) => {
    expect(await tabAddress(tab, openerOf)).toBe(address);
  });

  test('an opener that cannot be read leaves the address unknown, never the default', async () => {
    const failing = (): Promise<TabFacts | undefined> =>
      Promise.reject(new Error('No tab with id'));
    expect(await tabAddress({ url: 'about:blank', openerTabId: 1 }, failing)).toBe(UNKNOWN_ADDRESS);
  });
});
