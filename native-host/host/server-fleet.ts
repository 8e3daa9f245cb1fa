import type { ServerSummary } from '../../protocol/servers';
import { launchOf } from './launch-of';
import type { RestartPolicy } from '../mcp/restart-policy';
import { ServerRuntime } from '../mcp/server-runtime';
import type { EraVerdicts } from '../mcp/era-verdicts';
import { type LaunchFn, type NegotiationMemory } from '../mcp/runtime-types';
import type { ElicitationAnswer, FeatureNotice } from '../mcp/runtime-client';
import { launchFingerprint } from '../trust/fingerprint';
import type { McpRoot } from '../profiles/store';
import { HostError } from '../shared/host-error';
import type { ServerSpec } from '../shared/server-spec';
import { displayUrl } from '../../protocol/remote-url';
import type { LogLevel } from './core-types';

/**
 * The configured servers and their runtimes, one `ServerRuntime` per `ServerSpec`, by name. It
 * owns which runtime is current: a runtime that a reload replaced or dropped, or one of a fleet
 * that is closing, never spawns and its late transitions are not reported. It decides nothing
 * about trust (launch-trust.ts) or tools (tool-catalog.ts).
 */

export interface FleetEvents {
  /** A current runtime changed state (any transition can change the tool listing). */
  onStateChange(runtime: ServerRuntime): void;
  /** A current runtime's server reported `notifications/tools/list_changed` and was re-listed. */
  onToolsChanged(runtime: ServerRuntime): void;
  onLog(level: LogLevel, message: string, server: string): void;
  /** A current runtime's server announced a change to its resources or prompts. */
  onFeatureNotice?(runtime: ServerRuntime, notice: FeatureNotice): void;
  /** A runtime's server has no request in flight any more. */
  onRequestsIdle?(runtime: ServerRuntime): void;
  /** A runtime's server asks the user something (issue 12). */
  onElicitation?(
    runtime: ServerRuntime,
    params: unknown,
    signal: AbortSignal,
  ): Promise<ElicitationAnswer>;
}

export interface FleetOptions {
  readonly spawnServer: LaunchFn;
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly restartPolicy?: RestartPolicy;
  /** The MCP roots offered to a server now (design D3, D10). */
  readonly rootsOf: (spec: ServerSpec) => McpRoot[];
  /** Which launches negotiated as 2025-era servers before (decision 0016); default: none. */
  readonly eraVerdicts?: Pick<EraVerdicts, 'knownLegacy' | 'settle'>;
  readonly events: FleetEvents;
}

export class ServerFleet {
  private readonly specs = new Map<string, ServerSpec>();
  private readonly runtimes = new Map<string, ServerRuntime>();
  /** Set by `close`: nothing starts any more. */
  private closed = false;

  constructor(
    specs: readonly ServerSpec[],
    private readonly options: FleetOptions,
  ) {
    for (const spec of specs) {
      this.specs.set(spec.name, spec);
      this.runtimes.set(spec.name, this.createRuntime(spec));
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The spec of a configured server; `unknown-server` when there is none. */
  spec(name: string): ServerSpec {
    const spec = this.specs.get(name);
    if (!spec)
      throw new HostError('unknown-server', `No server named '${name}' is configured.`, {
        server: name,
      });
    return spec;
  }

  /** The runtime of a configured server; `unknown-server`, saying how to add one, when none. */
  runtime(name: string): ServerRuntime {
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

  findSpec(name: string): ServerSpec | undefined {
    return this.specs.get(name);
  }

  allSpecs(): ServerSpec[] {
    return [...this.specs.values()];
  }

  allRuntimes(): ServerRuntime[] {
    return [...this.runtimes.values()];
  }

  /**
   * Whether `runtime` may still spawn: not one a reload replaced or dropped, nor one of a fleet
   * that is closing (nothing would stop it).
   */
  isCurrent(runtime: ServerRuntime): boolean {
    return !this.closed && this.runtimes.get(runtime.name) === runtime;
  }

  /** Whether `runtime` is still the one configured under its name (closing or not). */
  isConfigured(runtime: ServerRuntime): boolean {
    return this.runtimes.get(runtime.name) === runtime;
  }

  /**
   * Installs the specs of a reloaded configuration: a server named in `fresh` (or new) gets a new
   * runtime, any other keeps its own. Returns the specs as they were before.
   */
  install(next: readonly ServerSpec[], fresh: ReadonlySet<string>): Map<string, ServerSpec> {
    const old = new Map(this.runtimes);
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
    return before;
  }

  /** Closes the fleet: nothing starts any more, and every server stops (each kills its group). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.runtimes.values()].map((r) => r.stop()));
  }

  /** Live pids (running or mid-handshake), for a last-resort synchronous kill on exit. */
  livePids(): number[] {
    return [...this.runtimes.values()].flatMap((r) => r.livePids());
  }

  /** What the popup and `servers/list` show of one server; `tokens` is its listing's cost. */
  summarize(runtime: ServerRuntime, tokens: number): ServerSummary {
    const spec = this.spec(runtime.name);
    const running = runtime.state.state === 'running';
    return {
      name: runtime.name,
      provenance: spec.provenance,
      workspaceRoot: spec.workspaceRoot,
      disabled: spec.disabled,
      apps: spec.apps,
      command: spec.command,
      args: [...spec.args],
      resolvedCommand: spec.resolvedCommand,
      cwd: spec.cwd ?? null,
      envKeys: [...spec.envKeys],
      remote:
        spec.remote === null
          ? null
          : {
              // A credential in the query (`?api_key=`) is masked here; config.json keeps it.
              url: displayUrl(spec.remote.url),
              // Once connected, the transport in use: an `auto` entry shows what it settled on.
              transport: runtime.remoteTransport ?? spec.remote.transport,
              headerNames: Object.keys(spec.remote.headers),
              ...(spec.remote.oauth === undefined
                ? {}
                : { oauthClientId: spec.remote.oauth.clientId }),
              ...(spec.remote.oauth?.grant === undefined
                ? {}
                : { oauthGrant: spec.remote.oauth.grant }),
            },
      status: runtime.state,
      crashes: runtime.crashes,
      toolCount: running ? runtime.tools.length : 0,
      tokens,
    };
  }

  private createRuntime(spec: ServerSpec): ServerRuntime {
    const { events } = this.options;
    // A runtime a reload replaced or dropped may still report its last transitions: ignore them.
    const current = (r: ServerRuntime): boolean => this.runtimes.get(r.name) === r;
    return new ServerRuntime({
      launch: launchOf(spec),
      spawnServer: this.options.spawnServer,
      clientInfo: this.options.clientInfo,
      roots: () => {
        const now = this.specs.get(spec.name);
        return now === undefined ? [] : this.options.rootsOf(now);
      },
      // The spec in force at each connection: turning apps on or off keeps this runtime.
      apps: () => this.specs.get(spec.name)?.apps ?? spec.apps,
      ...(this.options.restartPolicy ? { restartPolicy: this.options.restartPolicy } : {}),
      ...negotiationOf(spec, this.options.eraVerdicts),
      events: {
        onStateChange: (r) => {
          if (current(r)) events.onStateChange(r);
        },
        // A fleet that is closing takes every tool away at once: the host is going, and a
        // client told per server would only re-list for nothing.
        onToolsChanged: (r) => {
          if (current(r) && !this.closed) events.onToolsChanged(r);
        },
        onLog: (level, message) => {
          events.onLog(level, message, spec.name);
        },
        onFeatureNotice: (r, notice) => {
          if (current(r)) events.onFeatureNotice?.(r, notice);
        },
        onRequestsIdle: (r) => events.onRequestsIdle?.(r),
        ...(events.onElicitation === undefined
          ? {}
          : {
              onElicitation: (r: ServerRuntime, params: unknown, signal: AbortSignal) =>
                events.onElicitation?.(r, params, signal) ??
                Promise.resolve({ action: 'decline' as const }),
            }),
      },
    });
  }
}

/** The verdict memory of one launch definition, keyed by its fingerprint (decision 0016). */
function negotiationOf(
  spec: ServerSpec,
  verdicts: FleetOptions['eraVerdicts'],
): { negotiation?: NegotiationMemory } {
  if (verdicts === undefined || spec.definition === null) return {};
  const fingerprint = launchFingerprint(spec.definition);
  return {
    negotiation: {
      knownLegacy: () => verdicts.knownLegacy(fingerprint),
      settled: (era) => {
        verdicts.settle(fingerprint, era);
      },
    },
  };
}
