import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_HOST_TO_BROWSER_FRAME_BYTES } from '../../protocol/limits';
import { HostHarness, ROOT } from './host-harness';

/**
 * A listing that would pass the browser's 1 MiB frame cap (host -> browser) is paged, never
 * dropped (issue 15, item 4): two generated servers with 1,000 tools and long descriptions, about
 * 2.5 MB of listing, arrive whole over pages that each fit in a frame.
 */

const GENERATED_SERVER = join(ROOT, 'test/fixtures/generated-server.mjs');

interface Page {
  tools: Array<{ name: string }>;
  tokens: { total: number };
  nextCursor?: string;
}

describe('a tool listing over 1 MiB', () => {
  it('comes in pages that each fit in a frame, every tool once', async () => {
    const generated = (tools: number) => ({
      command: process.execPath,
      args: [GENERATED_SERVER, `--tools=${tools}`, '--description=2000'],
    });
    const host = await HostHarness.start({ big: generated(600), bigger: generated(400) });
    try {
      const servers = await host.settled();
      expect(servers.map((s) => s.status.state)).toEqual(['running', 'running']);
      const before = host.frameLengths.length;
      const pages: Page[] = [await host.call<Page>('tools/list')];
      for (let cursor = pages[0]?.nextCursor; cursor !== undefined;) {
        const page = await host.call<Page>('tools/list', { cursor });
        pages.push(page);
        cursor = page.nextCursor;
      }
      const names = pages.flatMap((p) => p.tools.map((t) => t.name));
      expect(names).toHaveLength(1_000);
      expect(new Set(names).size).toBe(1_000);
      expect(pages.length).toBeGreaterThan(2);
      // Every page states the whole listing's totals.
      expect(new Set(pages.map((p) => p.tokens.total)).size).toBe(1);
      const frames = host.frameLengths.slice(before);
      expect(Math.max(...frames)).toBeLessThanOrEqual(MAX_HOST_TO_BROWSER_FRAME_BYTES);
      expect(frames.reduce((a, b) => a + b, 0)).toBeGreaterThan(
        2 * MAX_HOST_TO_BROWSER_FRAME_BYTES,
      );

      // A cursor from before a change is refused, and listing from the start works.
      const stale = await host.request('tools/list', { cursor: '1.0000000000000000' });
      expect(stale.error?.data).toMatchObject({ reason: 'invalid-params' });
    } finally {
      await host.close();
    }
  });
});
