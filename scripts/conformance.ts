/**
 * Runs every client scenario of the MCP conformance suite (`@modelcontextprotocol/conformance`,
 * pinned) against the bundled host, through test/conformance/client.ts, and compares the result
 * with test/conformance/baseline.json.
 *
 *   npm run conformance                       # build the host, then every scenario
 *   node --import tsx scripts/conformance.ts [--scenario NAME]... [--keep]
 *
 * The suite needs Node 22 (it imports `fs.globSync`): it runs on the binary of the `node`
 * devDependency, found by its package path; the adapter and the host run on the Node that runs
 * this script, the one the user has. Scenarios run one at a time: the suite's sse-retry scenario
 * measures the client's reconnection delay to within 200 ms, and the machine has two cores.
 *
 * Prints a line per scenario, then "conformance: N passed, M failed (K expected)". Exits 1 on a
 * failure the baseline does not list, on a listed one that passed (remove it), or on an entry
 * naming no scenario; 2 when something needed is missing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MissingPackageError, packageBin, pinnedNode } from './package-bin';
import {
  BaselineSchema,
  ChecksFileSchema,
  outcomeOf,
  summaryLine,
  verdictOf,
  type ScenarioOutcome,
  type ScenarioRun,
} from '../test/conformance/verdict';

const ROOT = resolve(import.meta.dirname, '..');
const HOST_BUNDLE = join(ROOT, 'dist/host/switchyard.cjs');
const ADAPTER = join(ROOT, 'test/conformance/client.ts');
const BASELINE = join(ROOT, 'test/conformance/baseline.json');
/** The suite's own per-scenario limit for the client (its default). */
const CLIENT_TIMEOUT_MS = 30_000;
/** Past this the suite itself is stuck (its servers, not the client): it is killed. */
const SUITE_RUN_LIMIT_MS = CLIENT_TIMEOUT_MS + 20_000;

class SetupError extends Error {}

/** Node 22, pinned for this machine in package.json's optionalDependencies (`node22-<os>-<arch>`). */
function suiteNode(): string {
  const { path } = pinnedNode('node22');
  const probe = spawnSync(path, ['--version'], { encoding: 'utf8' });
  const major = /^v(\d+)\./.exec(probe.stdout)?.[1];
  if (probe.status !== 0 || major === undefined || Number(major) < 22) {
    throw new SetupError(
      `${path} is not Node 22 or later (${probe.error?.message ?? probe.stdout.trim()}): run npm ci`,
    );
  }
  return path;
}

/** Every client scenario the pinned suite has, from `conformance list --client`. */
function listScenarios(node: string, suite: string): string[] {
  const listed = spawnSync(node, [suite, 'list', '--client'], { encoding: 'utf8', cwd: ROOT });
  if (listed.status !== 0) throw new SetupError(`conformance list failed: ${listed.stderr}`);
  const names = [...listed.stdout.matchAll(/^\s+- (\S+) \[/gm)].map((m) => m[1] ?? '');
  if (names.length === 0)
    throw new SetupError(`conformance list printed no scenario:\n${listed.stdout}`);
  return names;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((rel) => join(dir, rel));
}

/** The adapter's last "FAILED: ..." line in the stderr the suite saved for it. */
function adapterError(resultFiles: readonly string[]): string | undefined {
  const stderrFile = resultFiles.find((file) => file.endsWith('stderr.txt'));
  if (stderrFile === undefined) return undefined;
  const lines = readFileSync(stderrFile, 'utf8').split('\n');
  return lines
    .reverse()
    .find((line) => line.startsWith('conformance adapter: FAILED: '))
    ?.slice('conformance adapter: FAILED: '.length);
}

function runScenario(
  node: string,
  suite: string,
  scenario: string,
  outDir: string,
): Promise<ScenarioRun> {
  // The suite splits --command on spaces and runs it through a shell: quote each part.
  const command = [process.execPath, '--import', 'tsx', ADAPTER].map((p) => `'${p}'`).join(' ');
  const child = spawn(
    node,
    [
      suite,
      'client',
      '--command',
      command,
      '--scenario',
      scenario,
      '--timeout',
      String(CLIENT_TIMEOUT_MS),
      '-o',
      outDir,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), SUITE_RUN_LIMIT_MS);
  return new Promise((resolveRun) => {
    child.once('close', (code) => {
      clearTimeout(killer);
      const files = existsSync(outDir) ? filesUnder(outDir) : [];
      const checksFile = files.find((file) => file.endsWith('checks.json'));
      const clientError = adapterError(files);
      resolveRun({
        scenario,
        exitCode: code,
        checks:
          checksFile === undefined
            ? null
            : ChecksFileSchema.parse(JSON.parse(readFileSync(checksFile, 'utf8'))),
        ...(clientError === undefined ? {} : { clientError }),
        timedOut: output.includes('CLIENT TIMED OUT') || code === null,
      });
    });
  });
}

function parseArgs(argv: readonly string[]): { scenarios: string[]; keep: boolean } {
  const scenarios: string[] = [];
  let keep = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--keep') keep = true;
    else if (arg === '--scenario' && argv[i + 1] !== undefined)
      scenarios.push(argv[(i += 1)] ?? '');
    else throw new SetupError(`unknown argument '${arg ?? ''}' (use --scenario NAME, --keep)`);
  }
  return { scenarios, keep };
}

function describeOutcome(outcome: ScenarioOutcome, expectedReason: string | undefined): string {
  const { success, failure, warning } = outcome.checkCounts;
  const counts = `${success} checks passed, ${failure} failed, ${warning} warnings`;
  if (outcome.passed) {
    const stale = expectedReason === undefined ? '' : ' - listed in the baseline: remove it';
    return `  pass  ${outcome.scenario} (${counts})${stale}`;
  }
  const head =
    expectedReason === undefined
      ? `  FAIL  ${outcome.scenario} (${counts})`
      : `  fail  ${outcome.scenario} (${counts}) - expected: ${expectedReason}`;
  return [head, ...outcome.problems.map((p) => `          ${p}`)].join('\n');
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (!existsSync(HOST_BUNDLE))
    throw new SetupError(`${HOST_BUNDLE} is missing: run npm run build:host`);
  const node = suiteNode();
  const suite = packageBin('@modelcontextprotocol/conformance', 'conformance');
  const baseline = BaselineSchema.parse(JSON.parse(readFileSync(BASELINE, 'utf8')));
  const all = listScenarios(node, suite.path);
  const unknownArgs = args.scenarios.filter((s) => !all.includes(s));
  if (unknownArgs.length > 0) throw new SetupError(`no such scenario: ${unknownArgs.join(', ')}`);
  const scenarios = args.scenarios.length > 0 ? args.scenarios : all;

  console.log(
    `conformance: @modelcontextprotocol/conformance ${suite.version}, ${scenarios.length} client scenarios, host ${HOST_BUNDLE} on Node ${process.version}`,
  );
  const work = mkdtempSync(join(tmpdir(), 'switchyard-conformance-'));
  const outcomes: ScenarioOutcome[] = [];
  try {
    for (const [index, scenario] of scenarios.entries()) {
      const run = await runScenario(node, suite.path, scenario, join(work, String(index)));
      const outcome = outcomeOf(run);
      outcomes.push(outcome);
      console.log(describeOutcome(outcome, baseline.expectedFailures[scenario]));
    }
  } finally {
    if (args.keep) console.log(`conformance: results kept in ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }

  const verdict = verdictOf(outcomes, baseline, all);
  if (verdict.unexpected.length > 0) {
    console.log(
      `conformance: unexpected failures: ${verdict.unexpected.join(', ')}. Fix them, or list each in test/conformance/baseline.json with the reason.`,
    );
  }
  if (verdict.stale.length > 0) {
    console.log(
      `conformance: expected to fail but passed: ${verdict.stale.join(', ')}. Remove them from test/conformance/baseline.json.`,
    );
  }
  if (verdict.unknown.length > 0) {
    console.log(
      `conformance: the baseline names scenarios the suite does not have: ${verdict.unknown.join(', ')}. Remove them.`,
    );
  }
  console.log(summaryLine(verdict));
  return verdict.ok ? 0 : 1;
}

try {
  process.exitCode = await main();
} catch (error) {
  if (!(error instanceof SetupError) && !(error instanceof MissingPackageError)) throw error;
  console.error(`conformance: ${error.message}`);
  process.exitCode = 2;
}
