import { describe, expect, test } from 'vitest';
import { tabAddress, type TabFacts } from './active-tab';

const tabs: Readonly<Record<number, TabFacts>> = {
  1: { url: 'https://evil.example/page' },
  2: { pendingUrl: 'https://pending.example/' },
};
const openerOf = (tabId: number): Promise<TabFacts | undefined> => Promise.resolve(tabs[tabId]);

describe('tabAddress', () => {
  test.each<[string, TabFacts | undefined, string | null]>([
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
    ['a blank tab whose opener is gone', { url: 'about:blank', openerTabId: 9 }, 'about:blank'],
    ['not a blank page', { url: 'about:blankish', openerTabId: 1 }, 'about:blankish'],
  ])('%s', async (_name, tab, address) => {
    expect(await tabAddress(tab, openerOf)).toBe(address);
  });

  test('an opener that cannot be read leaves the tab its own address', async () => {
    const failing = (): Promise<TabFacts | undefined> =>
      Promise.reject(new Error('No tab with id'));
    expect(await tabAddress({ url: 'about:blank', openerTabId: 1 }, failing)).toBe('about:blank');
  });
});
