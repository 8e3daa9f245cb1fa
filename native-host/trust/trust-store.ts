import path from 'node:path';
import { copyEndpoint } from '../shared/remote-endpoint';
import { diffLaunch, launchFingerprint } from './fingerprint';
import type { LaunchChange } from './fingerprint';
import type { LaunchDefinition } from '../shared/server-spec';
import { diffToolDefinition, toolDefinitionHash } from './tool-pin';
import type { PinnableTool, ToolChange } from './tool-pin';
import { definitionProblem, isTrustScope, launchKey, pinKey, storableTool } from './trust-file';
import type {
  LaunchApproval,
  LaunchRecord,
  PinRecord,
  ToolPin,
  TrustScope,
  TrustState,
} from './trust-file';
import { TrustFileIo, TrustStoreError } from './trust-file-io';
import type { TrustFileOptions, TrustWarning } from './trust-file-io';

export type { LaunchApproval, ToolPin, TrustScope } from './trust-file';
export { TrustStoreError, nodeTrustFileSystem } from './trust-file-io';
export type {
  TrustFileSystem,
  TrustStoreErrorCode,
  TrustWarning,
  TrustWarningKind,
} from './trust-file-io';

/**
 * Launch approvals (design D6) and tool pins (D7) of one Switchyard home, in `<home>/trust.json`.
 * A scope is `'user'` or the absolute root of a workspace folder; approvals are keyed by (scope,
 * server name), pins by (scope, server name, raw tool name). Scopes and names are compared
 * exactly: pass the workspace root spelled as in LaunchDefinition.workspaceRoot.
 *
 * Every call reads the file (another host may have revoked something since); a file that cannot
 * be trusted grants nothing and is never overwritten (trust-file-io.ts). `snapshot()` reads it
 * once to answer many questions asked at the same moment (the host's start-up checks every
 * server's launch and loads every pin from one read). Changes throw TrustStoreError when they
 * cannot be saved safely and TypeError for invalid arguments.
 */

export type TrustStoreOptions = TrustFileOptions;

export const TRUST_FILE_NAME = 'trust.json';

/** Whether an approved launch still matches what would run. */
export type LaunchStatus =
  | { state: 'unapproved' }
  | { state: 'approved'; approval: LaunchApproval }
  | { state: 'changed'; approval: LaunchApproval; changes: LaunchChange[] };

/** Whether a tool still has the definition it was pinned with. */
export type PinStatus =
  | { state: 'unpinned' }
  | { state: 'pinned'; pin: ToolPin }
  | { state: 'changed'; pin: ToolPin; changes: ToolChange[] };

export class TrustStore {
  /** Absolute path of trust.json. */
  readonly file: string;
  private readonly io: TrustFileIo;
  private readonly now: () => Date;

  private constructor(home: string, options: TrustStoreOptions) {
    this.file = path.join(home, TRUST_FILE_NAME);
    this.io = new TrustFileIo(this.file, options);
    this.now = options.now ?? (() => new Date());
  }

  /**
   * Opens the store of `home` (absolute; created with mode 0o700 on the first write) and reads
   * the file once, so `pendingWarnings` holds any problem at once and a corrupt file is moved
   * aside. Never throws for the file's content; throws TypeError for a relative `home`.
   */
  static async open(home: string, options: TrustStoreOptions = {}): Promise<TrustStore> {
    if (!path.isAbsolute(home)) {
      throw new TypeError(
        `the trust store home must be an absolute path, got ${JSON.stringify(home)}`,
      );
    }
    const store = new TrustStore(home, options);
    await store.io.read();
    return store;
  }

  /** Problems met reading the file since the last `takeWarnings`, each once, oldest first. */
  get pendingWarnings(): readonly TrustWarning[] {
    return this.io.pendingWarnings;
  }

  /** Returns `pendingWarnings` and forgets them. */
  takeWarnings(): TrustWarning[] {
    return this.io.takeWarnings();
  }

  /**
   * The file as it is now, read once: later changes (by this host or another) are not in it, so
   * use it for questions asked together and then drop it. Empty when the file cannot be trusted.
   */
  async snapshot(): Promise<TrustSnapshot> {
    return new TrustSnapshot(await this.io.read());
  }

  /** The approval of `server` in `scope`, or undefined (also when the file cannot be trusted). */
  async launchApproval(scope: TrustScope, server: string): Promise<LaunchApproval | undefined> {
    checkKey(scope, server);
    return (await this.snapshot()).launchApproval(scope, server);
  }

  /** Compares `definition` with the approval of `server` in `scope`. */
  async launchStatus(
    scope: TrustScope,
    server: string,
    definition: LaunchDefinition,
  ): Promise<LaunchStatus> {
    checkKey(scope, server);
    return (await this.snapshot()).launchStatus(scope, server, definition);
  }

  /**
   * Records the user's approval of `definition` for `server` in `scope`, replacing any earlier
   * one; computes the fingerprint itself. Throws TypeError for a bad scope, name or definition,
   * TrustStoreError when the file cannot be written safely.
   */
  async approveLaunch(
    scope: TrustScope,
    server: string,
    definition: LaunchDefinition,
  ): Promise<LaunchApproval> {
    checkKey(scope, server);
    const problem = definitionProblem(definition);
    if (problem !== undefined) {
      throw new TypeError(`cannot store this launch definition: ${problem}`);
    }
    const approval: LaunchApproval = {
      fingerprint: launchFingerprint(definition),
      definition: copyDefinition(definition),
      approvedAt: this.now().toISOString(),
    };
    await this.io.mutate((state) => {
      const key = launchKey(scope, server);
      if (!state.launches.has(key)) this.checkRoom(state.launches.size, 'launch approvals');
      state.launches.set(key, { scope, server, ...approval });
      return true;
    });
    return approval;
  }

  /** Forgets the approval of `server` in `scope` (its tool pins stay). True if there was one. */
  async revokeLaunch(scope: TrustScope, server: string): Promise<boolean> {
    checkKey(scope, server);
    return this.io.mutate((state) => state.launches.delete(launchKey(scope, server)));
  }

  /**
   * Forgets the approval of `server` in `scope` and every pin of its tools, in one write: what
   * removing a server from the configuration, or forgetting a stale approval, leaves behind.
   */
  async forgetServer(
    scope: TrustScope,
    server: string,
  ): Promise<{ launch: boolean; pins: number }> {
    checkKey(scope, server);
    let launch = false;
    let pins = 0;
    await this.io.mutate((state) => {
      launch = state.launches.delete(launchKey(scope, server));
      pins = deleteWhere(
        state.pins,
        (record) => record.scope === scope && record.server === server,
      );
      return launch || pins > 0;
    });
    return { launch, pins };
  }

  /** Forgets every approval and pin in `scope`; returns how many of each went. */
  async revokeScope(scope: TrustScope): Promise<{ launches: number; pins: number }> {
    checkKey(scope);
    let launches = 0;
    let pins = 0;
    await this.io.mutate((state) => {
      launches = deleteWhere(state.launches, (record) => record.scope === scope);
      pins = deleteWhere(state.pins, (record) => record.scope === scope);
      return launches + pins > 0;
    });
    return { launches, pins };
  }

  /** The pin of the tool named `tool` (raw name) of `server` in `scope`, or undefined. */
  async pinOf(scope: TrustScope, server: string, tool: string): Promise<ToolPin | undefined> {
    checkKey(scope, server, tool);
    const state = await this.io.read();
    const record = state.pins.get(pinKey(scope, server, tool));
    return record && pinOfRecord(record);
  }

  /** Every pin of `server` in `scope`, by raw tool name: one read for a whole `tools/list`. */
  async pinsOf(scope: TrustScope, server: string): Promise<Map<string, ToolPin>> {
    checkKey(scope, server);
    return (await this.snapshot()).pinsOf(scope, server);
  }

  /** Compares `tool` with its pin. */
  async pinStatus(scope: TrustScope, server: string, tool: PinnableTool): Promise<PinStatus> {
    const pin = await this.pinOf(scope, server, tool.name);
    if (pin === undefined) return { state: 'unpinned' };
    if (pin.hash === toolDefinitionHash(tool)) return { state: 'pinned', pin };
    return { state: 'changed', pin, changes: diffToolDefinition(pin.tool, tool) };
  }

  /**
   * Pins the current definition of `tool` (only the pinned parts are stored), replacing any
   * earlier pin. Throws TypeError for a bad scope, name or a tool JSON cannot hold,
   * TrustStoreError when the file cannot be written safely.
   */
  async pinTool(scope: TrustScope, server: string, tool: PinnableTool): Promise<ToolPin> {
    checkKey(scope, server, tool.name);
    const stored = storableTool(tool);
    if (!stored.ok) {
      throw new TypeError(`cannot pin tool ${JSON.stringify(tool.name)}: ${stored.problem}`);
    }
    const pin: ToolPin = {
      hash: toolDefinitionHash(stored.tool),
      tool: stored.tool,
      pinnedAt: this.now().toISOString(),
    };
    await this.io.mutate((state) => {
      const key = pinKey(scope, server, tool.name);
      if (!state.pins.has(key)) this.checkRoom(state.pins.size, 'tool pins');
      state.pins.set(key, { scope, server, ...pin });
      return true;
    });
    return pin;
  }

  /** Forgets the pin of the tool named `tool`. True if there was one. */
  async unpinTool(scope: TrustScope, server: string, tool: string): Promise<boolean> {
    checkKey(scope, server, tool);
    return this.io.mutate((state) => state.pins.delete(pinKey(scope, server, tool)));
  }

  private checkRoom(size: number, what: string): void {
    if (size < this.io.maxEntries) return;
    throw new TrustStoreError(
      'too-large',
      `${this.file} already holds ${this.io.maxEntries} ${what}; revoke some you no longer need`,
    );
  }
}

/**
 * trust.json as one read found it (see `TrustStore.snapshot`): launch approvals and pins, answered
 * without touching the disk again. Arguments are checked as by the store.
 */
export class TrustSnapshot {
  constructor(private readonly state: TrustState) {}

  /** The approval of `server` in `scope`, or undefined. */
  launchApproval(scope: TrustScope, server: string): LaunchApproval | undefined {
    checkKey(scope, server);
    const record = this.state.launches.get(launchKey(scope, server));
    return record && approvalOf(record);
  }

  /** Compares `definition` with the approval of `server` in `scope`. */
  launchStatus(scope: TrustScope, server: string, definition: LaunchDefinition): LaunchStatus {
    const approval = this.launchApproval(scope, server);
    if (approval === undefined) return { state: 'unapproved' };
    if (approval.fingerprint === launchFingerprint(definition)) {
      return { state: 'approved', approval };
    }
    return { state: 'changed', approval, changes: diffLaunch(approval.definition, definition) };
  }

  /** Every launch approval, with how many tool pins its server has in its scope. */
  approvals(): { scope: TrustScope; server: string; approval: LaunchApproval; pins: number }[] {
    const pins = new Map<string, number>();
    for (const record of this.state.pins.values()) {
      const key = launchKey(record.scope, record.server);
      pins.set(key, (pins.get(key) ?? 0) + 1);
    }
    return [...this.state.launches.entries()].map(([key, record]) => ({
      scope: record.scope,
      server: record.server,
      approval: approvalOf(record),
      pins: pins.get(key) ?? 0,
    }));
  }

  /**
   * Servers with tool pins and no launch approval in their scope, with how many: what a revoke
   * keeps (the pins outlive it on purpose, so a re-approved server cannot swap its tools
   * unseen) once its entry is also gone from the configuration by hand.
   */
  unapprovedPins(): { scope: TrustScope; server: string; pins: number }[] {
    const found = new Map<string, { scope: TrustScope; server: string; pins: number }>();
    for (const record of this.state.pins.values()) {
      const key = launchKey(record.scope, record.server);
      if (this.state.launches.has(key)) continue;
      const entry = found.get(key);
      if (entry) entry.pins += 1;
      else found.set(key, { scope: record.scope, server: record.server, pins: 1 });
    }
    return [...found.values()];
  }

  /** Every pin of `server` in `scope`, by raw tool name. */
  pinsOf(scope: TrustScope, server: string): Map<string, ToolPin> {
    checkKey(scope, server);
    const pins = new Map<string, ToolPin>();
    for (const record of this.state.pins.values()) {
      if (record.scope !== scope || record.server !== server) continue;
      pins.set(record.tool.name, pinOfRecord(record));
    }
    return pins;
  }
}

function checkKey(scope: TrustScope, server?: string, tool?: string): void {
  if (!isTrustScope(scope)) {
    throw new TypeError(
      `a trust scope is 'user' or an absolute workspace folder, got ${JSON.stringify(scope)}`,
    );
  }
  if (server === '' || tool === '') throw new TypeError('server and tool names must not be empty');
}

function copyDefinition(definition: LaunchDefinition): LaunchDefinition {
  return {
    executable: definition.executable,
    args: [...definition.args],
    env: Object.fromEntries(Object.entries(definition.env)),
    cwd: definition.cwd,
    provenance: definition.provenance,
    workspaceRoot: definition.workspaceRoot,
    ...(definition.remote === undefined ? {} : { remote: copyEndpoint(definition.remote) }),
    ...(definition.toolPrefix === undefined ? {} : { toolPrefix: definition.toolPrefix }),
  };
}

// Records carry their key (scope, server) for the file; callers get the approval or pin alone.
function approvalOf(record: LaunchRecord): LaunchApproval {
  const { fingerprint, definition, approvedAt } = record;
  return { fingerprint, definition, approvedAt };
}

function pinOfRecord(record: PinRecord): ToolPin {
  const { hash, tool, pinnedAt } = record;
  return { hash, tool, pinnedAt };
}

function deleteWhere<T>(map: Map<string, T>, matches: (value: T) => boolean): number {
  let count = 0;
  for (const [key, value] of map) {
    if (matches(value)) {
      map.delete(key);
      count++;
    }
  }
  return count;
}
