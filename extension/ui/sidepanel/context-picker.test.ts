import { describe, expect, it } from 'vitest';
import type { Resource } from '../../../protocol/resources';
import { filterResources, resourceDetail, startsMention } from './context-picker';

const R = (server: string, name: string, extra: Partial<Resource> = {}): Resource => ({
  server,
  uri: `${server}://${name}`,
  name,
  ...extra,
});

describe('the context picker', () => {
  const all = [
    R('wiki', 'Onboarding', { description: 'How to start' }),
    R('db', 'orders schema', { mimeType: 'text/sql' }),
    R('db', 'customers schema'),
  ];

  it.each([
    ['everything, by server then name', '', ['customers schema', 'orders schema', 'Onboarding']],
    ['every word, in any order', 'schema ord', ['orders schema']],
    ['case-insensitively, the description too', 'START', ['Onboarding']],
    ['by server', 'wiki', ['Onboarding']],
    ['by address', 'db://cust', ['customers schema']],
    ['nothing', 'nope', []],
  ])('finds %s', (_, query, names) => {
    expect(filterResources(all, query).map((r) => r.name)).toEqual(names);
  });

  it('says where a resource comes from and what it is', () => {
    expect(resourceDetail(R('db', 'x', { mimeType: 'text/plain', size: 2048 }))).toBe(
      'db · db://x · text/plain · 2 KB',
    );
  });

  it.each([
    ['@ at the start', '@', 1, true],
    ['@ after a space', 'look at @', 9, true],
    ['@ after a newline', 'a\n@', 3, true],
    ['an email address', 'ada@', 4, false],
    ['no @', 'abc', 3, false],
  ])('opens on %s: %s', (_, text, caret, opens) => {
    expect(startsMention(text, caret)).toBe(opens);
  });
});
