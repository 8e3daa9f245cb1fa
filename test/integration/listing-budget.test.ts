import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestMethods } from '../../protocol/methods';
import { FIXTURE_SERVER, HostHarness } from './host-harness';

// One reply carries every server's resources. A server listing hundreds of long URIs used to
// make it pass the frame the browser accepts, and the picker then showed an error for every
// server. Each server now gets an equal share of the room; what is left out is said.

describe('resources/list within one frame', () => {
  let host: HostHarness;

  beforeAll(async () => {
    host = await HostHarness.start({
      big: { command: process.execPath, args: [FIXTURE_SERVER, '--context', '--many-resources'] },
      small: { command: process.execPath, args: [FIXTURE_SERVER, '--context'] },
    });
    await host.settled();
  });
  afterAll(async () => {
    await host.close();
  });

  it("keeps every server's entries that fit its share, and says how many were left out", async () => {
    const reply = await host.request('resources/list', {});
    expect(reply.error).toBeUndefined();
    const { resources, problems } = requestMethods['resources/list'].result.parse(reply.result);
    expect(resources.filter((r) => r.server === 'small').map((r) => r.uri)).toEqual([
      'scripted://notes/1',
      'scripted://notes/2',
      'scripted://notes/4',
      'scripted://notes/5',
    ]);
    const big = resources.filter((r) => r.server === 'big');
    expect(big.length).toBeGreaterThan(0);
    expect(big.length).toBeLessThan(200);
    expect(problems).toContainEqual({
      server: 'big',
      message: `${String(200 - big.length)} entries were left out to fit one message`,
    });
  });
});
