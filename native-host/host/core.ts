import { BUILTIN_TOOL_NAMES } from '../../protocol/builtin-tools';
import type { Profile, ProfileResolution } from '../../protocol/profiles';
import type { ConsentRequest, ServerSummary } from '../../protocol/servers';
import type { CallToolResult } from '../../protocol/tools';
import type { AuditLog } from '../audit/audit-log';
import type { RestartPolicy } from '../mcp/restart-policy';
import type { LaunchFn, ServerRuntime } from '../mcp/server-runtime';
import { ApprovalLedger } from '../policy/approvals';
import type { ToolPolicyRules } from '../policy/tool-policy';
import { ProfileStore, type ProfileWriter } from '../profiles/store';
import type { ServerSpec } from '../shared/server-spec';
import type { TrustStore } from '../trust/trust-store';
import { CallPipeline, type CallPipelineOptions } from './call-pipeline';
import { ConfigApply } from './config-apply';
import type { HostCoreEvents, ProfileCost } from './core-types';
import { LaunchTrust } from './launch-trust';
import { ServerFleet } from './server-fleet';
import { SettingsWrites, type PolicyWriter } from './settings-writes';
import { ToolCatalog } from './tool-catalog';
import { ToolGate } from './tool-gate';

export type { HostCoreEvents, LogLevel, ProfileCost } from './core-types';

/**
 * The host's core, shared by the native-messaging host and the CLI, as one facade over its parts:
 * the server fleet (server-fleet.ts), launch trust (launch-trust.ts, design D6), the tool catalog
 * and profile views (tool-catalog.ts, D4, D7, D8, D10, D11), the call pipeline (call-pipeline.ts),
 * settings writes (settings-writes.ts) and config reloads (config-apply.ts). It knows nothing of
 * frames or argv; each method says which part answers it.
 */

export interface HostCoreOptions {
  readonly servers: readonly ServerSpec[];
  readonly spawnServer: LaunchFn;
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly trust: TrustStore;
  readonly toolPolicy: ToolPolicyRules;
  readonly savePolicy?: PolicyWriter;
  readonly audit?: AuditLog;
  readonly ledger?: ApprovalLedger;
  readonly events?: HostCoreEvents;
  readonly restartPolicy?: RestartPolicy;
  readonly reservedToolNames?: ReadonlySet<string>;
  readonly wrapResult?: CallPipelineOptions['wrapResult'];
  /** The profiles in force (design D10); default: the built-in default profile only. */
  readonly profiles?: ProfileStore;
  /** Writes `profiles` in config.json (`profiles/set`, `profiles/remove`). */
  readonly saveProfiles?: ProfileWriter;
}

export class HostCore {
  private readonly fleet: ServerFleet;
  private readonly catalog: ToolCatalog;
  private readonly launch: LaunchTrust;
  private readonly calls: CallPipeline;
  private readonly settings: SettingsWrites;
  private readonly reload: ConfigApply;
  private readonly gate: ToolGate;
  private readonly profileStore: ProfileStore;

  constructor(private readonly options: HostCoreOptions) {
    const events = options.events ?? {};
    const profiles = options.profiles ?? new ProfileStore();
    this.profileStore = profiles;
    const { trust, audit } = options;
    this.gate = new ToolGate({
      trust,
      rules: options.toolPolicy,
      ledger: options.ledger ?? new ApprovalLedger(),
    });
    this.fleet = new ServerFleet(options.servers, {
      spawnServer: options.spawnServer,
      clientInfo: options.clientInfo,
      ...(options.restartPolicy ? { restartPolicy: options.restartPolicy } : {}),
      // MCP roots: the workspace folders of the profiles that enable the server (design D3, D10).
      rootsOf: (spec) => profiles.rootsOf(spec),
      events: {
        // Only running servers contribute tools, so any transition can change the listing.
        onStateChange: (r) => {
          this.catalog.invalidate();
          events.onServerChanged?.(this.summarize(r));
        },
        onToolsChanged: (r) => {
          this.catalog.invalidate();
          events.onToolsChanged?.(r.name);
        },
        onLog: (level, message, server) => events.onLog?.(level, message, server),
      },
    });
    const { fleet, gate } = this;
    const reserved = options.reservedToolNames ?? new Set(BUILTIN_TOOL_NAMES);
    this.catalog = new ToolCatalog({ fleet, gate, profiles, trust, reserved });
    const catalog = this.catalog;
    const invalidateAllTools = (): void => {
      catalog.invalidate();
      for (const r of fleet.allRuntimes()) events.onToolsChanged?.(r.name);
    };
    this.launch = new LaunchTrust({ fleet, catalog, trust, audit });
    const wrapResult = options.wrapResult;
    this.calls = new CallPipeline({ fleet, catalog, gate, profiles, audit, wrapResult });
    const { savePolicy, saveProfiles } = options;
    this.settings = new SettingsWrites({
      ...{ fleet, catalog, gate, profiles, audit, savePolicy, saveProfiles, invalidateAllTools },
    });
    const launchTrust = this.launch;
    const summarize = (r: ServerRuntime): ServerSummary => this.summarize(r);
    this.reload = new ConfigApply(
      {
        ...{ fleet, catalog, gate, launchTrust, trust, events, summarize, invalidateAllTools },
        settings: this.settings,
      },
      options.toolPolicy,
    );
  }

  /**
   * The trust store the gates read and write. Anything else in this process that writes
   * trust.json must use it too: calls on one store run one at a time, while two stores could
   * lose each other's writes.
   */
  get trustStore(): TrustStore {
    return this.options.trust;
  }

  /** Starts every enabled server in parallel through the launch gate; resolves when each settled. */
  async startAll(): Promise<void> {
    const enabled = this.fleet.allRuntimes().filter((r) => !this.fleet.spec(r.name).disabled);
    for (const runtime of enabled) runtime.markStarting();
    // One read of trust.json answers every server's launch check and loads every pin: the
    // approved servers spawn together, without waiting on a read per server (cold start).
    const snapshot = await this.options.trust.snapshot();
    await this.catalog.loadPins(snapshot);
    await Promise.all(enabled.map((r) => this.launch.startGated(r, snapshot)));
  }

  async start(name: string): Promise<ServerSummary> {
    const runtime = this.fleet.runtime(name);
    await this.catalog.loadPins();
    await this.launch.startGated(runtime);
    return this.summarize(runtime);
  }

  async stop(name: string): Promise<ServerSummary> {
    const runtime = this.fleet.runtime(name);
    await runtime.stop();
    return this.summarize(runtime);
  }

  async restart(name: string): Promise<ServerSummary> {
    const runtime = this.fleet.runtime(name);
    await runtime.stop();
    await this.launch.startGated(runtime);
    return this.summarize(runtime);
  }

  listServers(): ServerSummary[] {
    return this.fleet.allRuntimes().map((r) => this.summarize(r));
  }

  logs(name: string, limit = 200): { lines: string[]; dropped: number } {
    return this.fleet.runtime(name).stderrTail(limit);
  }

  pendingConsents(): ConsentRequest[] {
    return this.launch.pending();
  }

  unapprovedLaunches(): Promise<ConsentRequest[]> {
    return this.launch.unapproved();
  }

  async approveLaunch(name: string, fingerprint: string, options: { start?: boolean } = {}) {
    return this.summarize(await this.launch.approve(name, fingerprint, options));
  }

  async revokeLaunch(
    target: { server: string } | { workspace: string },
    options: { restart?: boolean } = {},
  ): Promise<ServerSummary[]> {
    return (await this.launch.revoke(target, options)).map((r) => this.summarize(r));
  }

  async forgetLaunch(name: string, scope?: string) {
    const { runtime, ...forgotten } = await this.launch.forget(name, scope);
    return { ...forgotten, server: runtime === null ? null : this.summarize(runtime) };
  }

  /** Records a trust decision made outside the core (a server Switchyard wrote and approved). */
  auditTrust(server: string, decision: string, fingerprint?: string): void {
    this.launch.record(server, decision, fingerprint);
  }

  applyConfig(setup: Parameters<ConfigApply['apply']>[0]): Promise<{ settled: Promise<void> }> {
    return this.reload.apply(setup);
  }

  listTools(server?: string, options: { includeDenied?: boolean; profile?: string } = {}) {
    return this.catalog.list(server, options);
  }

  setPolicy(tool: string, policy: 'allow' | 'ask' | 'deny' | null) {
    return this.settings.setPolicy(tool, policy);
  }

  denyApproval(requestId: string): boolean {
    return this.calls.deny(requestId);
  }

  callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    options: Parameters<CallPipeline['call']>[2] = {},
  ): Promise<CallToolResult> {
    return this.calls.call(name, args, options);
  }

  listProfiles(): { profiles: Profile[]; defaultProfile: Profile } {
    return this.profileStore.list();
  }

  resolveProfile(url: string): ProfileResolution {
    return this.profileStore.resolve(url);
  }

  setProfile(profile: Profile): Promise<{ profile: Profile; warnings: string[] }> {
    return this.settings.setProfile(profile);
  }

  removeProfile(id: string): Promise<boolean> {
    return this.settings.removeProfile(id);
  }

  applyProfiles(setup: Parameters<SettingsWrites['applyProfiles']>[0]): void {
    this.settings.applyProfiles(setup);
  }

  profileCosts(): ProfileCost[] {
    return this.catalog.costs();
  }

  /** Stops every server at once (each kills its process group) and waits for all of them. */
  async shutdown(): Promise<void> {
    this.gate.denyAll();
    await this.fleet.close();
    await this.options.audit?.flush();
  }

  livePids(): number[] {
    return this.fleet.livePids();
  }

  private summarize(runtime: ServerRuntime): ServerSummary {
    return this.fleet.summarize(runtime, this.catalog.tokensOf(runtime.name));
  }
}
