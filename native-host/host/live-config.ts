import { promises as fs } from 'node:fs';
import type { ServerSummary } from '../../protocol/servers';
import { ConfigReloader } from './config-reload';
import { watchConfigFile, type ConfigWatch } from './config-watch';
import type { HostCore, LogLevel } from './core';
import { HostError } from '../shared/host-error';
import { loadSetup, type HostSetup, type SetupEnvironment } from './setup';
import { workspaceFiles } from '../config/workspace';
import { isFullyAbsolute } from '../config/workspace-folder';
import {
  addUserServer,
  removeUserServer,
  setUserServerApps,
  type UserServersContext,
} from './user-servers';
import type { NewUserServer } from './written-entry';
import { isErrno } from '../shared/errno';
import { messageOf } from '../../protocol/guards';
import { updateUserServer, type ServerEdit } from './user-server-edit';

/**
 * The running host's configuration, kept live: config.json and the workspace files of every
 * folder it names (`.mcp.json`, `.vscode/mcp.json`) are watched and reloaded (any writer: an
 * editor, a `git checkout`, `switchyard add`, the host itself), and `servers/add` /
 * `servers/remove` write config.json through user-servers.ts, then reload, so the host runs
 * exactly what was written. A workspace edit goes through the launch gate like any other: what
 * changed waits for approval, the rest runs on. Wiring only: the diff is config-reload.ts, the
 * gate is the core's.
 */

export interface LiveConfigOptions extends SetupEnvironment {
  readonly core: HostCore;
  /** The configuration the host started with; must have a config file. */
  readonly initial: HostSetup & { readonly configFile: string };
  readonly log: (level: LogLevel, message: string) => void;
  readonly debounceMs?: number;
}

export class LiveConfig {
  private readonly reloader: ConfigReloader;
  private readonly context: UserServersContext;
  private readonly core: HostCore;
  private readonly file: string;
  private readonly debounceMs: number | undefined;
  /** Watched files by path: config.json and the workspace files of the configuration in force. */
  private readonly watches = new Map<string, ConfigWatch>();
  private started = false;
  private followed: HostSetup;
  private readonly log: (level: LogLevel, message: string) => void;

  constructor(options: LiveConfigOptions) {
    const { env, platform, homedir, core, initial } = options;
    this.core = core;
    this.log = options.log;
    this.file = initial.configFile;
    this.debounceMs = options.debounceMs;
    // The core's own store: calls on one instance run one at a time, so an approval written here
    // never races (and undoes) a revocation or pin the core writes.
    const trust = core.trustStore;
    this.context = { env, platform, ...(homedir === undefined ? {} : { homedir }), trust };
    const environment: SetupEnvironment = this.context;
    this.followed = initial;
    this.reloader = new ConfigReloader({
      initial,
      load: () => loadSetup(environment),
      configExists: () => exists(this.file),
      apply: async (setup) => {
        const applied = await core.applyConfig(setup);
        this.follow(setup);
        return applied;
      },
      log: options.log,
    });
  }

  /** Starts watching the files; every change is reloaded (debounced). */
  start(): void {
    this.started = true;
    this.follow(this.followed);
  }

  close(): void {
    this.started = false;
    for (const watch of this.watches.values()) watch.close();
    this.watches.clear();
  }

  /**
   * Watches config.json and the workspace files `setup` read, and stops watching those of
   * folders it no longer names. A folder that does not exist yet is retried, and its file loaded
   * once it appears (config-watch.ts).
   */
  private follow(setup: HostSetup): void {
    this.followed = setup;
    if (!this.started) return;
    // The folders the workspace loader reads (it refuses one a current drive could move).
    const folders = (setup.workspaceFolders ?? []).filter((folder) => isFullyAbsolute(folder));
    // The first call (at start) sets the watches up; later ones follow a reload's folder set.
    const startup = this.watches.size === 0;
    const wanted = new Set([this.file, ...folders.flatMap(workspaceFiles)]);
    for (const [file, watch] of this.watches) {
      if (wanted.has(file)) continue;
      watch.close();
      this.watches.delete(file);
    }
    const added = [...wanted].filter((file) => !this.watches.has(file));
    for (const file of added) {
      const watch = watchConfigFile({
        file,
        onChange: () => {
          void this.reloader.reload();
        },
        ...(this.debounceMs === undefined ? {} : { debounceMs: this.debounceMs }),
      });
      this.watches.set(file, watch);
    }
    // A file watched only now may have changed since the reload read it: read again (that
    // reload adds no file, so it ends there).
    if (!startup && added.length > 0) void this.reloader.reload();
  }

  /** The files watched now (for tests). */
  watchedFiles(): string[] {
    return [...this.watches.keys()];
  }

  /** Configuration warnings in force, for `host/hello`. */
  warnings(): string[] {
    return this.reloader.warnings();
  }

  /** `servers/add`: written, approved, then started; answers once the start has settled. */
  async addServer(server: NewUserServer & { readonly replace?: boolean }): Promise<ServerSummary> {
    const { value, settled } = await this.reloader.afterWrite(() =>
      addUserServer(server, { replace: server.replace === true }, this.context),
    );
    this.core.auditTrust(value.name, 'written-by-switchyard', value.fingerprint ?? undefined);
    await settled;
    return this.loaded(value.name, value.configFile);
  }

  /**
   * `servers/update`: the entry's launch rewritten, nothing approved; a launch that changed waits
   * at the gate (its running process stopped), an unchanged one is left as it is.
   */
  async updateServer(name: string, edit: ServerEdit): Promise<ServerSummary> {
    const { value, settled } = await this.reloader.afterWrite(() =>
      updateUserServer(name, edit, this.context),
    );
    await settled;
    return this.loaded(name, value.configFile);
  }

  /**
   * Runs another write of config.json (`policy/set`, `profiles/set`) with no reload in between,
   * so a reload that read the file before the write cannot put older settings back in force.
   */
  exclusive<T>(write: () => Promise<T>): Promise<T> {
    return this.reloader.exclusive(write);
  }

  /**
   * `servers/setApps`: writes the entry's `apps`, then reloads; a connected server reconnects to
   * be told (config-apply.ts), any other is left as it is. Answers once that has settled.
   */
  async setApps(name: string, enabled: boolean): Promise<ServerSummary> {
    const { value, settled } = await this.reloader.afterWrite(() =>
      setUserServerApps(name, enabled, this.context),
    );
    await settled;
    return this.loaded(name, value.configFile);
  }

  /** The server `name` as loaded after a write of `configFile`. */
  private loaded(name: string, configFile: string): ServerSummary {
    const summary = this.core.listServers().find((s) => s.name === name);
    if (summary === undefined) {
      throw new HostError(
        'internal',
        `Server '${name}' was written to ${configFile} but is not loaded; see the configuration warnings.`,
      );
    }
    return summary;
  }

  /**
   * `servers/remove`: the entry, its approval and its pins are gone, and its process stopped. A
   * remote server's sign-in goes too (its tokens revoked where they were issued, then deleted),
   * after the answer: a revocation endpoint that does not answer must not hold the popup. The
   * host's shutdown does not wait for it: a host that exits within the revocation's few seconds
   * leaves the tokens stored, and `switchyard auth NAME --sign-out` forgets them.
   */
  async removeServer(name: string): Promise<void> {
    const { value } = await this.reloader.afterWrite(() => removeUserServer(name, this.context));
    this.core.auditTrust(name, 'removed');
    if (value.remote) {
      void this.core.signIns.forgetRemoved(name).then(
        (result) => {
          if (result.deleted > 0) {
            this.log(
              'info',
              `'${name}' was removed: its sign-in was forgotten (${result.revocation}).`,
            );
          }
        },
        (error: unknown) => {
          this.log(
            'warning',
            `'${name}' was removed, but its sign-in could not be forgotten: ${messageOf(error)}`,
          );
        },
      );
    }
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.stat(file);
    return true;
  } catch (error) {
    // Only a file that is really gone counts as missing; anything else, load() reports.
    return !isErrno(error, 'ENOENT');
  }
}
