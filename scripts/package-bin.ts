import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';

/**
 * Finding the programs devDependencies install, by their package path rather than through
 * node_modules/.bin: the two Node packages (`node`, Node 22 for the conformance suite, and
 * `node-lts`, the current LTS the integration tests also run the host on) have their bin links
 * removed on install so they never shadow the Node that runs the build and the tests
 * (scripts/keep-system-node.mjs).
 */

const ROOT = resolve(import.meta.dirname, '..');

/** A devDependency that is missing or lacks the bin asked for: `npm ci` fixes it. */
export class MissingPackageError extends Error {}

const PackageBinSchema = z.object({
  version: z.string(),
  bin: z.union([z.string(), z.record(z.string(), z.string())]),
});

/**
 * The absolute path of `name`'s bin `binName` in node_modules, from its package.json (which the
 * Node packages' install script rewrites to `bin/node.exe` on Windows), and the package version.
 */
export function packageBin(name: string, binName: string): { path: string; version: string } {
  const require = createRequire(join(ROOT, 'package.json'));
  let manifestPath: string;
  try {
    manifestPath = require.resolve(`${name}/package.json`);
  } catch {
    throw new MissingPackageError(`${name} is not installed: run npm ci`);
  }
  const manifest = PackageBinSchema.parse(JSON.parse(readFileSync(manifestPath, 'utf8')));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[binName];
  if (bin === undefined) throw new MissingPackageError(`${name} has no '${binName}' bin`);
  return { path: join(dirname(manifestPath), bin), version: manifest.version };
}

/** The current LTS of Node (the `node-lts` devDependency): its binary and major version. */
export function ltsNode(): { path: string; major: string } {
  const { path, version } = packageBin('node-lts', 'node');
  return { path, major: version.split('.')[0] ?? version };
}
