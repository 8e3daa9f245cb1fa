import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from './source-files';

// The `node` devDependency is Node 22 for the conformance suite, and `node-lts` is Node 26 for
// the integration tests that run the host on the current LTS. Their bin links would put one of
// them first on PATH in every npm script, so the build and the tests would run on it instead of
// the Node the developer has; scripts/keep-system-node.mjs (postinstall) removes the links.
test('no node_modules/.bin/node shadows the Node that runs the build and the tests', () => {
  const shadows = ['node', 'node.cmd', 'node.ps1'].filter((name) => {
    try {
      fs.lstatSync(path.join(ROOT, 'node_modules', '.bin', name));
      return true;
    } catch {
      return false;
    }
  });
  expect(
    shadows,
    'node_modules/.bin/node is there: run `node scripts/keep-system-node.mjs` (npm install runs it as postinstall)',
  ).toEqual([]);
});
