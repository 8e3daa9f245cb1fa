import { describe, expect, it } from 'vitest';
import type { ResultOf } from '../../protocol/methods';
import { HostRequestError } from './host-errors';
import { allToolPages } from './tool-pages';

type Listing = ResultOf<'tools/list'>;

const tool = (name: string): Listing['tools'][number] => ({
  name,
  server: 's',
  tool: name,
  description: '',
  inputSchema: { type: 'object' },
  tokens: 1,
  policy: 'allow',
});
const page = (names: string[], nextCursor?: string): Listing => ({
  tools: names.map(tool),
  tokens: { total: 4, byServer: { s: 4 } },
  ...(nextCursor === undefined ? {} : { nextCursor }),
});

describe('allToolPages', () => {
  it('returns a one-page listing as it came', async () => {
    const only = page(['a']);
    expect(await allToolPages(() => Promise.resolve(only))).toBe(only);
  });

  it('joins the pages in order, without a cursor', async () => {
    const pages: Record<string, Listing> = {
      first: page(['a', 'b'], 'c1'),
      c1: page(['c'], 'c2'),
      c2: page(['d']),
    };
    const asked: Array<string | undefined> = [];
    const whole = await allToolPages((cursor) => {
      asked.push(cursor);
      return Promise.resolve(pages[cursor ?? 'first']!);
    });
    expect(asked).toEqual([undefined, 'c1', 'c2']);
    expect(whole.tools.map((t) => t.name)).toEqual(['a', 'b', 'c', 'd']);
    expect(whole).not.toHaveProperty('nextCursor');
    expect(whole.tokens.total).toBe(4);
  });

  it('starts over once when the listing changed between pages, then gives up', async () => {
    const stale = new HostRequestError('tools/list', 'invalid-params', -32602, 'changed', {
      reason: 'invalid-params',
    });
    let firsts = 0;
    const listing = (failures: number) =>
      allToolPages((cursor) => {
        if (cursor === undefined) {
          firsts += 1;
          return Promise.resolve(page(['a'], 'c1'));
        }
        return firsts <= failures ? Promise.reject(stale) : Promise.resolve(page(['b']));
      });
    expect((await listing(1)).tools.map((t) => t.name)).toEqual(['a', 'b']);
    firsts = 0;
    await expect(listing(2)).rejects.toBe(stale);
  });
});
