import { defineConfig } from 'vitest/config';

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
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          setupFiles: ['test/integration/setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
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
