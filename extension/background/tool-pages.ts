import type { ResultOf } from '../../protocol/methods';
import { HostRequestError } from './host-errors';

/**
 * Reads a `tools/list` that the host sent in pages (a listing over 512 KiB: the browser drops a
 * frame over 1 MiB) into one listing, as if it had come whole. A page refused because the listing
 * changed meanwhile (`invalid-params`) starts the listing over, once more at most.
 */

type Listing = ResultOf<'tools/list'>;

/** More pages than any listing the host can hold (it caps tools per server): a host bug. */
const MAX_PAGES = 1_000;

export async function allToolPages(
  page: (cursor: string | undefined) => Promise<Listing>,
): Promise<Listing> {
  for (let attempt = 0; ; attempt += 1) {
    const first = await page(undefined);
    if (first.nextCursor === undefined) return first;
    const tools = [...first.tools];
    let cursor: string | undefined = first.nextCursor;
    try {
      for (let pages = 1; cursor !== undefined; pages += 1) {
        if (pages >= MAX_PAGES) throw new Error(`tools/list: more than ${MAX_PAGES} pages`);
        const next: Listing = await page(cursor);
        tools.push(...next.tools);
        cursor = next.nextCursor;
      }
    } catch (error) {
      if (attempt === 0 && error instanceof HostRequestError && error.reason === 'invalid-params') {
        continue;
      }
      throw error;
    }
    const whole: Listing = { ...first, tools };
    delete whole.nextCursor;
    return whole;
  }
}
