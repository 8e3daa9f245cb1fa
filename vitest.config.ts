import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The current LTS of Node (the `node-lts` devDependency, `npm:node@…`), which `integration-lts`
 * runs the host on: most users have it, while the tests themselves run on the oldest Node the
 * product supports. Found by its package path, as its bin link is removed on install
 * (scripts/keep-system-node.mjs).
 */
const LTS_PACKAGE = join(import.meta.dirname, 'node_modules', 'node-lts');
const ltsNode = join(LTS_PACKAGE, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
const ltsMajor = (
  JSON.parse(readFileSync(join(LTS_PACKAGE, 'package.json'), 'utf8')) as {
    version: string;
  }
).version.split('.')[0];

const integration = {
  include: ['test/integration/**/*.test.ts'],
  setupFiles: ['test/integration/setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'protocol/**/*.test.ts',
            'native-host/**/*.test.ts',
            'extension/**/*.test.ts',
            'installers/**/*.test.ts',
            'scripts/**/*.test.ts',
            'test/invariants/**/*.test.ts',
            'test/conformance/**/*.test.ts',
          ],
        },
      },
      { test: { name: 'integration', ...integration } },
      {
        // The same tests, the host and its CLI on the current LTS. The conformance suite runs
        // its own Node (22) and is not repeated.
        test: {
          name: 'integration-lts',
          ...integration,
          exclude: ['test/integration/conformance.test.ts'],
          env: { SWITCHYARD_TEST_HOST_NODE: ltsNode, SWITCHYARD_TEST_HOST_NODE_MAJOR: ltsMajor },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.spec.ts'],
          setupFiles: ['test/e2e/support/setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // One browser at a time: each spec file launches its own Chromium.
          fileParallelism: false,
          maxWorkers: 1,
        },
      },
    ],
  },
});
