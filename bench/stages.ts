import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { STAGES, type Stage } from '../native-host/shared/stage-clock';
import { cpuTimeMs } from './cpu-time';
import type { FramesClient } from './frames-client';
import { signalForLine } from './signal-sample';
import { fixed, renderTable, type Row } from './table';
import { startTrustedHost } from './trusted-host';

/**
 * The host's CPU per relayed call, by stage (issue 15): a host of its own started with
 * SWITCHYARD_STAGE_CLOCK (native-host/shared/stage-clock.ts), which charges its CPU to the stage
 * running (browser frame in, policy, forward, server response, result gate, audit, frame out).
 * On SIGUSR2 it writes its totals; the bench samples them around N relayed calls and then N bare
 * hops (`host/hello`), one at a time, and reads the host's whole CPU over the same calls from the
 * kernel. What no stage covers (event loop, stream and promise plumbing, GC between stages) is
 * the difference. The clock itself costs a few getrusage calls per stage: the totals here run a
 * little above section 1's.
 */

export interface StagesResult {
  readonly calls: number;
  /** Per stage, CPU microseconds per relayed call and per bare hop. */
  readonly relayUs: Readonly<Record<Stage, number>>;
  readonly bareUs: Readonly<Record<Stage, number>>;
  /** The host's whole CPU per call over the same calls (schedstat), null off Linux. */
  readonly hostRelayUs: number | null;
  readonly hostBareUs: number | null;
}

export interface StagesOptions {
  readonly bundle: string;
  readonly home: string;
  readonly origin: string;
  readonly prepare: (host: FramesClient) => Promise<unknown>;
  readonly call: (host: FramesClient) => Promise<unknown>;
  readonly hop: (host: FramesClient) => Promise<unknown>;
  readonly warmupCalls: number;
  readonly calls: number;
}

const TotalsSchema = z.object({ us: z.record(z.string(), z.number()) });
export async function measureStages(options: StagesOptions): Promise<StagesResult> {
  if (process.platform === 'win32') throw new Error('the stage clock needs SIGUSR2');
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-stages-'));
  const out = join(dir, 'stages.jsonl');
  writeFileSync(out, '');
  let host: FramesClient | undefined;
  try {
    host = (
      await startTrustedHost({
        bundle: options.bundle,
        home: options.home,
        origin: options.origin,
        env: { SWITCHYARD_STAGE_CLOCK: out },
      })
    ).host;
    const probed = host;
    const pid = probed.pid;
    if (pid === undefined) throw new Error('the measured host has no pid');
    await options.prepare(probed);
    const run = async (trip: (h: FramesClient) => Promise<unknown>, n: number) => {
      for (let i = 0; i < n; i += 1) await trip(probed);
    };
    await run(options.call, options.warmupCalls);
    await run(options.hop, options.warmupCalls);
    const sample = async (): Promise<{ us: Record<string, number>; cpuMs: number | null }> => {
      const line = await signalForLine(pid, out, 'stage totals');
      const cpuMs = cpuTimeMs(pid);
      return { us: TotalsSchema.parse(JSON.parse(line)).us, cpuMs };
    };
    const start = await sample();
    await run(options.call, options.calls);
    const relayed = await sample();
    await run(options.hop, options.calls);
    const hopped = await sample();
    const perCall = (a: Record<string, number>, b: Record<string, number>) =>
      Object.fromEntries(
        STAGES.map((s) => [s, ((b[s] ?? 0) - (a[s] ?? 0)) / options.calls]),
      ) as Record<Stage, number>;
    const cpu = (a: number | null, b: number | null) =>
      a === null || b === null ? null : ((b - a) * 1_000) / options.calls;
    return {
      calls: options.calls,
      relayUs: perCall(start.us, relayed.us),
      bareUs: perCall(relayed.us, hopped.us),
      hostRelayUs: cpu(start.cpuMs, relayed.cpuMs),
      hostBareUs: cpu(relayed.cpuMs, hopped.cpuMs),
    };
  } finally {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function renderStages(stages: StagesResult): string[] {
  const sum = (us: Readonly<Record<Stage, number>>) => STAGES.reduce((t, s) => t + us[s], 0);
  const rest = (host: number | null, us: Readonly<Record<Stage, number>>) =>
    host === null ? null : host - sum(us);
  const row = (label: string, relay: number | null, bare: number | null): Row => [
    label,
    fixed(relay, 1),
    fixed(bare, 1),
    fixed(relay === null || bare === null ? null : relay - bare, 1),
  ];
  return [
    `  Host CPU per call by stage, us (a host with SWITCHYARD_STAGE_CLOCK; ${stages.calls} calls each, one at a time)`,
    renderTable(
      ['stage', 'tools/call', 'bare hop', 'beyond the hop'],
      [
        ...STAGES.map((s) => row(s, stages.relayUs[s], stages.bareUs[s])),
        row(
          'in no stage (event loop, plumbing, GC)',
          rest(stages.hostRelayUs, stages.relayUs),
          rest(stages.hostBareUs, stages.bareUs),
        ),
        row('host CPU (schedstat)', stages.hostRelayUs, stages.hostBareUs),
      ],
    ),
  ];
}
