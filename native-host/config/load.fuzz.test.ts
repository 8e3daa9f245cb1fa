import { describe, expect, it } from 'vitest';
import { baseConfig, mutatedConfig, strictRead } from '../../test/support/config-fuzz';
import { FUZZ_SEED, caseIndexes, caseLabel, caseRng, sameJson } from '../../test/support/fuzz';
import { MAX_JSON_DEPTH } from './json-scan';
import { ConfigError, MAX_CONFIG_FILE_BYTES, loadConfigFile, type ConfigLoadResult } from './load';

// Seeded fuzzing of config.json loading (issue 13, decision 0002). The dangerous direction is a
// loader that reads something the file did not say: text a strict JSON reader refuses taken
// anyway, an entry loaded with another command or arguments than the file gives it, or a problem
// reported without saying where, so the user cannot fix it. Mutations of a valid file: cuts,
// byte flips, wrong types, deep nesting, huge strings, duplicate keys, BOMs, comments, UTF-16.

const CASES = 10_000;
const FILE = '/home/u/.config/switchyard/config.json';
const RUN_TIMEOUT_MS = 60_000;
const LOCATED = /^\/home\/u\/\.config\/switchyard\/config\.json:(\d+):(\d+): /;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

async function load(bytes: Buffer): Promise<ConfigLoadResult | ConfigError> {
  try {
    return await loadConfigFile(FILE, () => Promise.resolve(bytes));
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
}

/** The message points at a line of the file (and a column on it). */
function expectLocated(message: string, lines: number, label: string): void {
  const match = LOCATED.exec(message);
  expect(match, `${label}: not located: ${message.slice(0, 300)}`).not.toBeNull();
  expect(Number(match?.[1]), `${label}: ${message.slice(0, 300)}`).toBeLessThanOrEqual(lines);
  expect(Number(match?.[2]), label).toBeGreaterThanOrEqual(1);
}

describe(`config.json fuzz (FUZZ_SEED=${FUZZ_SEED}, ${CASES} mutated files)`, () => {
  it(
    'loads exactly what the file says, or refuses it saying where',
    async () => {
      const base = baseConfig('/usr/bin/node');
      const seen = { rejected: 0, loaded: 0, skippedEntries: 0 };
      for (const index of caseIndexes(CASES)) {
        const label = caseLabel(index);
        const bytes = mutatedConfig(caseRng(FUZZ_SEED, index), base);
        const strict = strictRead(bytes, MAX_CONFIG_FILE_BYTES, MAX_JSON_DEPTH);
        const outcome = await load(bytes);

        if (outcome instanceof ConfigError) {
          seen.rejected += 1;
          expect(outcome.message.startsWith(FILE), label).toBe(true);
          // Only a file with nothing to point at (empty, too large, not UTF-8) may go unlocated.
          if (strict.kind !== 'unusable') expectLocated(outcome.message, strict.lines, label);
          continue;
        }
        seen.loaded += 1;
        // Accepting what a strict reader refuses would start servers nobody else reads there.
        expect(strict.kind, `${label}: accepted a file that is not strict JSON`).toBe('json');
        if (strict.kind !== 'json') continue;
        for (const warning of outcome.warnings) {
          expectLocated(warning.message, strict.lines, label);
        }

        const entries = isObject(strict.value) ? strict.value['mcpServers'] : undefined;
        const written = isObject(entries) ? entries : {};
        for (const server of outcome.servers) {
          const entry = written[server.name];
          expect(isObject(entry), `${label}: ${server.name} is not in the file`).toBe(true);
          if (!isObject(entry)) continue;
          // What would run is what the file says (for a duplicate key, the last one, as JSON.parse).
          expect(server.command, label).toBe(entry['command']);
          expect(sameJson(server.args, entry['args'] ?? []), `${label}: args`).toBe(true);
          expect(sameJson(server.env, entry['env'] ?? {}), `${label}: env`).toBe(true);
          expect(server.cwd, label).toBe(entry['cwd']);
          expect(server.disabled, label).toBe(entry['disabled'] ?? false);
        }
        // An entry not loaded is named in a warning.
        const loaded = new Set(outcome.servers.map((s) => s.name));
        for (const name of Object.keys(written).filter((n) => !loaded.has(n))) {
          seen.skippedEntries += 1;
          const named = outcome.warnings.some((w) => w.server === name);
          expect(named, `${label}: "${name}" was skipped without a warning`).toBe(true);
        }
      }
      if (caseIndexes(CASES).length === CASES) {
        // The mutations reach both outcomes and the per-entry checks, or the run proves little.
        expect(seen.rejected).toBeGreaterThan(CASES / 4);
        expect(seen.loaded).toBeGreaterThan(CASES / 10);
        expect(seen.skippedEntries).toBeGreaterThan(CASES / 100);
      }
    },
    RUN_TIMEOUT_MS,
  );
});
