import { execFileSync } from 'node:child_process';
import { readlinkSync, realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HelloResultSchema } from '../../protocol/hello';
import { hostRuntime, nodeSupport } from '../../native-host/shared/node-support';
import { HOST_NODE, HostHarness, makeHome } from './host-harness';

/**
 * The integration projects run the same tests with the host on two Nodes (vitest.config.ts): the
 * tests' own (the oldest the product supports) and, in `integration-lts`, the current LTS. This
 * checks the host really runs on the one its project names, so a second project cannot quietly
 * test the first Node twice.
 */

const wanted = process.env['SWITCHYARD_TEST_HOST_NODE_MAJOR'];

describe('the Node the host runs on', () => {
  it('is the one this project names, and the hello says which', async ({ task }) => {
    // Should the project's environment ever stop reaching this worker, both the Node and the
    // version wanted would fall back to the tests' own, and the check below would pass on it.
    if (task.file.projectName === 'integration-lts') {
      expect(wanted, 'SWITCHYARD_TEST_HOST_NODE_MAJOR in integration-lts').toBeDefined();
      expect(HOST_NODE).not.toBe(process.execPath);
    }
    const version = execFileSync(HOST_NODE, ['-p', 'process.versions.node'], {
      encoding: 'utf8',
    }).trim();
    if (wanted !== undefined) expect(version.split('.')[0], `node ${version}`).toBe(wanted);
    else expect(version).toBe(process.versions.node);

    const host = new HostHarness(makeHome({ mcpServers: {} }));
    try {
      const hello = await host.hello();
      // The hello tells the extension which Node runs the host and whether it still gets fixes.
      const runtime = hostRuntime(nodeSupport(version, new Date()));
      expect(runtime).not.toBeNull();
      expect(HelloResultSchema.parse(hello.result).runtime).toEqual(runtime);
      const pid = host.child.pid;
      expect(pid).toBeDefined();
      // /proc names the program a process runs; elsewhere the version check above stands alone.
      if (process.platform === 'linux' && pid !== undefined) {
        expect(realpathSync(readlinkSync(`/proc/${pid}/exe`))).toBe(realpathSync(HOST_NODE));
      }
    } finally {
      await host.close();
    }
  });
});
