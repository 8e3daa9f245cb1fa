import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseConfig, mutatedConfig } from '../../test/support/config-fuzz';
import { FUZZ_SEED, caseIndexes, caseLabel, caseRng, sameJson } from '../../test/support/fuzz';
import { LaunchError, type LaunchFn } from '../mcp/runtime-types';
import type { ServerLaunch } from '../shared/server-spec';
import { launchFingerprint } from '../trust/fingerprint';
import { TrustStore } from '../trust/trust-store';
import { HostCore } from './core';
import { loadSetup } from './setup';

// Seeded fuzzing of config.json through the whole start (issue 13): the setup reads a mutated
// file, the core starts what it loaded through the launch gate. The dangerous direction is a
// process started for a file that was rejected, or for a launch nobody approved: the base file's
// servers are approved, so a mutation may run exactly those and nothing else. Asserted at the
// launcher seam, which records each launch instead of spawning it.

const CASES = 1_000;
const RUN_TIMEOUT_MS = 60_000;

describe(`config.json fuzz through the setup and the launch gate (FUZZ_SEED=${FUZZ_SEED}, ${CASES} files)`, () => {
  it(
    'starts nothing for a rejected file, and nothing but the approved launches for the others',
    async () => {
      const home = mkdtempSync(path.join(tmpdir(), 'switchyard-config-fuzz-'));
      const file = path.join(home, 'config.json');
      // PATH empty: every command that resolves is the absolute one the base file gives.
      const environment = {
        env: { SWITCHYARD_HOME: home },
        platform: process.platform,
        homedir: home,
      };
      const base = baseConfig(process.execPath);
      writeFileSync(file, JSON.stringify(base, null, 2));
      const trust = await TrustStore.open(home);
      const approved = new Map<string, string>();
      for (const spec of (await loadSetup(environment)).specs) {
        if (spec.definition === null) throw new Error(`base server ${spec.name} did not resolve`);
        await trust.approveLaunch(spec.scope, spec.name, spec.definition);
        approved.set(spec.name, launchFingerprint(spec.definition));
      }
      expect([...approved.keys()]).toEqual(['files', 'memory', 'off']);

      const seen = { rejected: 0, started: 0, held: 0 };
      for (const index of caseIndexes(CASES)) {
        const label = caseLabel(index);
        writeFileSync(file, mutatedConfig(caseRng(FUZZ_SEED, index), base));
        const setup = await loadSetup(environment);
        for (const warning of setup.warnings) {
          expect(warning.startsWith(file), `${label}: ${warning.slice(0, 300)}`).toBe(true);
        }
        const launched: ServerLaunch[] = [];
        const spawnServer: LaunchFn = (launch) => {
          launched.push(launch);
          return Promise.reject(new LaunchError('spawn-failed', 'the fuzz starts nothing'));
        };
        const core = new HostCore({
          servers: setup.specs,
          spawnServer,
          clientInfo: { name: 'switchyard-fuzz', version: '0' },
          trust,
          toolPolicy: setup.toolPolicy,
        });
        await core.startAll();
        await core.shutdown();

        if (setup.configRejected) {
          seen.rejected += 1;
          expect(setup.specs, label).toEqual([]);
          expect(launched, label).toEqual([]);
          expect(setup.warnings.length, label).toBeGreaterThan(0);
          continue;
        }
        // A launch without an executable (the command was not found) spawns nothing: the
        // production launcher refuses it (command-not-found). Every other one is a process.
        const spawned = launched.filter((launch) => launch.executable !== null);
        for (const launch of spawned) {
          const spec = setup.specs.find((s) => s.name === launch.name);
          const definition = spec?.definition ?? null;
          // Spawned only as approved: the very definition whose fingerprint the user approved.
          expect(
            definition,
            `${label}: ${launch.name} launched without a definition`,
          ).not.toBeNull();
          if (definition === null) continue;
          expect(launchFingerprint(definition), `${label}: ${launch.name}`).toBe(
            approved.get(launch.name),
          );
          expect(launch.executable, label).toBe(definition.executable);
          expect(sameJson(launch.args, definition.args), label).toBe(true);
          expect(sameJson(launch.env, definition.env), label).toBe(true);
        }
        seen.started += spawned.length;
        seen.held += setup.specs.length - spawned.length;
      }
      if (caseIndexes(CASES).length === CASES) {
        expect(seen.rejected).toBeGreaterThan(CASES / 4);
        expect(seen.started).toBeGreaterThan(CASES / 10);
        expect(seen.held).toBeGreaterThan(CASES / 10);
      }
    },
    RUN_TIMEOUT_MS,
  );
});
