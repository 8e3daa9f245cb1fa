import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { ROOT } from '../test/integration/host-harness';
import { FramesClient } from './frames-client';
import { ServerListViewSchema } from './host-views';
import { readMemory } from './memory';
import { median } from './stats';
import { renderTable } from './table';
import { settle } from './trusted-host';

/**
 * Scale (issue 15, item 4): hosts with 3 and with 20 generated servers (test/fixtures/
 * generated-server.mjs, on the v2 SDK), 50 tools each (150 and 1,000 tools). Per fleet: spawn to
 * every server running (trust stored beforehand, median of `runs`), the whole `tools/list` (every
 * page) with its bytes and pages, and the host's RSS with the fleet up. Growth is 20 over 3 for each
 * figure against the 6.7x the tools grow by: linear or better is at or under it.
 */

const GENERATED_SERVER = join(ROOT, 'test/fixtures/generated-server.mjs');
export const SCALE_FLEETS = [3, 20] as const;
const TOOLS_PER_SERVER = 50;
const LIST_REPEATS = 5;
const POLL_MS = 10;

export interface FleetFigures {
  readonly servers: number;
  readonly tools: number;
  readonly allRunningMs: number;
  readonly allRunningRunsMs: readonly number[];
  readonly listMs: number;
  readonly listBytes: number;
  readonly listPages: number;
  readonly hostRssMiB: number;
}

export interface ScaleReport {
  readonly fleets: readonly FleetFigures[];
}

const PageView = z.object({
  tools: z.array(z.object({ name: z.string() })),
  nextCursor: z.string().optional(),
});

export async function measureScale(options: {
  readonly bundle: string;
  readonly origin: string;
  readonly runs: number;
}): Promise<ScaleReport> {
  const fleets: FleetFigures[] = [];
  for (const servers of SCALE_FLEETS) fleets.push(await measureFleet(servers, options));
  return { fleets };
}

async function measureFleet(
  count: number,
  options: { readonly bundle: string; readonly origin: string; readonly runs: number },
): Promise<FleetFigures> {
  const home = mkdtempSync(join(tmpdir(), 'switchyard-bench-scale-'));
  const mcpServers = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `gen${i}`,
      { command: process.execPath, args: [GENERATED_SERVER, `--tools=${TOOLS_PER_SERVER}`] },
    ]),
  );
  writeFileSync(join(home, 'config.json'), JSON.stringify({ mcpServers }));
  try {
    // Untimed: the bench approves every launch once, as the user would.
    const first = FramesClient.spawn({ ...options, home });
    await first.hello();
    await settle(first);
    await first.close();

    const runs: number[] = [];
    let last: Omit<FleetFigures, 'allRunningMs' | 'allRunningRunsMs'> | undefined;
    for (let run = 0; run < options.runs; run += 1) {
      const startedAt = performance.now();
      const host = FramesClient.spawn({ ...options, home });
      try {
        await host.hello();
        for (;;) {
          const { servers } = await host.call('servers/list', undefined, ServerListViewSchema);
          if (servers.every((s) => s.status.state === 'running')) break;
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
        runs.push(performance.now() - startedAt);
        if (run === options.runs - 1) last = await listFigures(host, count);
      } finally {
        await host.close();
      }
    }
    if (last === undefined) throw new Error('scale: no run');
    return { ...last, allRunningMs: median(runs), allRunningRunsMs: runs };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

async function listFigures(
  host: FramesClient,
  count: number,
): Promise<Omit<FleetFigures, 'allRunningMs' | 'allRunningRunsMs'>> {
  const times: number[] = [];
  let bytes = 0;
  let pages = 0;
  let tools = 0;
  for (let i = 0; i < LIST_REPEATS; i += 1) {
    const startedAt = performance.now();
    bytes = 0;
    pages = 0;
    tools = 0;
    for (let cursor: string | undefined, more = true; more;) {
      const raw = await host.request('tools/list', cursor === undefined ? undefined : { cursor });
      const page = PageView.parse(raw);
      bytes += JSON.stringify(raw).length;
      pages += 1;
      tools += page.tools.length;
      cursor = page.nextCursor;
      more = cursor !== undefined;
    }
    times.push(performance.now() - startedAt);
  }
  return {
    servers: count,
    tools,
    listMs: median(times),
    listBytes: bytes,
    listPages: pages,
    hostRssMiB: host.pid === undefined ? NaN : (readMemory(host.pid)?.rssMiB ?? NaN),
  };
}

export function renderScale(report: ScaleReport): string[] {
  const [small, large] = report.fleets;
  const rows = report.fleets.map((f) => [
    `${f.servers} servers, ${f.tools} tools`,
    f.allRunningMs.toFixed(0),
    f.allRunningRunsMs.map((ms) => ms.toFixed(0)).join(' '),
    f.listMs.toFixed(1),
    `${(f.listBytes / 1024).toFixed(0)} KiB / ${f.listPages}`,
    f.hostRssMiB.toFixed(1),
  ]);
  const lines = [
    renderTable(
      ['fleet', 'all running ms', 'runs ms', 'tools/list ms', 'listing / pages', 'host RSS MiB'],
      rows,
    ),
  ];
  if (small === undefined || large === undefined) return lines;
  const growth = (a: number, b: number): string => `${(b / a).toFixed(2)}x`;
  return [
    ...lines,
    `  growth ${small.servers} -> ${large.servers} servers (tools ${growth(small.tools, large.tools)}): all running ${growth(small.allRunningMs, large.allRunningMs)}, tools/list ${growth(small.listMs, large.listMs)}, listing bytes ${growth(small.listBytes, large.listBytes)}, host RSS ${growth(small.hostRssMiB, large.hostRssMiB)}`,
  ];
}
