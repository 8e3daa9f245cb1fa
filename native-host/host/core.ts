import type { ServerSpec } from '../shared/server-spec';
import { BUILTIN_TOOL_NAMES } from '../../protocol/builtin-tools';
import {
  MAX_PROFILES,
  type Profile,
  type ProfileResolution,
  type TokenBudget,
} from '../../protocol/profiles';
import type { ConsentRequest, LaunchChange, ServerSummary } from '../../protocol/servers';
import type { CallToolResult, ExposedTool, ToolPolicyState } from '../../protocol/tools';
import type { AuditLog } from '../audit/audit-log';
import type { RestartPolicy } from '../mcp/restart-policy';
import { ServerRuntime, type CallOptions, type LaunchFn } from '../mcp/server-runtime';
import { type ServerLaunch } from '../shared/server-spec';
import type { ToolDefinition } from '../shared/tool-definition';
import { ApprovalLedger } from '../policy/approvals';
import type { ToolPolicyRules } from '../policy/tool-policy';
import { policyOverlay } from '../profiles/policy';
import {
  ProfileStore,
  type McpRoot,
  type ProfileSetup,
  type ProfileWriter,
} from '../profiles/store';
import { buildProfileListing, type ProfileListing } from './profile-listing';
import { canonicalJson } from '../shared/canonical-json';
import { launchFingerprint } from '../trust/fingerprint';
import type { TrustSnapshot, TrustStore } from '../trust/trust-store';
import { carryOverSkipped, planReload } from './config-reload';
import { HostError } from '../shared/host-error';
import { consentRequest } from './launch-gate';
import { gateCallResult } from './result-gate';
import { ToolGate, type CallDecision } from './tool-gate';
import { buildToolListing, type ListedTool, type ToolListing } from './tool-listing';
import type { HostSetup } from './setup';

/**
 * The host's core, shared by the native-messaging host and the CLI: one ServerRuntime per
 * configured server behind the launch-trust gate (design D6), the model-facing tool listing with
 * each tool's policy (D4, D7, D8, D11), and the call pipeline (route by exposed name -> policy and
 * approval -> server -> result gate -> audit). It knows nothing of frames or argv.
 */

export type LogLevel = 'info' | 'warning' | 'error';

/** What one profile's model-facing listing costs (`switchyard doctor`). */
export interface ProfileCost {
  readonly profile: Profile;
  /** Tools the model is sent under it. */
  readonly tools: number;
  readonly tokens: number;
  readonly budget: TokenBudget | undefined;
}

export interface HostCoreEvents {
  onServerChanged?(summary: ServerSummary): void;
  /** The server is no longer configured (a reload dropped it); `summary` is its last state. */
  onServerRemoved?(summary: ServerSummary): void;
  onToolsChanged?(server: string): void;
  onLog?(level: LogLevel, message: string, server?: string): void;
}

export interface HostCoreOptions {
  readonly servers: readonly ServerSpec[];
  readonly spawnServer: LaunchFn;
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly trust: TrustStore;
  readonly toolPolicy: ToolPolicyRules;
  /** Writes the `toolPolicy` rules to config.json and returns the rules as now written. */
  readonly savePolicy?: (
    tool: string,
    policy: 'allow' | 'ask' | 'deny' | null,
  ) => Promise<ToolPolicyRules>;
  readonly audit?: AuditLog;
  readonly ledger?: ApprovalLedger;
  readonly events?: HostCoreEvents;
  readonly restartPolicy?: RestartPolicy;
  readonly reservedToolNames?: ReadonlySet<string>;
  /** Wraps model-bound result text in an untrusted-data block (design D9). */
  readonly wrapResult?: (text: string, source: { server: string; tool: string }) => string;
  /** The profiles in force (design D10); default: the built-in default profile only. */
  readonly profiles?: ProfileStore;
  /** Writes `profiles` in config.json (`profiles/set`, `profiles/remove`). */
  readonly saveProfiles?: ProfileWriter;
}

export class HostCore {
  private readonly options: HostCoreOptions;
  private readonly specs = new Map<string, ServerSpec>();
  private readonly runtimes = new Map<string, ServerRuntime>();
  private readonly events: HostCoreEvents;
  private readonly reserved: ReadonlySet<string>;
  private readonly gate: ToolGate;
  private listing: ToolListing | undefined;
  private pinsLoaded: Promise<void> | undefined;
  /** The `toolPolicy` of the configuration last applied, to tell a reload that changed it. */
  private appliedPolicy: string;
  /** Set by `shutdown`: nothing starts any more. */
  private closed = false;
  private readonly profiles: ProfileStore;
  /** Each profile's view of a listing, computed on demand and dropped with the listing. */
  private readonly views = new WeakMap<ToolListing, Map<string, ProfileListing>>();

  constructor(options: HostCoreOptions) {
    this.options = options;
    this.events = options.events ?? {};
    this.profiles = options.profiles ?? new ProfileStore();
    this.reserved = options.reservedToolNames ?? new Set(BUILTIN_TOOL_NAMES);
    this.gate = new ToolGate({
      trust: options.trust,
      rules: options.toolPolicy,
      ledger: options.ledger ?? new ApprovalLedger(),
    });
    this.appliedPolicy = canonicalJson(options.toolPolicy);
    for (const spec of options.servers) {
      this.specs.set(spec.name, spec);
      this.runtimes.set(spec.name, this.createRuntime(spec));
    }
  }

  /**
   * The trust store the gates read and write. Anything else in this process that writes
   * trust.json must use it too: calls on one store run one at a time, while two stores could
   * lose each other's writes.
   */
  get trustStore(): TrustStore {
    return this.options.trust;
  }

  private createRuntime(spec: ServerSpec): ServerRuntime {
    // A runtime a reload replaced or dropped may still report its last transitions: ignore them.
    const current = (r: ServerRuntime): boolean => this.runtimes.get(r.name) === r;
    return new ServerRuntime({
      launch: launchOf(spec),
      spawnServer: this.options.spawnServer,
      clientInfo: this.options.clientInfo,
      // MCP roots: the workspace folders of the profiles that enable the server (design D3, D10).
      roots: () => this.rootsOf(spec.name),
      ...(this.options.restartPolicy ? { restartPolicy: this.options.restartPolicy } : {}),
      events: {
        onStateChange: (r) => {
          if (!current(r)) return;
          // Only running servers contribute tools, so any transition can change the listing.
          this.listing = undefined;
          this.events.onServerChanged?.(this.summarize(r));
        },
        onToolsChanged: (r) => {
          if (!current(r)) return;
          this.listing = undefined;
          this.events.onToolsChanged?.(r.name);
        },
        onLog: (level, message) => {
          this.events.onLog?.(level, message, spec.name);
        },
      },
    });
  }

  /**
   * Starts every enabled server in parallel, each through the launch-trust gate; resolves when
   * each is running, failed, or waiting for approval.
   */
  async startAll(): Promise<void> {
    const enabled = [...this.runtimes.values()].filter(
      (r) => this.specs.get(r.name)?.disabled !== true,
    );
    for (const runtime of enabled) runtime.markStarting();
    // One read of trust.json answers every server's launch check and loads every pin: the
    // approved servers spawn together, without waiting on a read per server (cold start).
    const snapshot = await this.options.trust.snapshot();
    await this.loadPins(snapshot);
    await Promise.all(enabled.map((r) => this.startGated(r, snapshot)));
  }

  async start(name: string): Promise<ServerSummary> {
    const runtime = this.runtime(name);
    await this.loadPins();
    await this.startGated(runtime);
    return this.summarize(runtime);
  }

  async stop(name: string): Promise<ServerSummary> {
    const runtime = this.runtime(name);
    await runtime.stop();
    return this.summarize(runtime);
  }

  async restart(name: string): Promise<ServerSummary> {
    const runtime = this.runtime(name);
    await runtime.stop();
    await this.startGated(runtime);
    return this.summarize(runtime);
  }

  listServers(): ServerSummary[] {
    return [...this.runtimes.values()].map((r) => this.summarize(r));
  }

  logs(name: string, limit = 200): { lines: string[]; dropped: number } {
    return this.runtime(name).stderrTail(limit);
  }

  /** Consent requests of every server waiting at the launch gate. */
  pendingConsents(): ConsentRequest[] {
    const requests: ConsentRequest[] = [];
    for (const runtime of this.runtimes.values()) {
      if (runtime.state.state === 'needs-approval') requests.push(runtime.state.consent);
    }
    return requests;
  }

  /**
   * Consent requests of every server whose launch is not approved, computed from the trust store
   * without starting anything (for the CLI's `trust` command).
   */
  async unapprovedLaunches(): Promise<ConsentRequest[]> {
    const snapshot = await this.options.trust.snapshot();
    const requests: ConsentRequest[] = [];
    for (const spec of this.specs.values()) {
      const consent = await this.consentFor(spec, snapshot);
      if (consent) requests.push(consent);
    }
    return requests;
  }

  /**
   * Approves a server's launch, but only if `fingerprint` is what would run now (no swap between
   * what the card showed and what runs), then (unless `start` is false) starts exactly that
   * definition.
   */
  async approveLaunch(
    name: string,
    fingerprint: string,
    options: { start?: boolean } = {},
  ): Promise<ServerSummary> {
    const runtime = this.runtime(name);
    const spec = this.spec(name);
    const waiting =
      runtime.state.state === 'needs-approval' || (await this.consentFor(spec)) !== undefined;
    if (!waiting || spec.definition === null) {
      throw new HostError(
        'not-pending',
        `Server '${name}' is not waiting for approval (it is ${runtime.state.state}).`,
        {
          server: name,
          state: runtime.state.state,
        },
      );
    }
    const current = launchFingerprint(spec.definition);
    if (current !== fingerprint) {
      throw new HostError(
        'fingerprint-mismatch',
        `What '${name}' would run has changed since the request you approved; review the new request.`,
        { server: name, consent: await this.consentFor(spec) },
      );
    }
    await this.options.trust.approveLaunch(spec.scope, name, spec.definition);
    this.options.audit?.append({
      event: 'trust',
      server: name,
      decision: 'approved',
      fingerprint: current,
    });
    // A reload may have replaced or dropped the server while trust.json was written, or the host
    // may be shutting down: that runtime must never spawn (nothing would stop it).
    if (options.start !== false && this.isCurrent(runtime)) await runtime.start();
    return this.summarize(this.runtime(name));
  }

  /** Revokes launch trust of one server, or of every server of a workspace; they stop and ask again. */
  async revokeLaunch(
    target: { server: string } | { workspace: string },
    options: { restart?: boolean } = {},
  ): Promise<ServerSummary[]> {
    const affected =
      'server' in target
        ? [this.spec(target.server)]
        : [...this.specs.values()].filter((s) => s.workspaceRoot === target.workspace);
    if ('server' in target) {
      const spec = affected[0];
      if (spec) await this.options.trust.revokeLaunch(spec.scope, spec.name);
    } else {
      await this.options.trust.revokeScope(target.workspace);
    }
    const summaries: ServerSummary[] = [];
    for (const spec of affected) {
      this.options.audit?.append({ event: 'trust', server: spec.name, decision: 'revoked' });
      const runtime = this.runtime(spec.name);
      if (options.restart !== false) {
        // Revoking stops the server now; the gate then holds it until approved again.
        await runtime.stop();
        await this.startGated(runtime);
      }
      summaries.push(this.summarize(runtime));
    }
    return summaries;
  }

  /**
   * Forgets the launch approval and tool pins of `name` in `scope` (default: the server's own
   * scope, else the user tier): also one left behind by a server that is no longer configured.
   * A configured server of that scope stops and waits at the launch gate again.
   */
  async forgetLaunch(
    name: string,
    scope?: string,
  ): Promise<{ launch: boolean; pins: number; server: ServerSummary | null }> {
    const spec = this.specs.get(name);
    const target = scope ?? spec?.scope ?? 'user';
    const forgotten = await this.options.trust.forgetServer(target, name);
    this.options.audit?.append({ event: 'trust', server: name, decision: 'forgotten' });
    if (spec === undefined) return { ...forgotten, server: null };
    const runtime = this.runtime(name);
    if (spec.scope === target) {
      this.gate.loadPins([{ scope: target, server: name }], await this.options.trust.snapshot());
      this.listing = undefined;
      await runtime.stop();
      await this.startGated(runtime);
    }
    // A reload may have dropped the server meanwhile.
    const current = this.runtimes.get(name) === runtime;
    return { ...forgotten, server: current ? this.summarize(runtime) : null };
  }

  /** Records a trust decision made outside the core (a server Switchyard wrote and approved). */
  auditTrust(server: string, decision: string, fingerprint?: string): void {
    this.options.audit?.append({
      event: 'trust',
      server,
      decision,
      ...(fingerprint === undefined ? {} : { fingerprint }),
    });
  }

  /**
   * Moves the host to a reloaded configuration (config-reload.ts): dropped servers stop, new and
   * changed ones go through the launch gate (a changed launch asks again, with what changed),
   * unchanged ones are not touched. A server whose entry is now invalid keeps its running
   * version. Resolves once the stops are done; `settled` once the starts are.
   */
  async applyConfig(
    setup: Pick<HostSetup, 'specs' | 'toolPolicy' | 'skippedServers' | 'profiles'>,
  ): Promise<{ settled: Promise<void> }> {
    if (this.closed) return { settled: Promise.resolve() };
    const next = carryOverSkipped(this.specs.values(), setup.specs, setup.skippedServers ?? []);
    const plan = planReload(this.specs.values(), next);
    const fresh = new Set([...plan.added, ...plan.replaced]);
    const old = new Map(this.runtimes);
    await Promise.all(
      [...plan.removed, ...plan.replaced].map((name) => old.get(name)?.stop() ?? Promise.resolve()),
    );
    const removed = plan.removed.flatMap((name) => {
      const runtime = old.get(name);
      return runtime ? [this.summarize(runtime)] : [];
    });
    const before = new Map(this.specs);
    this.specs.clear();
    this.runtimes.clear();
    for (const spec of next) {
      this.specs.set(spec.name, spec);
      const kept = old.get(spec.name);
      this.runtimes.set(
        spec.name,
        kept === undefined || fresh.has(spec.name) ? this.createRuntime(spec) : kept,
      );
    }
    this.listing = undefined;
    for (const summary of removed) {
      this.events.onServerRemoved?.(summary);
      this.events.onToolsChanged?.(summary.name);
    }
    const policy = canonicalJson(setup.toolPolicy);
    if (policy !== this.appliedPolicy) {
      this.appliedPolicy = policy;
      this.gate.setRules(setup.toolPolicy);
      this.invalidateAllTools();
    }
    if (setup.profiles !== undefined) this.applyProfiles(setup.profiles);

    const snapshot = await this.options.trust.snapshot();
    this.gate.loadPins(
      next.filter((s) => fresh.has(s.name)).map((s) => ({ scope: s.scope, server: s.name })),
      snapshot,
    );
    const starts: ServerRuntime[] = [];
    for (const spec of next) {
      const runtime = this.runtime(spec.name);
      const state = runtime.state.state;
      if (fresh.has(spec.name)) {
        if (!spec.disabled) starts.push(runtime);
      } else if (plan.retuned.includes(spec.name)) {
        const was = before.get(spec.name);
        if (was?.prefix !== spec.prefix) this.events.onToolsChanged?.(spec.name);
        if (spec.disabled && state !== 'stopped') await runtime.stop();
        else if (!spec.disabled && was?.disabled === true && state === 'stopped') {
          starts.push(runtime);
        } else this.events.onServerChanged?.(this.summarize(runtime));
      } else if (state === 'needs-approval' && !(await this.consentFor(spec, snapshot))) {
        // Approved meanwhile by another process (`switchyard trust`): start it now.
        starts.push(runtime);
      }
    }
    for (const runtime of starts) runtime.markStarting();
    // Never rejects: a reload is started from a file watcher, with nobody to catch it.
    const settled = Promise.all(starts.map((r) => this.startGated(r, snapshot))).then(
      () => undefined,
      (error: unknown) => {
        this.events.onLog?.(
          'error',
          `starting the reloaded servers failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      },
    );
    return { settled };
  }

  /**
   * The model-facing listing under a profile (default: the default profile), optionally of one
   * server; denied tools only when asked for. A tool the profile hides is not in it (D10).
   */
  listTools(
    server?: string,
    options: { includeDenied?: boolean; profile?: string } = {},
  ): {
    tools: ExposedTool[];
    tokens: { total: number; byServer: Record<string, number> };
    budget?: TokenBudget;
  } {
    if (server !== undefined) this.runtime(server);
    const view = this.profileListing(options.profile);
    const tools = view.tools
      .filter((t) => server === undefined || t.server === server)
      .filter((t) => options.includeDenied === true || t.exposed.policy !== 'deny')
      .map((t) => t.exposed);
    // The budget is the whole profile's, whichever server was asked for.
    const budget = view.budget === undefined ? {} : { budget: view.budget };
    if (server === undefined) {
      const tokens = { total: view.tokens.total, byServer: { ...view.tokens.byServer } };
      return { tools, tokens, ...budget };
    }
    const own = view.tokens.byServer[server] ?? 0;
    return { tools, tokens: { total: own, byServer: { [server]: own } }, ...budget };
  }

  /** Sets (or, with null, removes) a policy rule for an exposed name or glob. */
  async setPolicy(
    tool: string,
    policy: 'allow' | 'ask' | 'deny' | null,
  ): Promise<{
    rules: Record<string, 'allow' | 'ask' | 'deny'>;
    effective: ToolPolicyState | null;
  }> {
    const save = this.options.savePolicy;
    if (!save) throw new HostError('internal', 'This host cannot write its configuration.');
    const rules = await save(tool, policy);
    this.gate.setRules(rules);
    if (policy === 'allow') {
      // Allow-listing pins what the user saw (design D7): a later change suspends the grant.
      for (const listed of this.currentListing().tools) {
        if (this.gate.matchesRule(tool, listed.exposed.name)) await this.pin(listed);
      }
    }
    this.options.audit?.append({ event: 'policy', tool, decision: policy ?? 'removed' });
    this.invalidateAllTools();
    const listed = this.currentListing().byName.get(tool);
    return {
      rules: Object.fromEntries(rules.map((r) => [r.glob, r.value])),
      effective: listed?.exposed.policy ?? null,
    };
  }

  /** Refuses a pending approval: it can never be redeemed. */
  denyApproval(requestId: string): boolean {
    const denied = this.gate.deny(requestId);
    if (denied)
      this.options.audit?.append({ event: 'call', decision: 'denied-by-user', outcome: 'denied' });
    return denied;
  }

  /**
   * Calls a tool by its exposed name through the policy gate: `deny` never reaches the server,
   * `ask` needs an approval bound to these arguments. The result has been through the result gate.
   */
  async callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    options: CallOptions & {
      approval?: { requestId: string; nonce: string };
      profile?: string;
    } = {},
  ): Promise<CallToolResult> {
    const profile = this.profiles.get(options.profile);
    const listed = this.currentListing().byName.get(name);
    // A tool the active profile hides does not exist for this call (design D10): the same answer
    // as an unknown name, before any policy or approval is looked at, so an approval issued
    // under another profile cannot be redeemed where the tool is hidden.
    if (!listed || !this.profileShows(profile, listed)) {
      throw new HostError(
        'unknown-tool',
        `No tool is exposed as '${name}'. List tools again: the server may have stopped, changed its tools, or be waiting for approval.`,
        { name },
      );
    }
    const started = Date.now();
    const audit = (decision: string, outcome: string, result?: CallToolResult): void => {
      const durationMs = Date.now() - started;
      // Built after the reply has gone out: hashing the arguments and the result is audit
      // bookkeeping, not part of the call's latency. Neither object is modified afterwards (the
      // arguments are the dispatcher's parsed copy; the result is only serialized).
      this.options.audit?.append(() => ({
        event: 'call',
        server: listed.server,
        tool: listed.definition.name,
        exposedName: name,
        decision,
        outcome,
        ...this.gate.argumentsFacts(args),
        ...(result ? ToolGate.resultFacts(result) : {}),
        durationMs,
      }));
    };
    const decision: CallDecision = this.gate.check(
      this.spec(listed.server).scope,
      listed,
      args,
      options.approval,
      policyOverlay(profile),
    );
    if (decision.kind !== 'run') {
      audit(decision.kind, decision.error.reason);
      throw decision.error;
    }
    if (decision.pin) await this.pin(listed);
    const runtime = this.runtime(listed.server);
    try {
      const raw = await runtime.callTool(listed.definition.name, args, options);
      const wrap = this.options.wrapResult;
      const result = gateCallResult(
        raw,
        undefined,
        wrap
          ? (text) => wrap(text, { server: listed.server, tool: listed.definition.name })
          : undefined,
      );
      audit(decision.policy, result.isError === true ? 'tool-error' : 'ok', result);
      return result;
    } catch (error) {
      audit(decision.policy, error instanceof HostError ? error.reason : 'internal');
      throw error;
    }
  }

  /** The user's profiles and the default profile (design D10). */
  listProfiles(): { profiles: Profile[]; defaultProfile: Profile } {
    return this.profiles.list();
  }

  /** The profile a tab's URL selects, and the pattern that selected it. */
  resolveProfile(url: string): ProfileResolution {
    return this.profiles.resolve(url);
  }

  /**
   * Creates or replaces a profile in config.json and puts it in force. Its `allow` overrides pin
   * the definitions of the tools they cover now, as `policy/set` does (D7). A new workspace
   * folder's servers join when the host reloads config.json (its file watch does so at once).
   */
  async setProfile(profile: Profile): Promise<{ profile: Profile; warnings: string[] }> {
    const save = this.writer();
    const written = this.profiles.setup().profiles;
    if (!written.some((p) => p.id === profile.id) && written.length >= MAX_PROFILES) {
      // One more would be written, then loaded as a stand-in that shows nothing.
      throw new HostError(
        'invalid-params',
        `config.json holds at most ${MAX_PROFILES} profiles; remove one before adding another.`,
      );
    }
    const warnings = this.profileWarnings(profile);
    const profiles = await save.set(profile);
    this.applyProfiles({ ...this.profiles.setup(), profiles });
    const stored = this.profiles.get(profile.id);
    const overlay = policyOverlay(stored);
    const allows = overlay?.rules.filter((rule) => rule.value === 'allow') ?? [];
    if (allows.length > 0) {
      for (const listed of this.profileListing(stored.id).tools) {
        if (allows.some((rule) => this.gate.matchesRule(rule.glob, listed.exposed.name))) {
          await this.pin(listed);
        }
      }
    }
    this.options.audit?.append({ event: 'policy', tool: `profile:${stored.id}`, decision: 'set' });
    return { profile: stored, warnings };
  }

  /** Removes a profile from config.json; false when there was none. `default` goes back to built-in. */
  async removeProfile(id: string): Promise<boolean> {
    const { removed, profiles } = await this.writer().remove(id);
    this.applyProfiles({ ...this.profiles.setup(), profiles });
    if (removed) {
      this.options.audit?.append({ event: 'policy', tool: `profile:${id}`, decision: 'removed' });
    }
    return removed;
  }

  /**
   * Puts profiles in force (a write, or a reload of config.json): listings are rebuilt, every
   * server's tools may have changed under some profile, and a running server whose roots changed
   * is told so (MCP `notifications/roots/list_changed`; it asks `roots/list` again).
   */
  applyProfiles(setup: ProfileSetup): void {
    const before = new Map([...this.specs.keys()].map((name) => [name, this.rootsText(name)]));
    if (!this.profiles.replace(setup)) return;
    for (const [name, runtime] of this.runtimes) {
      if (before.get(name) !== this.rootsText(name)) runtime.rootsChanged();
    }
    this.invalidateAllTools();
  }

  /** Each profile, the default first, with what its listing costs and its budget (for doctor). */
  profileCosts(): ProfileCost[] {
    return this.profiles.all().map((profile) => {
      const view = this.profileListing(profile.id);
      const tools = view.tools.filter((t) => t.exposed.policy !== 'deny').length;
      return { profile, tools, tokens: view.tokens.total, budget: view.budget };
    });
  }

  /** Stops every server at once (each kills its process group) and waits for all of them. */
  async shutdown(): Promise<void> {
    this.closed = true;
    this.gate.denyAll();
    await Promise.all([...this.runtimes.values()].map((r) => r.stop()));
    await this.options.audit?.flush();
  }

  /** Live pids (running or mid-handshake), for a last-resort synchronous kill on exit. */
  livePids(): number[] {
    return [...this.runtimes.values()].flatMap((r) => r.livePids());
  }

  /**
   * The consent request for a server whose launch is not approved; undefined when it is. Reads
   * the trust store, or answers from `snapshot` when one was just read.
   */
  private async consentFor(
    spec: ServerSpec,
    snapshot?: TrustSnapshot,
  ): Promise<ConsentRequest | undefined> {
    if (spec.definition === null) return undefined;
    const status = snapshot
      ? snapshot.launchStatus(spec.scope, spec.name, spec.definition)
      : await this.options.trust.launchStatus(spec.scope, spec.name, spec.definition);
    if (status.state === 'approved') return undefined;
    const changes: LaunchChange[] | null = status.state === 'changed' ? status.changes : null;
    return consentRequest({
      server: spec.name,
      command: spec.command,
      definition: spec.definition,
      sourceFile: spec.sourceFile,
      ignoredTrustClaims: spec.ignoredTrustClaims,
      changes,
    });
  }

  /**
   * Whether `runtime` may still spawn: not one a reload replaced or dropped, nor one of a host
   * shutting down (nothing would stop it).
   */
  private isCurrent(runtime: ServerRuntime): boolean {
    return !this.closed && this.runtimes.get(runtime.name) === runtime;
  }

  private async startGated(runtime: ServerRuntime, snapshot?: TrustSnapshot): Promise<void> {
    if (!this.isCurrent(runtime)) return;
    const consent = await this.consentFor(this.spec(runtime.name), snapshot);
    if (!this.isCurrent(runtime)) return;
    if (consent) {
      // Fail closed (D6): nothing is spawned until the user approves this exact definition.
      runtime.awaitApproval(consent);
      this.options.audit?.append({
        event: 'launch',
        server: runtime.name,
        outcome: 'needs-approval',
        fingerprint: consent.fingerprint,
      });
      return;
    }
    // A command that was not found has no definition: start() fails with the reason, runs nothing.
    await runtime.start();
  }

  /** Loads every server's pins once, from `snapshot` or from a read of its own. */
  private async loadPins(snapshot?: TrustSnapshot): Promise<void> {
    this.pinsLoaded ??= (async () => {
      this.gate.loadPins(
        [...this.specs.values()].map((s) => ({ scope: s.scope, server: s.name })),
        snapshot ?? (await this.options.trust.snapshot()),
      );
    })();
    await this.pinsLoaded;
    this.listing = undefined;
  }

  private async pin(listed: ListedTool): Promise<void> {
    const spec = this.spec(listed.server);
    await this.gate.pin(spec.scope, listed.server, listed.definition);
    this.listing = undefined;
  }

  private invalidateAllTools(): void {
    this.listing = undefined;
    for (const name of this.runtimes.keys()) this.events.onToolsChanged?.(name);
  }

  private writer(): ProfileWriter {
    const save = this.options.saveProfiles;
    if (!save) {
      throw new HostError(
        'internal',
        'This host cannot write its configuration (SWITCHYARD_HOME cannot be determined); see host/hello.',
      );
    }
    return save;
  }

  /** What is worth a second look in a profile about to be written (it is written anyway). */
  private profileWarnings(profile: Profile): string[] {
    const warnings: string[] = [];
    for (const server of profile.servers ?? []) {
      if (!this.specs.has(server)) {
        warnings.push(
          `No server named '${server}' is configured; the profile enables it once it is.`,
        );
      }
    }
    if (profile.mode === 'read-only' && Object.values(profile.policy ?? {}).includes('allow')) {
      warnings.push(
        'A read-only profile asks before every call, so its "allow" overrides have no effect.',
      );
    }
    return warnings;
  }

  /** One profile's view of the current listing (cached until the listing or the profiles change). */
  private profileListing(id: string | undefined): ProfileListing {
    const profile = this.profiles.get(id);
    const listing = this.currentListing();
    let cache = this.views.get(listing);
    if (cache === undefined) {
      cache = new Map();
      this.views.set(listing, cache);
    }
    const key = `${this.profiles.version}\u0000${profile.id}`;
    let view = cache.get(key);
    if (view === undefined) {
      const overlay = policyOverlay(profile);
      view = buildProfileListing({
        listing,
        servers: [...this.specs.values()]
          .filter((spec) => this.profiles.enables(profile, spec))
          .map((spec) => spec.name),
        shows: (listed) => this.profileShows(profile, listed),
        policyOf:
          overlay === undefined
            ? undefined
            : (listed) =>
                this.gate.policyState(
                  this.spec(listed.server).scope,
                  listed.server,
                  listed.definition,
                  listed.exposed.name,
                  overlay,
                ),
        tokenBudget: profile.tokenBudget,
      });
      cache.set(key, view);
    }
    return view;
  }

  /** Whether `profile` shows a listed tool: its server, its filters, its mode (D10). */
  private profileShows(profile: Profile, listed: ListedTool): boolean {
    const spec = this.specs.get(listed.server);
    if (spec === undefined) return false;
    return this.profiles.shows(profile, {
      server: spec,
      exposedName: listed.exposed.name,
      claims: listed.definition.hints,
    });
  }

  /** The MCP roots offered to a server now. */
  private rootsOf(name: string): McpRoot[] {
    const spec = this.specs.get(name);
    return spec === undefined ? [] : this.profiles.rootsOf(spec);
  }

  private rootsText(name: string): string {
    return JSON.stringify(this.rootsOf(name));
  }

  private currentListing(): ToolListing {
    this.listing ??= buildToolListing(
      [...this.runtimes.values()].map((r) => ({
        server: r.name,
        prefix: this.specs.get(r.name)?.prefix,
        tools: r.state.state === 'running' ? r.tools : [],
      })),
      this.reserved,
      (server: string, definition: ToolDefinition, exposedName: string) =>
        this.gate.policyState(this.spec(server).scope, server, definition, exposedName),
    );
    return this.listing;
  }

  private runtime(name: string): ServerRuntime {
    const runtime = this.runtimes.get(name);
    if (!runtime) {
      throw new HostError(
        'unknown-server',
        `No server named '${name}' is configured. Add it to config.json or from the popup.`,
        { server: name },
      );
    }
    return runtime;
  }

  private spec(name: string): ServerSpec {
    const spec = this.specs.get(name);
    if (!spec)
      throw new HostError('unknown-server', `No server named '${name}' is configured.`, {
        server: name,
      });
    return spec;
  }

  private summarize(runtime: ServerRuntime): ServerSummary {
    const spec = this.spec(runtime.name);
    const running = runtime.state.state === 'running';
    return {
      name: runtime.name,
      provenance: spec.provenance,
      workspaceRoot: spec.workspaceRoot,
      disabled: spec.disabled,
      command: spec.command,
      args: [...spec.args],
      resolvedCommand: spec.resolvedCommand,
      cwd: spec.cwd ?? null,
      envKeys: [...spec.envKeys],
      status: runtime.state,
      toolCount: running ? runtime.tools.length : 0,
      tokens: this.currentListing().tokens.byServer[runtime.name] ?? 0,
    };
  }
}

function launchOf(spec: ServerSpec): ServerLaunch {
  return {
    name: spec.name,
    // The launcher spawns exactly the fingerprinted definition; without one it reports why.
    executable: spec.definition?.executable ?? null,
    notFound: spec.resolutionError?.message ?? null,
    notFoundReason:
      spec.resolutionError === null || spec.resolutionError.reason === 'not-found'
        ? 'command-not-found'
        : 'spawn-failed',
    command: spec.command,
    args: spec.definition?.args ?? spec.args,
    env: spec.definition?.env ?? spec.env,
    cwd: spec.definition?.cwd ?? undefined,
    handshakeTimeoutMs: spec.handshakeTimeoutMs,
    toolTimeoutMs: spec.toolTimeoutMs,
  };
}
