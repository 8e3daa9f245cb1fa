import type { HeapProbeResult, MemoryBreakdown } from './heap-probe';
import { fixed, renderTable, type Row } from './table';

/**
 * What the host's resident memory is made of, from the heap probe's last sample (issue 15): the
 * process.memoryUsage() figures and V8's spaces, as the host runs and after full collections.
 * `rss - heapTotal - external` is what neither V8's heap nor Buffers hold: Node and V8 themselves,
 * the bundle's source and compiled code outside the heap, malloc arenas, thread stacks. Of the
 * RSS, `file` (Linux) is file-backed pages, mostly the node binary's text, shared with every
 * other node process on the machine (the servers too).
 */

const MIB = 1_048_576;
const SPACES = ['new_space', 'old_space', 'code_space', 'large_object_space'] as const;

export function renderMemoryBreakdown(heap: HeapProbeResult): string[] {
  const last = heap.samples.at(-1);
  if (last === undefined) return [];
  const row = (label: string, m: MemoryBreakdown): Row => [
    label,
    fixed(m.rss / MIB, 1),
    fixed(m.heapTotal / MIB, 1),
    fixed(m.heapUsed / MIB, 1),
    fixed(m.external / MIB, 1),
    fixed(m.arrayBuffers / MIB, 1),
    ...SPACES.map((name) => {
      const space = m.spaces[name];
      return space === undefined
        ? '-'
        : `${fixed(space.used / MIB, 1)}/${fixed(space.size / MIB, 1)}`;
    }),
    fixed((m.rss - m.heapTotal - m.external) / MIB, 1),
    fixed(m.rssFile === undefined ? null : m.rssFile / MIB, 1),
  ];
  return [
    `  Breakdown after ${last.calls} calls, MiB (V8 spaces: used/size)`,
    renderTable(
      [
        'when',
        'rss',
        'heapTotal',
        'heapUsed',
        'external',
        'arrayBuffers',
        ...SPACES,
        'rss-heap-external',
        'of rss: file',
      ],
      [row('as it runs', last.beforeGc), row('after full GC', last.afterGc)],
    ),
  ];
}
