import { BUILTIN_TOOL_NAMES } from '../../protocol/builtin-tools';
import type { ConsentRequest, LaunchChange, ServerSummary } from '../../protocol/servers';
import type { CallToolResult, ExposedTool, ToolPolicyState } from '../../protocol/tools';
import type { AuditLog } from '../audit/audit-log';
import type { RestartPolicy } from '../mcp/restart-policy';
import {
  ServerRuntime,
  type CallOptions,
  type LaunchFn,
  type ServerLaunch,
} from '../mcp/server-runtime';
import type { ToolDefinition } from '../mcp/tool-definition';
import { ApprovalLedger } from '../policy/approvals';
import type { ToolPolicyRules } from '../policy/tool-policy';
import { launchFingerprint, type LaunchDefinition } from '../trust/fingerprint';
import type { TrustSnapshot, TrustStore } from '../trust/trust-store';
import { HostError } from './host-error';
import { consentRequest } from './launch-gate';
import { gateCallResult } from './result-gate';
import { ToolGate, type CallDecision } from './tool-gate';
import { buildToolListing, type ListedTool, type ToolListing } from './tool-listing';

/**
 * The host's core, shared by the native-messaging host and the CLI: one ServerRuntime per
 * configured server behind the launch-trust gate (design D6), the model-facing tool listing with
 * each tool's policy (D4, D7, D8, D11), and the call pipeline (route by exposed name -> policy and
 * approval -> server -> result gate -> audit). It knows nothing of frames or argv.
 */

export interface ServerSpec extends Omit<
  ServerLaunch,
  'executable' | 'notFound' | 'notFoundReason'
> {
  readonly prefix: string | undefined;
  /** Keys of the entry's `env` (values are never reported). */
  readonly envKeys: readonly string[];
  readonly provenance: 'user' | 'workspace';
  readonly workspaceRoot: string | null;
  /** Trust scope: 'user' or the workspace root. */
  readonly scope: string;
  /** The workspace file the launch fields came from, for workspace servers. */
  readonly sourceFile: string | null;
  readonly ignoredTrustClaims: readonly string[];
  /** Exactly what would run (fingerprinted and spawned); null when the command was not found. */
  readonly definition: LaunchDefinition | null;
  readonly resolutionError: { readonly reason: string; readonly message: string } | null;
  /** Absolute executable the host resolved, if it could (for display). */
  readonly resolvedCommand: string | null;
  /** Listed but not started by `startAll` (`"disabled": true` in config.json). */
  readonly disabled: boolean;
}

export type LogLevel = 'info' | 'warning' | 'error';

export interface HostCoreEvents {
  onServerChanged?(summary: ServerSummary): void;
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

  constructor(options: HostCoreOptions) {
    this.options = options;
    this.events = options.events ?? {};
    this.reserved = options.reservedToolNames ?? new Set(BUILTIN_TOOL_NAMES);
    this.gate = new ToolGate({
      trust: options.trust,
      rules: options.toolPolicy,
      ledger: options.ledger ?? new ApprovalLedger(),
    });
    for (const spec of options.servers) {
      this.specs.set(spec.name, spec);
      const runtime = new ServerRuntime({
        launch: launchOf(spec),
        spawnServer: options.spawnServer,
        clientInfo: options.clientInfo,
        ...(options.restartPolicy ? { restartPolicy: options.restartPolicy } : {}),
        events: {
          onStateChange: (r) => {
            // Only running servers contribute tools, so any transition can change the listing.
            this.listing = undefined;
            this.events.onServerChanged?.(this.summarize(r));
          },
          onToolsChanged: (r) => {
            this.listing = undefined;
            this.events.onToolsChanged?.(r.name);
          },
          onLog: (level, message) => {
            this.events.onLog?.(level, message, spec.name);
          },
        },
      });
      this.runtimes.set(spec.name, runtime);
    }
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
    if (options.start !== false) await runtime.start();
    return this.summarize(runtime);
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

  /** The model-facing listing, optionally of one server; denied tools only when asked for. */
  listTools(
    server?: string,
    options: { includeDenied?: boolean } = {},
  ): { tools: ExposedTool[]; tokens: { total: number; byServer: Record<string, number> } } {
    if (server !== undefined) this.runtime(server);
    const listing = this.currentListing();
    const tools = listing.tools
      .filter((t) => server === undefined || t.server === server)
      .filter((t) => options.includeDenied === true || t.exposed.policy !== 'deny')
      .map((t) => t.exposed);
    if (server === undefined)
      return { tools, tokens: { ...listing.tokens, byServer: { ...listing.tokens.byServer } } };
    const own = listing.tokens.byServer[server] ?? 0;
    return { tools, tokens: { total: own, byServer: { [server]: own } } };
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
    options: CallOptions & { approval?: { requestId: string; nonce: string } } = {},
  ): Promise<CallToolResult> {
    const listed = this.currentListing().byName.get(name);
    if (!listed) {
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

  /** Stops every server at once (each kills its process group) and waits for all of them. */
  async shutdown(): Promise<void> {
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

  private async startGated(runtime: ServerRuntime, snapshot?: TrustSnapshot): Promise<void> {
    const consent = await this.consentFor(this.spec(runtime.name), snapshot);
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
