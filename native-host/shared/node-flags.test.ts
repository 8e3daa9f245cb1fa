import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HOST_NODE_FLAGS, V8_RUNTIME_FLAGS } from './node-flags';

/**
 * Node refuses an option it does not know ("bad option", exit 9). The launcher's flags must be
 * ones this Node accepts, or the browser's host would not start; the run-time flags are set with
 * `v8.setFlagsFromString`, which ignores an unknown one, so a Node that dropped one would
 * silently run the host with V8's defaults. Either way, a test fails here first.
 */
describe('node flags', () => {
  it.each([
    ...HOST_NODE_FLAGS.map((flag) => ['launcher', flag] as const),
    ...V8_RUNTIME_FLAGS.map((flag) => ['run-time', flag] as const),
  ])('%s flag %s is accepted by this Node', (_kind, flag) => {
    const run = spawnSync(process.execPath, [flag, '-e', '0'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('a flag Node does not know is refused, so the test above can fail', () => {
    const run = spawnSync(process.execPath, ['--no-such-switchyard-flag', '-e', '0'], {
      encoding: 'utf8',
    });
    expect(run.status).not.toBe(0);
  });
});
