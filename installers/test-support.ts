import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEV_EXTENSION_ID } from '../protocol/identity';
import type { Browser } from './browsers';
import { applyInstall } from './install';
import { planInstall, type InstallPlan, type InstallRequest } from './plan';
import type { Receipt } from './receipt';
import type { RegistryRunner } from './registry';
import { BUILD_LINE_PREFIX, MAIN_BUNDLE_FILE } from '../native-host/shared/code-cache';

/**
 * A throwaway machine for the installer's tests: a home folder, a Switchyard home, a Chromium
 * profile folder, a stand-in host bundle and node, all under one temporary folder.
 */
export interface InstallFixture {
  readonly root: string;
  readonly homedir: string;
  readonly home: string;
  readonly profile: string;
  readonly bundleSource: string;
  readonly node: string;
  readonly uid: number;
  request(browsers: readonly Browser[], change?: Partial<InstallRequest>): InstallRequest;
  plan(
    browsers: readonly Browser[],
    previous?: Receipt | null,
    change?: Partial<InstallRequest>,
  ): InstallPlan;
  cleanup(): void;
}

export const FAKE_BUNDLE = '#!/usr/bin/env node\n"use strict";/* stand-in host entry */\n';
export const FAKE_MAIN_BUNDLE = `${BUILD_LINE_PREFIX}${'0'.repeat(64)}\n"use strict";/* stand-in main bundle */\n`;

export function makeInstallFixture(): InstallFixture {
  const root = mkdtempSync(path.join(tmpdir(), 'switchyard-install-'));
  const homedir = path.join(root, 'home');
  const home = path.join(root, 'switchyard home');
  const profile = path.join(root, 'chromium profile');
  const src = path.join(root, 'dist', 'host');
  mkdirSync(homedir, { recursive: true });
  mkdirSync(profile, { recursive: true, mode: 0o700 });
  mkdirSync(src, { recursive: true });
  const bundleSource = path.join(src, 'switchyard.cjs');
  writeFileSync(bundleSource, FAKE_BUNDLE);
  writeFileSync(path.join(src, MAIN_BUNDLE_FILE), FAKE_MAIN_BUNDLE);
  writeFileSync(path.join(src, `${MAIN_BUNDLE_FILE}.map`), '{"version":3}');
  const node = path.join(root, 'bin', 'node');
  mkdirSync(path.dirname(node));
  writeFileSync(node, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  const request = (
    browsers: readonly Browser[],
    change: Partial<InstallRequest> = {},
  ): InstallRequest => ({
    platform: 'linux',
    homedir,
    home,
    browsers,
    userDataDir: null,
    extensionIds: [DEV_EXTENSION_ID],
    node,
    version: '0.1.0',
    loginPath: { value: '/usr/bin:/bin', source: 'login-shell', shell: '/bin/sh' },
    ...change,
  });
  return {
    root,
    homedir,
    home,
    profile,
    bundleSource,
    node,
    uid: process.getuid?.() ?? 0,
    request,
    plan(browsers, previous = null, change = {}) {
      const result = planInstall(request(browsers, change), previous);
      if (!result.ok) throw new Error(result.message);
      return result.plan;
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Carries out `plan` on the fixture's machine (Linux, a fake registry); throws if it fails. */
export async function installPlan(fx: InstallFixture, plan: InstallPlan): Promise<void> {
  const result = await applyInstall(plan, null, {
    platform: 'linux',
    bundleSource: fx.bundleSource,
    dryRun: false,
    uid: fx.uid,
    registry: fakeRegistry().run,
  });
  if (!result.ok) throw new Error(result.message);
}

/** An in-memory HKCU for reg.exe argv: records every call. */
export function fakeRegistry(): {
  run: RegistryRunner;
  keys: Map<string, string>;
  calls: string[][];
} {
  const keys = new Map<string, string>();
  const calls: string[][] = [];
  const run: RegistryRunner = (argv) => {
    calls.push([...argv]);
    const [verb, key = ''] = argv;
    if (verb === 'query') {
      const value = keys.get(key);
      return Promise.resolve(
        value === undefined
          ? {
              code: 1,
              stdout: '',
              stderr: 'ERROR: The system was unable to find the specified registry key or value.',
            }
          : {
              code: 0,
              stdout: `\r\n${key}\r\n    (Default)    REG_SZ    ${value}\r\n\r\n`,
              stderr: '',
            },
      );
    }
    if (verb === 'add') {
      keys.set(key, argv[argv.indexOf('/d') + 1] ?? '');
      return Promise.resolve({
        code: 0,
        stdout: 'The operation completed successfully.',
        stderr: '',
      });
    }
    if (verb === 'delete') {
      const existed = keys.delete(key);
      return Promise.resolve(
        existed
          ? { code: 0, stdout: '', stderr: '' }
          : { code: 1, stdout: '', stderr: 'not found' },
      );
    }
    return Promise.resolve({ code: 1, stdout: '', stderr: `unknown verb ${String(verb)}` });
  };
  return { run, keys, calls };
}
