import { configDefaults, defineConfig } from 'vitest/config';
import { MissingPackageError, ltsNode } from './scripts/package-bin';

/**
 * The current LTS of Node (the pinned `node-lts-<os>-<arch>` package), which `integration-lts` runs the host
 * on: most users have it, while the tests themselves run on the oldest Node the product supports.
 */
const lts = ((): { path: string; major: string } => {
  try {
    return ltsNode();
  } catch (error) {
    // The unit tests need no second Node; the LTS project fails at its first host with this.
    if (error instanceof MissingPackageError)
      return { path: 'node_modules/node-lts-missing', major: '' };
    throw error;
  }
})();

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
          exclude: [...configDefaults.exclude, 'test/integration/conformance.test.ts'],
          env: { SWITCHYARD_TEST_HOST_NODE: lts.path, SWITCHYARD_TEST_HOST_NODE_MAJOR: lts.major },
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
