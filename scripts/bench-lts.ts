import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ltsNode } from './package-bin';

/**
 * `npm run bench:lts`: the whole bench (bench/run.ts) on the current LTS of Node (the pinned
 * `node-lts-<os>-<arch>` package) instead of the Node that runs `npm`: the bench itself, the host, the servers and
 * the direct clients all on it, so its ratios stay side by side on one Node. The figures go to
 * dist/bench/latest-lts.json beside the usual dist/bench/latest.json.
 */

const ROOT = resolve(import.meta.dirname, '..');
const { path } = ltsNode();
if (!existsSync(path)) {
  process.stderr.write(`${path} is missing: run npm ci\n`);
  process.exit(1);
}
const run = spawnSync(path, ['--import', 'tsx', join(ROOT, 'bench', 'run.ts')], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, SWITCHYARD_BENCH_RESULTS: join(ROOT, 'dist', 'bench', 'latest-lts.json') },
});
if (run.error !== undefined) process.stderr.write(`cannot run ${path}: ${run.error.message}\n`);
process.exit(run.status ?? 1);
