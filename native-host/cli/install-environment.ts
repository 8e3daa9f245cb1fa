import { promises as fs } from 'node:fs';
import os from 'node:os';
import { installPlatform, type InstallPlatform } from '../../installers/browsers';
import { recordLoginPath, type RecordedPath } from '../../installers/login-path';
import { runReg, type RegistryRunner } from '../../installers/registry';
import { switchyardHome } from '../config/paths';
import type { CliIo } from './io';
import { messageOf } from '../../protocol/guards';

/**
 * The facts `switchyard install`, `uninstall` and their tests need from the machine, injected so
 * tests run against temporary folders, a fake registry and a canned login PATH.
 */

/** The machine's facts, injectable for tests. */
export interface InstallEnvironment {
  readonly homedir: () => string;
  /** The user's uid, or null where ownership is not checked (Windows). */
  readonly uid: () => number | null;
  /** The node binary the launcher will run, and its version (`process.versions.node`). */
  readonly node: string;
  readonly nodeVersion: string;
  /** Today, for whether that Node is past its end of life. */
  readonly today: () => Date;
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
  nodeVersion: process.versions.node,
  today: () => new Date(),
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
  foreign: "left (another install's now)",
};

/**
 * The platform and Switchyard home `switchyard <command>` installs into; null, once it has said
 * why, on a platform the installer does not know or without a usable home.
 */
export function installTarget(
  io: CliIo,
  command: 'install' | 'uninstall',
  homedir: string,
): { platform: InstallPlatform; home: string } | null {
  const platform = installPlatform(io.platform);
  if (platform === null) {
    io.err(`switchyard ${command} supports Linux, macOS and Windows, not ${io.platform}.\n`);
    return null;
  }
  try {
    return { platform, home: switchyardHome(io.env, io.platform, homedir) };
  } catch (error) {
    io.err(`${messageOf(error)}\n`);
    return null;
  }
}
