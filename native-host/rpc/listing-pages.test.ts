import { describe, expect, it } from 'vitest';
import type { ResultOf } from '../../protocol/methods';
import { HostError } from '../shared/host-error';
import { listingPage } from './listing-pages';

type Listing = ResultOf<'tools/list'>;

function listing(count: number, descriptionChars = 100): Listing {
  const tools = Array.from({ length: count }, (_, i) => ({
    name: `gen__tool_${i}`,
    server: 'gen',
    tool: `tool_${i}`,
    description: 'd'.repeat(descriptionChars),
    inputSchema: { type: 'object' },
    tokens: 10,
    policy: 'ask' as const,
  }));
  return { tools, tokens: { total: count * 10, byServer: { gen: count * 10 } } };
}

/** Reads every page as the extension does. */
function readAll(whole: Listing, pageBytes: number): { pages: Listing[]; tools: string[] } {
  const pages = [listingPage(whole, undefined, pageBytes)];
  for (let cursor = pages[0]?.nextCursor; cursor !== undefined;) {
    const page = listingPage(whole, cursor, pageBytes);
    pages.push(page);
    cursor = page.nextCursor;
  }
  return { pages, tools: pages.flatMap((p) => p.tools.map((t) => t.name)) };
}

describe('listingPage', () => {
  it('sends a listing that fits as it is, without a cursor', () => {
    const whole = listing(3);
    expect(listingPage(whole, undefined, 10_000)).toBe(whole);
  });

  it.each([
    ['a few tools a page', 50, 1_000],
    ['one tool a page', 5, 10],
    ['a page just over the last tool', 40, 4_000],
  ])('pages %s: every tool once, in order, each page within its bytes', (_, count, pageBytes) => {
    const whole = listing(count);
    const { pages, tools } = readAll(whole, pageBytes);
    expect(tools).toEqual(whole.tools.map((t) => t.name));
    for (const page of pages) {
      expect(page.tokens).toEqual(whole.tokens);
      const bytes = page.tools.reduce((n, t) => n + JSON.stringify(t).length, 0);
      expect(page.tools.length === 1 || bytes <= pageBytes).toBe(true);
    }
    expect(pages.at(-1)?.nextCursor).toBeUndefined();
  });

  it('measures a rebuilt listing anew: the same names with longer descriptions page sooner', () => {
    // Sizes are remembered per tool object; a changed listing is made of new objects.
    const short = listing(20, 10);
    const long = listing(20, 400);
    expect(listingPage(short, undefined, 4_000).nextCursor).toBeUndefined();
    expect(listingPage(long, undefined, 4_000).tools.length).toBeLessThan(20);
    expect(listingPage(short, undefined, 4_000).nextCursor).toBeUndefined();
  });

  it('pages a listing that would pass the 1 MiB frame cap into pages that fit', () => {
    const whole = listing(1_000, 2_000); // about 2.1 MB of JSON
    expect(JSON.stringify(whole).length).toBeGreaterThan(1024 * 1024);
    const { pages, tools } = readAll(whole, 512 * 1024);
    expect(tools).toHaveLength(1_000);
    for (const page of pages) expect(JSON.stringify(page).length).toBeLessThan(1024 * 1024);
  });

  it.each([
    ['a changed listing', (c: string) => c, listing(30, 200).tools.slice(1)],
    ['a forged offset', (c: string) => c.replace(/^\d+/, '99999'), undefined],
    ['not a cursor', () => 'zzz', undefined],
    ['offset zero', (c: string) => c.replace(/^\d+/, '0'), undefined],
  ])('refuses a cursor after %s with invalid-params', (_, edit, tools) => {
    const whole = listing(30, 200);
    const cursor = listingPage(whole, undefined, 1_000).nextCursor ?? '';
    const now = tools === undefined ? whole : { ...whole, tools };
    expect(() => listingPage(now, edit(cursor), 1_000)).toThrow(HostError);
  });
});
