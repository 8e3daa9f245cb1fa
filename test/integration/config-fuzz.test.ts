import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseConfig, mutatedConfig, strictRead } from '../support/config-fuzz';
import { FUZZ_SEED, caseRng } from '../support/fuzz';
import {
  FIXTURE_SERVER,
  HostHarness,
  approveAll,
  childrenOf,
  makeHome,
  processesMatching,
} from './host-harness';

// The config fuzz against the real bundled host (issue 13): a mutated config.json that a strict
// reader refuses must start nothing, not even the servers it named before, which were approved.
// The thousands of cases run in-process (native-host/config/load.fuzz.test.ts,
// native-host/host/setup.fuzz.test.ts); these few check the same promise with `ps`.

const FILES = 6;
/** Fixed, so that the file text (and so each mutation) depends on the seed alone. */
const MARKER = 'sy-fuzz-config-marker';

/** The first `count` seeded mutations a strict reader refuses, with their case numbers. */
function rejectedFiles(base: Record<string, unknown>, count: number): Array<[number, Buffer]> {
  const found: Array<[number, Buffer]> = [];
  for (let index = 0; found.length < count && index < 1_000; index += 1) {
    const bytes = mutatedConfig(caseRng(FUZZ_SEED, index), base);
    if (strictRead(bytes, 1_048_576, 64).kind !== 'json') found.push([index, bytes]);
  }
  return found;
}

describe(`config.json fuzz against the real host (FUZZ_SEED=${FUZZ_SEED})`, () => {
  it(`starts nothing for ${FILES} seeded files it must refuse, and says where`, async () => {
    const base = baseConfig(process.execPath, [FIXTURE_SERVER, MARKER]);
    const home = makeHome(base);
    approveAll(home);
    // The control: the file as written runs its two enabled servers, which ps sees.
    // The files server's ${TOKEN} must be set, or its start fails (missing-variable).
    const control = new HostHarness(home, { env: { TOKEN: 'fuzz-token' } });
    try {
      await control.hello();
      const states = (await control.settled()).map((s) => [s.name, s.status.state]);
      expect(states).toEqual([
        ['files', 'running'],
        ['memory', 'running'],
        ['off', 'stopped'],
      ]);
      expect(childrenOf(control.child.pid ?? 0)).toHaveLength(2);
    } finally {
      await control.close();
    }
    for (const [index, bytes] of rejectedFiles(base, FILES)) {
      const label = `FUZZ_SEED=${FUZZ_SEED} FUZZ_CASE=${index}`;
      writeFileSync(join(home, 'config.json'), bytes);
      const host = new HostHarness(home);
      try {
        const hello = await host.hello();
        const warnings = (hello.result as { configWarnings: string[] }).configWarnings;
        expect(warnings[0], label).toMatch(/config\.json(:\d+:\d+)?: /);
        expect(await host.call('servers/list'), label).toEqual({ servers: [] });
        expect(childrenOf(host.child.pid ?? 0), label).toEqual([]);
      } finally {
        const exit = await host.close();
        expect(exit, `${label}\n${host.stderr.join('')}`).toEqual({ code: 0, signal: null });
      }
      expect(processesMatching(MARKER), label).toEqual([]);
    }
  });
});
