import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { HOST_NAME } from '../../../protocol/identity';
import {
  FILESYSTEM_SERVER,
  HOST_BUNDLE,
  MEMORY_SERVER,
  type ServerEntryInput,
} from '../../integration/host-harness';

/**
 * A throwaway Switchyard user for one browser test: a Chromium user-data-dir, a HOME, a
 * SWITCHYARD_HOME with a config.json, and a workspace folder for the filesystem server, all under
 * one temp folder whose path marks every process started for it. The host is registered for the
 * user-data-dir by the real installer, as a user would (`switchyard install --browser chromium
 * --user-data-dir <dir>`), and the servers are approved with `switchyard trust --all --yes`.
 */

export interface ProfilePaths {
  /** The temp folder holding everything below; its path appears in the browser's command line. */
  readonly root: string;
  /** Chromium's `--user-data-dir`; host manifests live in its `NativeMessagingHosts/`. */
  readonly userDataDir: string;
  /** HOME for the browser, the host and the CLI. */
  readonly home: string;
  /** SWITCHYARD_HOME: config.json, trust store, audit.jsonl. */
  readonly switchyardHome: string;
  /** The folder the filesystem server may read and write. */
  readonly workspace: string;
}

export interface ProfileOptions {
  /** config.json's `mcpServers`; default: the filesystem server on `workspace` and memory. */
  readonly servers?: (paths: ProfilePaths) => Record<string, ServerEntryInput>;
  /** Files to create in the workspace, by relative path. */
  readonly workspaceFiles?: Readonly<Record<string, string>>;
  /** Approve every server with `switchyard trust --all --yes` (default true). */
  readonly trusted?: boolean;
  /** Register the host for the user-data-dir before the test (default true). */
  readonly installed?: boolean;
}

/** One line of `$SWITCHYARD_HOME/audit.jsonl`. */
const AuditLineSchema = z.record(z.string(), z.unknown());
export type AuditLine = z.infer<typeof AuditLineSchema>;

export interface SwitchyardProfile extends ProfilePaths {
  /**
   * The environment of the browser (the host inherits it; the installed launcher also sets
   * SWITCHYARD_HOME itself) and of the CLI.
   */
  readonly env: Readonly<Record<string, string>>;
  /** `<userDataDir>/NativeMessagingHosts/com.switchyard.host.json` */
  readonly hostManifest: string;
  /** Runs `switchyard <args>` (the built bundle) as this user: stdout, or throws with stderr. */
  cli(args: readonly string[]): string;
  /** Registers the host: `switchyard install --browser chromium --user-data-dir <dir>`. */
  install(): void;
  /** Removes the registration with the real uninstaller. */
  uninstall(): void;
  /** The audit log's entries so far (none when the file does not exist yet). */
  auditLog(): AuditLine[];
  /** Deletes the temp folder (kept with SWITCHYARD_E2E_KEEP=1). Close the browser first. */
  dispose(): void;
}

/** The reference servers from devDependencies, run with `node <entry>` as test/integration does. */
export function referenceServers(paths: ProfilePaths): Record<string, ServerEntryInput> {
  return {
    filesystem: { command: process.execPath, args: [FILESYSTEM_SERVER, paths.workspace] },
    memory: {
      command: process.execPath,
      args: [MEMORY_SERVER],
      env: { MEMORY_FILE_PATH: join(paths.root, 'memory.jsonl') },
    },
  };
}

/** The variables that would point a child at the developer's own state. */
const OVERRIDDEN = ['NODE_OPTIONS', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME'];

function environment(paths: ProfilePaths): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !OVERRIDDEN.includes(key)) env[key] = value;
  }
  return { ...env, HOME: paths.home, SWITCHYARD_HOME: paths.switchyardHome };
}

export function createProfile(options: ProfileOptions = {}): SwitchyardProfile {
  const root = mkdtempSync(join(tmpdir(), 'switchyard-e2e-'));
  const paths: ProfilePaths = {
    root,
    userDataDir: join(root, 'user-data'),
    home: join(root, 'home'),
    switchyardHome: join(root, 'switchyard'),
    workspace: join(root, 'workspace'),
  };
  for (const dir of [paths.userDataDir, paths.home, paths.switchyardHome, paths.workspace]) {
    mkdirSync(dir, { recursive: true });
  }
  for (const [file, text] of Object.entries(options.workspaceFiles ?? {})) {
    writeFileSync(join(paths.workspace, file), text);
  }
  const servers = (options.servers ?? referenceServers)(paths);
  writeFileSync(
    join(paths.switchyardHome, 'config.json'),
    JSON.stringify({ mcpServers: servers }, null, 2),
  );
  const env = environment(paths);
  const cli = (args: readonly string[]): string => {
    try {
      return execFileSync(process.execPath, [HOST_BUNDLE, ...args], {
        env,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      const stderr =
        error instanceof Error && 'stderr' in error ? String(error.stderr) : String(error);
      throw new Error(`switchyard ${args.join(' ')} failed:\n${stderr}`, { cause: error });
    }
  };
  const registration = ['--browser', 'chromium', '--user-data-dir', paths.userDataDir];
  const auditFile = join(paths.switchyardHome, 'audit.jsonl');
  const profile: SwitchyardProfile = {
    ...paths,
    env,
    hostManifest: join(paths.userDataDir, 'NativeMessagingHosts', `${HOST_NAME}.json`),
    cli,
    install: () => {
      cli(['install', ...registration]);
    },
    uninstall: () => {
      // Uninstall removes what the install receipt ($SWITCHYARD_HOME/install.json) lists.
      cli(['uninstall', '--browser', 'chromium']);
    },
    auditLog: () =>
      existsSync(auditFile)
        ? readFileSync(auditFile, 'utf8')
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => AuditLineSchema.parse(JSON.parse(line)))
        : [],
    dispose: () => {
      if (process.env['SWITCHYARD_E2E_KEEP'] === '1') {
        process.stderr.write(`switchyard e2e: kept ${root}\n`);
        return;
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
  // A user's order: install, then approve (the host resolves server commands with the login
  // PATH the installer recorded).
  try {
    if (options.installed !== false) profile.install();
    if (options.trusted !== false && Object.keys(servers).length > 0) {
      cli(['trust', '--all', '--yes']);
    }
  } catch (error) {
    profile.dispose();
    throw error;
  }
  return profile;
}
