import { createHash } from 'node:crypto';
import type { ResultOf } from '../../protocol/methods';
import { HostError } from '../shared/host-error';

/**
 * `tools/list` in pages (issue 15, item 4): the browser drops a host -> browser frame over 1 MiB,
 * so a listing that would not fit is sent in pages, never dropped. A page holds as many tools as
 * fit in `PAGE_BYTES` of JSON (at least one); each page carries the whole listing's token totals
 * and budget, and every page but the last a `nextCursor`. A listing that fits is one page with no
 * cursor: exactly what it was before.
 *
 * The cursor names the offset and a digest of the listing's tool names: a page asked for after
 * the listing changed fails with `invalid-params`, and the client lists again from the start
 * (a change also sends `notifications/tools/changed`).
 *
 * Pure as far as a caller can tell: it remembers each tool's size by object, and a listed tool is
 * never changed after it is built (a change builds new ones).
 */

type Listing = ResultOf<'tools/list'>;

/** Half the frame cap: the tokens, the budget and the JSON-RPC envelope fit beside any page. */
export const PAGE_BYTES = 512 * 1024;

export function listingPage(
  listing: Listing,
  cursor: string | undefined,
  pageBytes: number = PAGE_BYTES,
): Listing {
  const { tools } = listing;
  const start = cursor === undefined ? 0 : offsetOf(cursor, tools);
  let bytes = 0;
  let end = start;
  for (const tool of tools.slice(start)) {
    const size = jsonBytes(tool);
    if (end > start && bytes + size > pageBytes) break;
    bytes += size;
    end += 1;
  }
  if (start === 0 && end === tools.length) return listing;
  const page: Listing = { ...listing, tools: tools.slice(start, end) };
  return end < tools.length ? { ...page, nextCursor: `${end}.${digestOf(tools)}` } : page;
}

/**
 * The bytes of one tool's JSON, remembered per tool object: the catalog hands out the same objects
 * until the listing or the profiles change, and measuring them again was half the host's CPU for
 * each `tools/list` of a 1,000-tool fleet (the frame's own JSON was the other half).
 */
const sizes = new WeakMap<Listing['tools'][number], number>();

function jsonBytes(tool: Listing['tools'][number]): number {
  let size = sizes.get(tool);
  if (size === undefined) {
    size = Buffer.byteLength(JSON.stringify(tool));
    sizes.set(tool, size);
  }
  return size;
}

function offsetOf(cursor: string, tools: Listing['tools']): number {
  const match = /^(\d{1,9})\.([0-9a-f]{16})$/.exec(cursor);
  const offset = match ? Number(match[1]) : NaN;
  if (!match || offset <= 0 || offset >= tools.length || match[2] !== digestOf(tools)) {
    throw new HostError(
      'invalid-params',
      'The tool listing changed since that page (or the cursor is not one the host gave): list again from the start.',
    );
  }
  return offset;
}

function digestOf(tools: Listing['tools']): string {
  const hash = createHash('sha256');
  for (const tool of tools) hash.update(`${tool.name}\n`);
  return hash.digest('hex').slice(0, 16);
}
