import type { Client } from '@modelcontextprotocol/client';
import type { ConsentRequest, CrashHistory, ExitInfo, ServerState } from '../../protocol/servers';
import { recordCrash } from './crash-history';
import { closeConnection, type Connection } from './connection';
import { negotiate, probeTimeoutMs } from './negotiation';
import { ConnectionRequests } from './runtime-requests';
import { restartDecision, type RestartPolicy, DEFAULT_RESTART_POLICY } from './restart-policy';
import {
  crashMessage,
  handshakeOutcome,
  launchFailure,
  untrustedServerInfo,
  untrustedMessage,
} from './runtime-errors';
import {
  createRuntimeClient,
  type ElicitationAnswer as Answer,
  type FeatureNotice,
  type RootsSource,
} from './runtime-client';
import type { CallOptions, LaunchFn, NegotiationMemory, ServerProcess } from './runtime-types';
import type { ServerLaunch } from '../shared/server-spec';
import type { ToolDefinition } from '../shared/tool-definition';
import { ServerToolList, type RejectedTool } from './tool-list';
import { scheduleUnref, type ScheduleFn } from './schedule';

export interface ServerRuntimeEvents {
  onStateChange(runtime: ServerRuntime): void;
  onToolsChanged(runtime: ServerRuntime): void;
  /** The server announced a change to its resources or prompts (issue 12). */
  onFeatureNotice?(runtime: ServerRuntime, notice: FeatureNotice): void;
  /** The server asks the user something (issue 12); absent: no `elicitation` capability. */
  onElicitation?(runtime: ServerRuntime, ask: unknown, signal: AbortSignal): Promise<Answer>;
  /** The server's last request in flight settled (its open questions are moot). */
  onRequestsIdle?(runtime: ServerRuntime): void;
  onLog(level: 'info' | 'warning' | 'error', message: string): void;
}

export interface ServerRuntimeOptions {
  readonly launch: ServerLaunch;
  readonly spawnServer: LaunchFn;
  readonly events: ServerRuntimeEvents;
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** The MCP roots offered (file:// URIs), read on every `roots/list`; absent: no `roots`. */
  readonly roots?: RootsSource;
  /** Whether a new connection declares MCP Apps, read at each connect; absent: `launch.apps`. */
  readonly apps?: () => boolean;
  /** How this launch negotiated before (decision 0016); without it every start probes. */
  readonly negotiation?: NegotiationMemory;
  readonly restartPolicy?: RestartPolicy;
  readonly now?: () => number;
  /** Restart backoff and list expiry timers; default `scheduleUnref`. */
  readonly schedule?: ScheduleFn;
}

/**
 * One configured server: its process, its SDK client and its state machine
 *   stopped -> starting -> running -> crashed -> starting ...   (bounded backoff)
 *                       \-> failed (not found, handshake timeout or error, sign-in, crash loop)
 *
 * The MCP protocol is the SDK's; the process layer is ours (design D1). Every transition is
 * reported through `onStateChange`, so the UI and the agent see the same state. Its seams are in
 * runtime-types.ts, its messages in runtime-errors.ts, its requests in runtime-requests.ts, the
 * SDK client's set-up in runtime-client.ts, negotiation in negotiation.ts, tools in tool-list.ts.
 */

export class ServerRuntime {
  readonly name: string;
  private readonly options: ServerRuntimeOptions;
  private readonly policy: RestartPolicy;
  private readonly now: () => number;
  private stateValue: ServerState = { state: 'stopped' };
  private connection: Connection | undefined;
  /** The connection whose handshake is in progress, so stop() can kill it too. */
  private attempting: Connection | undefined;
  private generation = 0;
  private restarts = 0;
  private crashHistory: CrashHistory | null = null;
  private runningSince = 0;
  private cancelRestart: (() => void) | undefined;
  private readonly toolList: ServerToolList<Connection>;
  private lastProcess: ServerProcess | undefined;
  /** The start() in progress, if any (its state may still read 'starting' from markStarting()). */
  private starting: Promise<void> | undefined;
  /** How many times stop() or awaitApproval() ran: a start() waiting for another one knows whether one came after it. */
  private stops = 0;
  /** Requests on the current connection (runtime-requests.ts). */
  readonly requests: ConnectionRequests;

  constructor(options: ServerRuntimeOptions) {
    this.options = options;
    this.name = options.launch.name;
    this.policy = options.restartPolicy ?? DEFAULT_RESTART_POLICY;
    this.now = options.now ?? Date.now;
    this.requests = new ConnectionRequests({
      name: this.name,
      timeoutMs: options.launch.toolTimeoutMs,
      connection: () => this.connection,
      state: () => this.stateValue.state,
      onLog: options.events.onLog.bind(options.events),
      onIdle: () => options.events.onRequestsIdle?.(this),
    });
    this.toolList = new ServerToolList({
      timeoutMs: options.launch.handshakeTimeoutMs,
      isCurrent: (connection) => this.connection === connection,
      onWarning: (message) => {
        options.events.onLog('warning', message);
      },
      onRefreshed: () => {
        options.events.onToolsChanged(this);
      },
      schedule: options.schedule ?? scheduleUnref,
    });
  }

  get state(): ServerState {
    return this.stateValue;
  }

  get launch(): ServerLaunch {
    return this.options.launch;
  }

  /** Crashes since the last start(); null when none (crash-history.ts). */
  get crashes(): CrashHistory | null {
    return this.crashHistory;
  }

  /** Tools of the last successful listing (empty unless running). */
  get tools(): readonly ToolDefinition[] {
    return this.toolList.tools;
  }

  /** Tools the server listed that failed validation, with the reason (shown by `doctor`). */
  get rejectedTools(): readonly RejectedTool[] {
    return this.toolList.rejected;
  }

  /** The transport a connected remote server settled on (an `auto` entry picks one). */
  get remoteTransport(): 'streamable-http' | 'sse' | undefined {
    return this.connection?.process.remote?.transport();
  }

  /** Most recent stderr lines of the current or last process, and how many fell out. */
  stderrTail(lines: number): { lines: string[]; dropped: number } {
    const process = this.connection?.process ?? this.lastProcess;
    return { lines: process?.stderrTail(lines) ?? [], dropped: process?.stderrDropped ?? 0 };
  }

  /**
   * Starts the server unless it is running. Resolves once it is running or failed. A start already
   * in progress is waited for, not repeated; if a stop() that came before this call overtook it,
   * this one starts afresh (a restart during the host's own start-up must not end stopped, nor
   * answer before the new process is up).
   */
  async start(): Promise<void> {
    const stopsBefore = this.stops;
    while (this.starting !== undefined) {
      await this.starting;
      // A stop() after this call wins; otherwise the other start's outcome is this one's.
      if (this.stops !== stopsBefore || this.stateValue.state !== 'stopped') return;
    }
    if (this.stateValue.state === 'running') return;
    this.cancelRestartTimer();
    this.restarts = 0;
    this.crashHistory = null;
    const attempt: Promise<void> = this.connect(0).finally(() => {
      if (this.starting === attempt) this.starting = undefined;
    });
    this.starting = attempt;
    await attempt;
  }

  /** Shows a server about to start (its trust being read) as starting, never as stopped. */
  markStarting(): void {
    if (this.stateValue.state === 'stopped') this.setState({ state: 'starting', attempt: 0 });
  }

  /** Stops the server (its whole process group) and cancels any pending restart. */
  stop(): Promise<void> {
    return this.end({ state: 'stopped' });
  }

  /** Holds the server at the launch-trust gate (design D6): stops what it runs or is starting,
   * spawns nothing, and its state carries the consent request the UI shows. A later `start()`
   * (after approval) proceeds. */
  awaitApproval(consent: ConsentRequest): Promise<void> {
    return this.end({ state: 'needs-approval', consent });
  }

  /** Ends the connection, a handshake and a restart in progress, and leaves the server in `next`. */
  private async end(next: ServerState): Promise<void> {
    this.stops += 1;
    this.cancelRestartTimer();
    const connections = [this.connection, this.attempting].filter((c) => c !== undefined);
    const listed = this.stateValue.state === 'running';
    this.connection = undefined;
    this.attempting = undefined;
    this.generation += 1;
    this.toolList.clear();
    this.setState(next);
    if (listed) this.options.events.onToolsChanged(this); // its tools left the listing
    await Promise.all(connections.map((c) => closeConnection(c)));
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Calls one tool by its raw name. Throws HostError with a protocol reason on every failure. */
  callTool(tool: string, args: Record<string, unknown> | undefined, options: CallOptions = {}) {
    return this.requests.callTool(tool, args, options);
  }

  /** Tells a running server its roots changed (`notifications/roots/list_changed`). */
  rootsChanged(): void {
    if (this.options.roots !== undefined) this.requests.rootsChanged();
  }

  /** Pids of this server's live processes (running or mid-handshake), for a last-resort kill. */
  livePids(): number[] {
    return [this.connection, this.attempting]
      .map((c) => (c && !c.process.exitInfo ? c.process.pid : undefined))
      .filter((pid): pid is number => pid !== undefined && pid > 0);
  }

  /** One start: spawn, handshake (decision 0016: probe with `server/discover` unless known legacy
   * or `skipProbe`), list the tools. One that exits on the probe is started once more, as legacy. */
  private async connect(attempt: number, skipProbe = false): Promise<void> {
    const generation = ++this.generation;
    // markStarting() may already have announced this first attempt; say it once.
    const announced = this.stateValue.state === 'starting' && this.stateValue.attempt === attempt;
    if (!announced) this.setState({ state: 'starting', attempt });
    const launch = this.options.launch;
    const startedAt = this.now();
    let process: ServerProcess;
    try {
      process = await this.options.spawnServer(launch);
    } catch (error) {
      if (generation !== this.generation) return;
      const { reason, message } = launchFailure(error);
      this.setState({ state: 'failed', reason, message });
      this.options.events.onLog('error', message);
      return;
    }
    this.lastProcess = process;
    if (generation !== this.generation) {
      // stop() ran while the process was being spawned.
      await process.transport.close();
      return;
    }
    const connection: Connection = { generation, client: this.createClient(), process };
    this.attempting = connection;
    const { client } = connection;
    const handshake = await negotiate(client, process.transport, {
      timeoutMs: launch.handshakeTimeoutMs,
      memory: this.options.negotiation,
      skipProbe,
    });
    try {
      // Still `attempting` while a failed handshake is handled, so a stop() meanwhile closes it.
      if (handshake.kind === 'exited-on-probe') await closeConnection(connection);
      if (handshake.kind === 'failed') {
        await this.failHandshake(connection, attempt, handshake.timedOut, handshake.error);
        return;
      }
    } finally {
      if (this.attempting === connection) this.attempting = undefined;
    }
    if (handshake.kind === 'exited-on-probe') {
      if (generation === this.generation) await this.connect(attempt, true);
      return;
    }
    if (generation !== this.generation) {
      await closeConnection(connection);
      return;
    }
    this.connection = connection;
    const handshakeMs = this.now() - startedAt;
    await this.toolList.start(connection);
    if (this.connection !== connection) return;
    this.runningSince = this.now();
    this.setState({
      state: 'running',
      pid: process.pid ?? -1,
      handshakeMs,
      protocolVersion: client.getNegotiatedProtocolVersion() ?? 'unknown',
      serverInfo: untrustedServerInfo(client.getServerVersion()),
    });
    // Covers automatic restarts too: the listing changed even if no caller asked for a start.
    this.options.events.onToolsChanged(this);
  }

  /** A client for a new connection, its events tied to the connection current when they fire. */
  private createClient(): Client {
    const ask = this.options.events.onElicitation?.bind(this.options.events);
    const client = createRuntimeClient({
      clientInfo: this.options.clientInfo,
      roots: this.options.roots,
      probeTimeoutMs: probeTimeoutMs(this.options.launch.handshakeTimeoutMs),
      apps: this.options.apps?.() ?? this.options.launch.apps !== false,
      onClose: () => {
        const connection = this.connection;
        if (connection?.client === client) this.onConnectionClosed(connection);
      },
      onError: (error) => {
        // Protocol noise from a server (a bad line, an unknown notification) is never fatal.
        this.options.events.onLog('warning', untrustedMessage(error.message));
      },
      onToolListChanged: () => {
        const connection = this.connection;
        if (connection?.client === client) this.toolList.listChanged(connection);
      },
      onFeatureNotice: (notice) => {
        if (this.connection?.client === client) this.options.events.onFeatureNotice?.(this, notice);
      },
      ...(ask && {
        onElicitation: (params: unknown, signal: AbortSignal) =>
          this.requests.whileAsking(() => ask(this, params, signal)),
      }),
    });
    return client;
  }

  private async failHandshake(
    connection: Connection,
    attempt: number,
    timedOut: boolean,
    error?: unknown,
  ): Promise<void> {
    const isCurrent = connection.generation === this.generation;
    await closeConnection(connection);
    if (!isCurrent) return;
    const outcome = handshakeOutcome(this.name, connection.process, {
      attempt,
      timedOut,
      handshakeTimeoutMs: this.options.launch.handshakeTimeoutMs,
      error,
    });
    if (outcome.kind === 'crashed') {
      this.crashed(outcome.exit, outcome.message, connection.process);
      return;
    }
    this.setState(outcome.state);
    this.options.events.onLog('error', outcome.state.message);
  }

  private onConnectionClosed(connection: Connection): void {
    if (this.connection !== connection) return;
    this.connection = undefined;
    this.toolList.clear();
    const exit = connection.process.exitInfo ?? { code: null, signal: null };
    if (this.now() - this.runningSince >= this.policy.stableAfterMs) this.restarts = 0;
    this.crashed(exit, crashMessage(this.name, exit, connection.process), connection.process);
  }

  /** After a crash or a failed automatic restart: backoff, or give up (an outage: never). */
  private crashed(exit: ExitInfo, message: string, process: ServerProcess): void {
    const unreachable = process.remote?.lastProblem() !== undefined;
    this.crashHistory = recordCrash(this.crashHistory, exit, this.now());
    const decision = restartDecision(this.policy, this.restarts, unreachable);
    if (decision.kind === 'give-up') {
      const final = `${message} It failed ${this.policy.maxRestarts + 1} times in a row; not restarting. Fix it and start it again from the popup.`;
      this.setState({ state: 'failed', reason: 'crash-loop', message: final, exit });
      this.options.events.onLog('error', final);
      this.options.events.onToolsChanged(this);
      return;
    }
    this.restarts = decision.restarts;
    this.setState({ state: 'crashed', exit, restarts: this.restarts, retryInMs: decision.delayMs });
    this.options.events.onLog('warning', `${message} Restarting in ${decision.delayMs} ms.`);
    this.options.events.onToolsChanged(this);
    const schedule = this.options.schedule ?? scheduleUnref;
    this.cancelRestart = schedule(() => {
      this.cancelRestart = undefined;
      if (this.stateValue.state === 'crashed') void this.connect(this.restarts);
    }, decision.delayMs);
  }

  private cancelRestartTimer(): void {
    this.cancelRestart?.();
    this.cancelRestart = undefined;
  }

  private setState(state: ServerState): void {
    this.stateValue = state;
    this.options.events.onStateChange(this);
  }
}
