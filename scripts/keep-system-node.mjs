// The Node binaries among the optional dependencies (`node22-<os>-<arch>`, Node 22 for the
// conformance suite, which needs `fs.globSync`, and `node-lts-<os>-<arch>`, the current LTS, which
// the integration tests also run the host on; npm installs the one package of each that matches
// the machine) each declare a `node` bin, and npm puts node_modules/.bin first on PATH in every
// script: left alone, `npm test`, the build and every test would quietly run on one of them
// instead of the Node the user has (the product supports 20.19 and later). Their users find them
// by package path instead (scripts/package-bin.ts), so the links are removed. Run by
// `postinstall`.
import { lstatSync, readFileSync, readlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

const bin = join(import.meta.dirname, '..', 'node_modules', '.bin');
// What npm writes for those packages: a symlink to ../node-lts-linux-x64/bin/node, or on Windows
// shims naming it. `node` and `node-lts` were their names before the binaries were pinned.
const pointsAtNodePackage =
  /(^|[\\/])(node(-lts)?|node(22|-lts)-[a-z]+-[a-z0-9]+)[\\/]bin[\\/]node\b/;

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
