import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { FramesClient } from './frames-client';
import { signalForLine } from './signal-sample';
import { startTrustedHost } from './trusted-host';

/**
 * Leak or slack? A host's resident size after a burst of calls says little: V8 grows its young
 * generation to the maximum under load and leaves garbage in the old one until the next full
 * collection. This probe runs a second host with `--expose-gc` and a preload that, on SIGUSR2,
 * collects everything and records the live heap: heap after GC at W, W + N and W + 2N calls.
 * Steady growth across the two rounds is a leak; a flat line means the RSS growth is heap slack.
 * The flag and the preload change nothing else in the host (the browser starts it without them).
 */

export interface HeapProbeSample {
  /** tools/call requests relayed before this sample. */
  readonly calls: number;
  /** V8 heap in use after forced full collections, in bytes. */
  readonly heapUsed: number;
  /** Memory held outside the V8 heap for JavaScript objects (Buffers), in bytes. */
  readonly external: number;
  readonly rss: number;
  /** The whole breakdown, just before the forced collections and just after them. */
  readonly beforeGc: MemoryBreakdown;
  readonly afterGc: MemoryBreakdown;
}

/**
 * `process.memoryUsage()` (rss, heapTotal, heapUsed, external, arrayBuffers), the resident pages
 * by kind (`/proc/self/status`) and, per V8 heap
 * space (new_space, old_space, code_space, large_object_space, ...), its size and what is used
 * of it (`v8.getHeapSpaceStatistics()`), in bytes.
 */
const MemoryBreakdownSchema = z.object({
  rss: z.number(),
  heapTotal: z.number(),
  heapUsed: z.number(),
  external: z.number(),
  arrayBuffers: z.number(),
  spaces: z.record(z.string(), z.object({ size: z.number(), used: z.number() })),
  /** Linux only: resident anonymous pages and file-backed ones (mostly the node binary). */
  rssAnon: z.number().optional(),
  rssFile: z.number().optional(),
});
export type MemoryBreakdown = z.infer<typeof MemoryBreakdownSchema>;

export interface HeapProbeResult {
  readonly samples: readonly HeapProbeSample[];
  /** (heap at W + 2N - heap at W + N) / N: the live heap added per call, in bytes. */
  readonly bytesPerCall: number;
}

export interface HeapProbeOptions {
  readonly bundle: string;
  readonly home: string;
  readonly origin: string;
  /** One relayed call (the same one the relay figures time). */
  readonly call: (host: FramesClient) => Promise<unknown>;
  /** Gets the host ready for `call` (allow-lists the tool). */
  readonly prepare: (host: FramesClient) => Promise<unknown>;
  readonly warmupCalls: number;
  readonly roundCalls: number;
  /** Node/V8 flags to try on the probed host, after the launcher's (HOST_NODE_FLAGS). */
  readonly nodeArgs?: readonly string[];
}

/**
 * Runs in the probed host: on SIGUSR2 the breakdown as the host runs, full collections, the
 * breakdown again, as one JSON line to the out file.
 */
const PRELOAD = `
const { appendFileSync } = require('node:fs');
const v8 = require('node:v8');
const breakdown = () => {
  const spaces = {};
  for (const s of v8.getHeapSpaceStatistics()) {
    spaces[s.space_name] = { size: s.space_size, used: s.space_used_size };
  }
  return { ...process.memoryUsage(), spaces, ...residentKinds() };
};
// Linux: resident pages by kind; RssFile is mostly the node binary, shared with every node process.
const residentKinds = () => {
  try {
    const status = require('node:fs').readFileSync('/proc/self/status', 'utf8');
    const kib = (field) => {
      const line = status.split('\\n').find((l) => l.startsWith(field + ':'));
      return line === undefined ? undefined : parseInt(line.slice(field.length + 1).trim(), 10) * 1024;
    };
    return { rssAnon: kib('RssAnon'), rssFile: kib('RssFile') };
  } catch {
    return {};
  }
};
process.on('SIGUSR2', () => {
  const beforeGc = breakdown();
  // Several passes: weak callbacks and finalizers free more on the next one.
  for (let i = 0; i < 4; i += 1) globalThis.gc();
  const afterGc = breakdown();
  appendFileSync(process.env.SWITCHYARD_HEAP_PROBE_OUT, JSON.stringify({ heapUsed: afterGc.heapUsed, external: afterGc.external, rss: afterGc.rss, beforeGc, afterGc }) + '\\n');
});
`;

export async function probeHeap(options: HeapProbeOptions): Promise<HeapProbeResult> {
  if (process.platform === 'win32')
    throw new Error('the heap probe needs SIGUSR2 (not on Windows)');
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-heap-probe-'));
  const preload = join(dir, 'preload.cjs');
  const out = join(dir, 'samples.jsonl');
  writeFileSync(preload, PRELOAD);
  writeFileSync(out, '');
  let host: FramesClient | undefined;
  try {
    host = (
      await startTrustedHost({
        bundle: options.bundle,
        home: options.home,
        origin: options.origin,
        nodeArgs: [...(options.nodeArgs ?? []), '--expose-gc', '--require', preload],
        env: { SWITCHYARD_HEAP_PROBE_OUT: out },
      })
    ).host;
    const probed = host;
    await options.prepare(probed);
    const samples: HeapProbeSample[] = [];
    const sample = async (calls: number): Promise<void> => {
      if (probed.pid === undefined) throw new Error('the probed host has no pid');
      const line = await signalForLine(probed.pid, out, 'heap sample');
      samples.push({ calls, ...parseSample(line) });
    };
    const run = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i += 1) await options.call(probed);
    };
    await run(options.warmupCalls);
    await sample(options.warmupCalls);
    await run(options.roundCalls);
    await sample(options.warmupCalls + options.roundCalls);
    await run(options.roundCalls);
    await sample(options.warmupCalls + 2 * options.roundCalls);
    const [, second, third] = samples;
    return {
      samples,
      bytesPerCall:
        second && third ? (third.heapUsed - second.heapUsed) / options.roundCalls : Number.NaN,
    };
  } finally {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const SampleSchema = z.object({
  heapUsed: z.number(),
  external: z.number(),
  rss: z.number(),
  beforeGc: MemoryBreakdownSchema,
  afterGc: MemoryBreakdownSchema,
});

function parseSample(line: string): Omit<HeapProbeSample, 'calls'> {
  const parsed = SampleSchema.safeParse(JSON.parse(line));
  if (!parsed.success) throw new Error(`heap sample not as written: ${line}`);
  return parsed.data;
}
