import type { StoredApproval, UnapprovedPins } from '../../protocol/approvals';
import type { TrustDecision } from '../../protocol/activity';
import type { Profile, ProfileResolution } from '../../protocol/profiles';
import type { ConsentRequest, ServerSummary } from '../../protocol/servers';
import type { CallToolResult } from '../../protocol/tools';
import { HostError } from '../shared/host-error';
import { readActivity, type ActivityPage, type ActivityQuery } from '../audit/activity-read';
import type { ServerRuntime } from '../mcp/server-runtime';
import type { ProfileStore } from '../profiles/store';
import type { TrustStore } from '../trust/trust-store';
import type { CallPipeline } from './call-pipeline';
import type { ConfigApply } from './config-apply';
import { assembleCore, type HostCoreOptions } from './core-parts';
import type { ProfileCost } from './core-types';
import type { LaunchTrust } from './launch-trust';
import type { ServerFleet } from './server-fleet';
import type { PolicyChange, SettingsWrites } from './settings-writes';
import { resolveClient } from '../auth/pre-registered-client';
import { SignInFlows } from './sign-in-flows';
import type { ToolCatalog } from './tool-catalog';
import type { ToolGate } from './tool-gate';
import type { ServerContext } from './server-context';
import type { ElicitationDesk } from './elicitations';

export type { HostCoreOptions } from './core-parts';
export type { HostCoreEvents, LogLevel, ProfileCost, ServerNotice } from './core-types';

/**
 * The host's core, shared by the native-messaging host and the CLI, as one facade over its parts:
 * the server fleet (server-fleet.ts), launch trust (launch-trust.ts, design D6), the tool catalog
 * and profile views (tool-catalog.ts, D4, D7, D8, D10, D11), the call pipeline (call-pipeline.ts),
 * settings writes (settings-writes.ts) and config reloads (config-apply.ts). It knows nothing of
 * frames or argv.
 */

export class HostCore {
  private readonly fleet: ServerFleet;
  private readonly catalog: ToolCatalog;
  private readonly launch: LaunchTrust;
  private readonly calls: CallPipeline;
  private readonly settings: SettingsWrites;
  private readonly reload: ConfigApply;
  private readonly gate: ToolGate;
  private readonly profileStore: ProfileStore;
  private readonly serverContext: ServerContext;
  private readonly elicitationDesk: ElicitationDesk;
  private signInFlows: SignInFlows | undefined;

  constructor(private readonly options: HostCoreOptions) {
    ({
      gate: this.gate,
      fleet: this.fleet,
      catalog: this.catalog,
      launch: this.launch,
      calls: this.calls,
      settings: this.settings,
      reload: this.reload,
      profiles: this.profileStore,
      context: this.serverContext,
      elicitations: this.elicitationDesk,
    } = assembleCore(options, (r) => this.summarize(r)));
  }

  /**
   * The trust store the gates read and write. Anything else in this process that writes
   * trust.json must use it too: calls on one store run one at a time, while two stores could
   * lose each other's writes.
   */
  get trustStore(): TrustStore {
    return this.options.trust;
  }

  /** Resources, prompts and completions of the servers (issue 12). */
  get context(): ServerContext {
    return this.serverContext;
  }

  /** The questions servers are waiting on the user for (issue 12). */
  get elicitations(): ElicitationDesk {
    return this.elicitationDesk;
  }

  /** Sign-ins to remote servers from the browser (`auth/*`). */
  get signIns(): SignInFlows {
    this.signInFlows ??= new SignInFlows({
      store: () => {
        const open = this.options.secrets;
        return open
          ? open()
          : Promise.reject(new Error('this host was started without a secret store'));
      },
      remoteUrl: (server) => {
        const url = this.fleet.spec(server).remote?.url;
        if (url === undefined) {
          throw new HostError(
            'invalid-params',
            `'${server}' is a local server: only remote servers sign in.`,
          );
        }
        return url;
      },
      preRegisteredClient: async (server) => {
        const client = this.fleet.spec(server).remote?.oauth;
        if (client === undefined) return undefined;
        const secrets = this.options.secrets;
        return resolveClient(server, client, {
          env: this.options.variableEnv?.env ?? process.env,
          platform: this.options.variableEnv?.platform ?? process.platform,
          ...(secrets ? { store: secrets } : {}),
        });
      },
      clientMetadataUrl: () => this.options.clientMetadataUrl?.get(),
      afterChange: async (server) => {
        // A stopped or disabled server stays so; one that runs or waits starts with the tokens.
        const state = this.fleet.runtime(server).state.state;
        if (state !== 'stopped') await this.restart(server);
      },
    });
    return this.signInFlows;
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

  /**
   * Every stored launch approval and whether a configured server uses it, and the pins left
   * without one (`trust/list`).
   */
  listApprovals(): Promise<{ approvals: StoredApproval[]; unapprovedPins: UnapprovedPins[] }> {
    return this.launch.list();
  }

  async forgetLaunch(name: string, scope?: string) {
    const { runtime, ...forgotten } = await this.launch.forget(name, scope);
    return { ...forgotten, server: runtime === null ? null : this.summarize(runtime) };
  }

  /** Records a trust decision made outside the core (a server Switchyard wrote and approved). */
  auditTrust(server: string, decision: TrustDecision, fingerprint?: string): void {
    this.launch.record(server, decision, fingerprint);
  }

  /**
   * A page of the audit log, newest first. Entries this host has queued are written first, so a
   * call answered before this request is in it; another host's (or the CLI's) may lag by its
   * flush delay (AUDIT_FLUSH_DELAY_MS).
   */
  async activity(query: ActivityQuery = {}): Promise<ActivityPage> {
    const audit = this.options.audit;
    if (audit === undefined) return { entries: [], nextCursor: null, skipped: 0 };
    await audit.flush();
    return readActivity(audit.file, query);
  }

  applyConfig(setup: Parameters<ConfigApply['apply']>[0]): Promise<{ settled: Promise<void> }> {
    // Read by the next connection or sign-in; one under way keeps the client it registered with.
    this.options.clientMetadataUrl?.set(setup.clientMetadataUrl);
    return this.reload.apply(setup);
  }

  listTools(
    server?: string,
    options: { includeDenied?: boolean; includeAppOnly?: boolean; profile?: string } = {},
  ) {
    return this.catalog.list(server, options);
  }

  setPolicy(tool: string, policy: 'allow' | 'ask' | 'deny' | null) {
    return this.settings.setPolicy(tool, policy);
  }

  /** `policy/setMany`: the changes in one write; `effective` per named tool. */
  async setPolicies(changes: readonly PolicyChange[]) {
    const { rules, effective } = await this.settings.setPolicies(changes);
    return { rules, effective: Object.fromEntries(effective) };
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
    this.elicitationDesk.cancelAll();
    await this.fleet.close();
    for (const watcher of this.options.groupWatchers ?? []) await watcher.close();
    await Promise.all([
      this.options.audit?.flush(),
      this.options.serverLogs?.flush(),
      this.options.eraVerdicts?.flushed(),
    ]);
  }

  livePids(): number[] {
    return this.fleet.livePids();
  }

  private summarize(runtime: ServerRuntime): ServerSummary {
    return this.fleet.summarize(runtime, this.catalog.tokensOf(runtime.name));
  }
}
