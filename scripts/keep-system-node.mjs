// The `node` devDependency (Node 22 for the conformance suite, which needs `fs.globSync`) and
// `node-lts` (the current LTS, which the integration tests also run the host on) each declare a
// `node` bin, and npm puts node_modules/.bin first on PATH in every script: left alone, `npm test`,
// the build and every test would quietly run on one of them instead of the Node the user has (the
// product supports 20.19 and later). Their users find them by package path instead
// (scripts/conformance.ts, vitest.config.ts), so the links are removed. Run by `postinstall`.
import { lstatSync, readFileSync, readlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

const bin = join(import.meta.dirname, '..', 'node_modules', '.bin');
// What npm writes for that package: a symlink to ../node/bin/node, or on Windows shims naming it.
const pointsAtNodePackage = /(^|[\\/])node(-lts)?[\\/]bin[\\/]node\b/;

for (const name of ['node', 'node.cmd', 'node.ps1']) {
  const file = join(bin, name);
  let target;
  try {
    target = lstatSync(file).isSymbolicLink() ? readlinkSync(file) : readFileSync(file, 'utf8');
  } catch {
    continue; // Not there: nothing shadows the system Node.
  }
  if (pointsAtNodePackage.test(target)) unlinkSync(file);
}
