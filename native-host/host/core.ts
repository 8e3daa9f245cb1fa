import { BUILTIN_TOOL_NAMES } from '../../protocol/builtin-tools';
import type { ServerSummary } from '../../protocol/servers';
import type { CallToolResult, ExposedTool } from '../../protocol/tools';
import {
  ServerRuntime,
  type CallOptions,
  type LaunchFn,
  type ServerLaunch,
} from '../mcp/server-runtime';
import type { RestartPolicy } from '../mcp/restart-policy';
import { HostError } from './host-error';
import { gateCallResult } from './result-gate';
import { buildToolListing, type ToolListing } from './tool-listing';

/**
 * The host's core, shared by the native-messaging host and the CLI: one ServerRuntime per
 * configured server, the model-facing tool listing across them, and the call pipeline
 * (route by exposed name -> server -> result gate). It knows nothing of frames or argv.
 */

export interface ServerSpec extends ServerLaunch {
  readonly prefix: string | undefined;
  /** Keys of the entry's `env` (values are never reported). */
  readonly envKeys: readonly string[];
  readonly provenance: 'user' | 'workspace';
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
  readonly events?: HostCoreEvents;
  readonly restartPolicy?: RestartPolicy;
  readonly reservedToolNames?: ReadonlySet<string>;
}

export class HostCore {
  private readonly specs = new Map<string, ServerSpec>();
  private readonly runtimes = new Map<string, ServerRuntime>();
  private readonly events: HostCoreEvents;
  private readonly reserved: ReadonlySet<string>;
  private listing: ToolListing | undefined;

  constructor(options: HostCoreOptions) {
    this.events = options.events ?? {};
    this.reserved = options.reservedToolNames ?? new Set(BUILTIN_TOOL_NAMES);
    for (const spec of options.servers) {
      this.specs.set(spec.name, spec);
      const runtime = new ServerRuntime({
        launch: spec,
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

  /** Starts every server in parallel; resolves when each is running or has failed. */
  async startAll(): Promise<void> {
    const enabled = [...this.runtimes.values()].filter(
      (r) => this.specs.get(r.name)?.disabled !== true,
    );
    await Promise.all(enabled.map((r) => this.startRuntime(r)));
  }

  async start(name: string): Promise<ServerSummary> {
    const runtime = this.runtime(name);
    await this.startRuntime(runtime);
    return this.summarize(runtime);
  }

  async stop(name: string): Promise<ServerSummary> {
    const runtime = this.runtime(name);
    await runtime.stop();
    this.toolsChanged(runtime);
    return this.summarize(runtime);
  }

  async restart(name: string): Promise<ServerSummary> {
    const runtime = this.runtime(name);
    await runtime.stop();
    this.toolsChanged(runtime);
    await this.startRuntime(runtime);
    return this.summarize(runtime);
  }

  listServers(): ServerSummary[] {
    return [...this.runtimes.values()].map((r) => this.summarize(r));
  }

  logs(name: string, limit = 200): { lines: string[]; dropped: number } {
    return this.runtime(name).stderrTail(limit);
  }

  /** The model-facing listing, optionally of one server. */
  listTools(server?: string): { tools: ExposedTool[]; tokens: ToolListing['tokens'] } {
    if (server !== undefined) this.runtime(server);
    const listing = this.currentListing();
    const tools = listing.tools
      .filter((t) => server === undefined || t.server === server)
      .map((t) => t.exposed);
    if (server === undefined) return { tools, tokens: listing.tokens };
    const own = listing.tokens.byServer[server] ?? 0;
    return { tools, tokens: { total: own, byServer: { [server]: own } } };
  }

  /** Calls a tool by its exposed name; the result has been through the result gate. */
  async callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    const listed = this.currentListing().byName.get(name);
    if (!listed) {
      throw new HostError(
        'unknown-tool',
        `No tool is exposed as '${name}'. List tools again: the server may have stopped or changed its tools.`,
        { name },
      );
    }
    const runtime = this.runtime(listed.server);
    const result = await runtime.callTool(listed.definition.name, args, options);
    return gateCallResult(result);
  }

  /** Stops every server at once (each kills its process group) and waits for all of them. */
  async shutdown(): Promise<void> {
    await Promise.all([...this.runtimes.values()].map((r) => r.stop()));
  }

  /** Live pids, for a last-resort synchronous kill on process exit. */
  livePids(): number[] {
    return [...this.runtimes.values()].flatMap((r) => r.livePids());
  }

  private async startRuntime(runtime: ServerRuntime): Promise<void> {
    // The runtime reports tools/changed itself once it is running.
    await runtime.start();
  }

  private toolsChanged(runtime: ServerRuntime): void {
    this.listing = undefined;
    this.events.onToolsChanged?.(runtime.name);
  }

  private currentListing(): ToolListing {
    this.listing ??= buildToolListing(
      [...this.runtimes.values()].map((r) => ({
        server: r.name,
        prefix: this.specs.get(r.name)?.prefix,
        tools: r.state.state === 'running' ? r.tools : [],
      })),
      this.reserved,
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

  private summarize(runtime: ServerRuntime): ServerSummary {
    const spec = this.specs.get(runtime.name);
    const listing = this.currentListing();
    const toolCount = runtime.state.state === 'running' ? runtime.tools.length : 0;
    return {
      name: runtime.name,
      provenance: spec?.provenance ?? 'user',
      command: spec?.command ?? '',
      args: [...(spec?.args ?? [])],
      resolvedCommand: spec?.resolvedCommand ?? null,
      cwd: spec?.cwd ?? null,
      envKeys: [...(spec?.envKeys ?? [])],
      status: runtime.state,
      toolCount,
      tokens: listing.tokens.byServer[runtime.name] ?? 0,
    };
  }
}
