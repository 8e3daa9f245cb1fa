import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { STAGES } from '../../native-host/shared/stage-clock';
import { EVERYTHING_SERVER, HostHarness, approveAll, makeHome, unwrap } from './host-harness';

// The bench's stage clock (SWITCHYARD_STAGE_CLOCK) on the real bundled host: every stage of a
// relayed call is reached, and the call itself is unchanged by it.

const TotalsSchema = z.object({
  us: z.record(z.string(), z.number()),
  entries: z.record(z.string(), z.number()),
});

interface CallResult {
  content: Array<{ type: string; text?: string }>;
}

describe('the stage clock of a relayed call', () => {
  let host: HostHarness;
  let out: string;

  beforeAll(async () => {
    out = join(mkdtempSync(join(tmpdir(), 'switchyard-stages-')), 'stages.jsonl');
    const home = makeHome({
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } },
    });
    approveAll(home);
    host = new HostHarness(home, { env: { SWITCHYARD_STAGE_CLOCK: out } });
    await host.hello();
    await host.settled();
  });

  afterAll(async () => {
    await host.close();
  });

  it('charges every stage and writes its totals at exit', async () => {
    for (let i = 0; i < 3; i += 1) {
      const result = await host.call<CallResult>('tools/call', {
        name: 'everything__echo',
        arguments: { message: `call ${i}` },
      });
      expect(unwrap(result.content[0]?.text ?? '')).toBe(`Echo: call ${i}`);
    }
    await host.close();
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    const totals = TotalsSchema.parse(JSON.parse(lines.at(-1) ?? '{}'));
    for (const stage of STAGES) {
      expect(totals.entries[stage], stage).toBeGreaterThanOrEqual(3);
      expect(totals.us[stage], stage).toBeGreaterThan(0);
    }
  });
});
