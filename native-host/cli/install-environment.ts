import { promises as fs } from 'node:fs';
import os from 'node:os';
import { recordLoginPath, type RecordedPath } from '../../installers/login-path';
import { runReg, type RegistryRunner } from '../../installers/registry';

/**
 * The facts `switchyard install`, `uninstall` and their tests need from the machine, injected so
 * tests run against temporary folders, a fake registry and a canned login PATH.
 */

/** The machine's facts, injectable for tests. */
export interface InstallEnvironment {
  readonly homedir: () => string;
  /** The user's uid, or null where ownership is not checked (Windows). */
  readonly uid: () => number | null;
  /** The node binary the launcher will run. */
  readonly node: string;
  /** The bundle to copy: the file this process runs. */
  readonly bundleSource: () => Promise<string | null>;
  readonly exists: (p: string) => Promise<boolean>;
  readonly recordLoginPath: (env: NodeJS.ProcessEnv) => Promise<RecordedPath | null>;
  readonly registry: RegistryRunner;
  readonly cwd: () => string;
}

export const processInstallEnvironment: InstallEnvironment = {
  homedir: () => os.homedir(),
  uid: () => (typeof process.getuid === 'function' ? process.getuid() : null),
  node: process.execPath,
  bundleSource: async () => {
    const script = process.argv[1];
    if (script === undefined) return null;
    try {
      return await fs.realpath(script);
    } catch {
      return null;
    }
  },
  exists: async (p) => {
    try {
      await fs.stat(p);
      return true;
    } catch {
      return false;
    }
  },
  recordLoginPath: (env) => recordLoginPath({ env }),
  registry: runReg,
  cwd: () => process.cwd(),
};

/** How each action status is printed. */
export const STATUS_TEXT: Readonly<Record<string, string>> = {
  written: 'wrote',
  unchanged: 'unchanged',
  'would-write': 'would write',
  removed: 'removed',
  absent: 'not found',
  'would-remove': 'would remove',
};
