import type { ServerLaunch } from '../shared/server-spec';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ListRootsRequestSchema,
  McpError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ConsentRequest, ExitInfo, ServerState } from '../../protocol/servers';
import { HostError } from '../shared/host-error';
import {
  MAX_LIST_PAGES,
  MAX_TOOLS_PER_SERVER,
  ListToolsPageSchema,
  parseToolDefinition,
  type ToolDefinition,
} from '../shared/tool-definition';
import { RawCallToolResultSchema, normalizeCallResult } from './call-result';
import type { CallToolResult } from '../../protocol/tools';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/index.js';
import { restartDecision, type RestartPolicy, DEFAULT_RESTART_POLICY } from './restart-policy';
import { capText } from '../../protocol/untrusted/cap';
import { redactSecrets } from '../../protocol/untrusted/redact';
import { sanitizeText } from '../../protocol/untrusted/sanitize';

/**
 * One configured server: its process, its SDK client and its state machine
 *
 *   stopped -> starting -> running -> crashed -> starting ...   (bounded backoff)
 *                       \-> failed (not found, handshake timeout or error, crash loop)
 *
 * The MCP protocol is the SDK's; the process layer is ours (design D1). Every transition is
 * reported through `onStateChange`, so the UI and the agent see the same state.
 */

/** The process seam: production spawns a real process group (ProcessTransport). */
export interface ServerProcess {
  /** The SDK transport over the child's stdio. */
  readonly transport: Transport;
  readonly pid: number | undefined;
  readonly exitInfo: ExitInfo | undefined;
  /** Last stderr lines, oldest first, sanitized. */
  stderrTail(lines: number): string[];
  /** Stderr lines that fell out of the ring buffer. */
  readonly stderrDropped: number;
}

/** Spawns a server; rejects with `LaunchError` when the command cannot be run at all. */
export type LaunchFn = (launch: ServerLaunch) => Promise<ServerProcess>;

export class LaunchError extends Error {
  override readonly name = 'LaunchError';
  constructor(
    readonly reason: 'command-not-found' | 'spawn-failed',
    message: string,
  ) {
    super(message);
  }
}

export interface ServerRuntimeEvents {
  onStateChange(runtime: ServerRuntime): void;
  onToolsChanged(runtime: ServerRuntime): void;
  onLog(level: 'info' | 'warning' | 'error', message: string): void;
}

export interface ServerRuntimeOptions {
  readonly launch: ServerLaunch;
  readonly spawnServer: LaunchFn;
  readonly events: ServerRuntimeEvents;
  readonly clientInfo: { readonly name: string; readonly version: string };
  /**
   * The MCP roots offered to the server (file:// URIs), read on every `roots/list`. With it the
   * client declares the `roots` capability; without it, none.
   */
  readonly roots?: () => ReadonlyArray<{ readonly uri: string; readonly name?: string }>;
  readonly restartPolicy?: RestartPolicy;
  readonly now?: () => number;
  /** Schedules `fn` after `ms`; returns a cancel function. Tests inject a manual clock. */
  readonly schedule?: (fn: () => void, ms: number) => () => void;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

const STDERR_LINES_IN_ERRORS = 10;
/** Longest server-supplied name, version or error message the host relays. */
const MAX_INFO_CHARS = 200;
const MAX_SERVER_MESSAGE_CHARS = 2_000;

/** A server's own words, made safe to show: sanitized, secrets redacted, capped. */
function untrustedMessage(text: string): string {
  return capText(redactSecrets(sanitizeText(text)).text, MAX_SERVER_MESSAGE_CHARS).text;
}

/**
 * The SDK Client builds an Ajv instance (with every format) per client, to check tool output
 * against `outputSchema` in its own `callTool`/`listTools`. The host calls neither: it sends
 * `request` with its own tolerant schemas and gates results itself (design D9). Saves about 4 ms
 * at start-up and some 60 KiB of heap per server; fails loudly should anything rely on it.
 */
const NO_OUTPUT_SCHEMA_VALIDATION: jsonSchemaValidator = {
  getValidator: () => {
    throw new Error('the host does not validate tool output schemas through the SDK');
  },
};

/** Largest delay a Node timer honours; passed to the SDK so only the host's own timers fire. */
const SDK_TIMEOUT_DISABLED_MS = 2 ** 31 - 1;

/**
 * One request's abort signal: fires when the caller aborts or when the host's own timer runs out.
 * `extend()` restarts the wait (progress from the server), never past `maxTotalMs` from the start.
 * `dispose()` must run when the request settles: it clears the timer and detaches from the caller's
 * signal. (Not `AbortSignal.any`: the SDK never removes its listener from the signal it is given,
 * and on Node 20 a composite signal with a listener is never collected: about 9.5 KiB leaked per
 * call, measured by the benchmark.)
 */
class RequestSignal {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout;
  private readonly startedAt = Date.now();
  private expired = false;
  private readonly forward = (): void => {
    this.controller.abort(this.caller?.reason);
  };

  constructor(
    private readonly timeoutMs: number,
    private readonly maxTotalMs: number,
    private readonly caller?: AbortSignal,
  ) {
    this.timer = this.arm(timeoutMs);
    if (caller?.aborted) this.forward();
    else caller?.addEventListener('abort', this.forward, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True when the host's timer, not the caller, ended the request. */
  get timedOut(): boolean {
    return this.expired;
  }

  extend(): void {
    if (this.controller.signal.aborted) return;
    clearTimeout(this.timer);
    const left = this.maxTotalMs - (Date.now() - this.startedAt);
    this.timer = this.arm(Math.max(0, Math.min(this.timeoutMs, left)));
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.forward);
  }

  private arm(ms: number): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort(new Error('timeout'));
    }, ms);
    timer.unref();
    return timer;
  }
}

interface Connection {
  readonly generation: number;
  readonly client: Client;
  readonly process: ServerProcess;
  /** Set by the SDK through `Transport.setProtocolVersion` once `initialize` succeeds. */
  protocolVersion: string;
}

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
  private runningSince = 0;
  private cancelRestart: (() => void) | undefined;
  private toolList: readonly ToolDefinition[] = [];
  private rejected: ReadonlyArray<{ name: string; problem: string }> = [];
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;
  private lastProcess: ServerProcess | undefined;
  /** The start() in progress, if any (its state may still read 'starting' from markStarting()). */
  private starting: Promise<void> | undefined;
  /** How many times stop() ran: a start() waiting for another one knows whether a stop came after it. */
  private stops = 0;

  constructor(options: ServerRuntimeOptions) {
    this.options = options;
    this.name = options.launch.name;
    this.policy = options.restartPolicy ?? DEFAULT_RESTART_POLICY;
    this.now = options.now ?? Date.now;
  }

  get state(): ServerState {
    return this.stateValue;
  }

  get launch(): ServerLaunch {
    return this.options.launch;
  }

  /** Tools of the last successful listing (empty unless running). */
  get tools(): readonly ToolDefinition[] {
    return this.toolList;
  }

  /** Tools the server listed that failed validation, with the reason (shown by `doctor`). */
  get rejectedTools(): ReadonlyArray<{ name: string; problem: string }> {
    return this.rejected;
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
    const attempt: Promise<void> = this.connect(0).finally(() => {
      if (this.starting === attempt) this.starting = undefined;
    });
    this.starting = attempt;
    await attempt;
  }

  /**
   * Shows the server as starting while the host decides whether it may (the launch-trust check
   * reads the trust store first), so a client never sees a server that is about to start as
   * stopped.
   */
  markStarting(): void {
    if (this.stateValue.state === 'stopped') this.setState({ state: 'starting', attempt: 0 });
  }

  /** Stops the server (its whole process group) and cancels any pending restart. */
  async stop(): Promise<void> {
    this.stops += 1;
    this.cancelRestartTimer();
    const connections = [this.connection, this.attempting].filter((c) => c !== undefined);
    this.connection = undefined;
    this.attempting = undefined;
    this.generation += 1;
    this.toolList = [];
    this.setState({ state: 'stopped' });
    await Promise.all(connections.map((c) => this.closeConnection(c)));
  }

  /**
   * Holds the server at the launch-trust gate (design D6): nothing is spawned, and the state carries
   * the consent request the UI shows. A later `start()` (after approval) proceeds as usual.
   */
  awaitApproval(consent: ConsentRequest): void {
    this.cancelRestartTimer();
    this.setState({ state: 'needs-approval', consent });
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Calls one tool by its raw name. Throws HostError with a protocol reason on every failure. */
  async callTool(
    tool: string,
    args: Record<string, unknown> | undefined,
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    const connection = this.connection;
    if (!connection || this.stateValue.state !== 'running') {
      throw new HostError(
        'server-unavailable',
        `Server '${this.name}' is ${this.stateValue.state}; start it from the popup or with 'switchyard doctor'.`,
        { server: this.name, state: this.stateValue.state },
      );
    }
    const timeout = this.options.launch.toolTimeoutMs;
    // Timeouts are the host's own timer, not the SDK's: a server can answer with error code
    // -32001 itself, and that must not read as a timeout. Aborting also sends the server
    // notifications/cancelled, so it can stop the work.
    const deadline = new RequestSignal(timeout, timeout * 10, options.signal);
    const signal = deadline.signal;
    try {
      const raw = await connection.client.request(
        { method: 'tools/call', params: { name: tool, ...(args ? { arguments: args } : {}) } },
        RawCallToolResultSchema,
        {
          signal,
          timeout: SDK_TIMEOUT_DISABLED_MS,
          onprogress: (progress) => {
            deadline.extend();
            // Only the fields the protocol defines, and the message is a stranger's text.
            options.onprogress?.({
              progress: progress.progress,
              ...(progress.total === undefined ? {} : { total: progress.total }),
              ...(progress.message === undefined
                ? {}
                : { message: untrustedMessage(progress.message) }),
            });
          },
        },
      );
      return normalizeCallResult(raw);
    } catch (error) {
      throw this.callFailure(error, connection, options.signal, deadline, timeout);
    } finally {
      deadline.dispose();
    }
  }

  /** Tells a running server its roots changed (`notifications/roots/list_changed`). */
  rootsChanged(): void {
    const connection = this.connection;
    if (connection === undefined || this.options.roots === undefined) return;
    connection.client.sendRootsListChanged().catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      this.options.events.onLog('warning', `could not announce new roots: ${message}`);
    });
  }

  /** Pids of this server's live processes (running or mid-handshake), for a last-resort kill. */
  livePids(): number[] {
    return [this.connection, this.attempting]
      .map((c) => (c && !c.process.exitInfo ? c.process.pid : undefined))
      .filter((pid): pid is number => pid !== undefined && pid > 0);
  }

  private callFailure(
    error: unknown,
    connection: Connection,
    signal: AbortSignal | undefined,
    deadline: RequestSignal,
    timeoutMs: number,
  ): HostError {
    if (signal?.aborted) {
      return new HostError('cancelled', `The call to '${this.name}' was cancelled.`, {
        server: this.name,
      });
    }
    if (deadline.timedOut) {
      return new HostError(
        'timeout',
        `Server '${this.name}' did not answer within ${timeoutMs} ms (set "toolTimeout" in config.json to allow longer).`,
        { server: this.name, timeoutMs },
      );
    }
    if (connection.process.exitInfo || this.connection !== connection) {
      return this.exitedError(connection);
    }
    if (error instanceof McpError) {
      return new HostError(
        'server-error',
        `Server '${this.name}' answered with an error: ${untrustedMessage(error.message)}`,
        {
          server: this.name,
          code: error.code,
        },
      );
    }
    const message = untrustedMessage(error instanceof Error ? error.message : String(error));
    return new HostError(
      'server-error',
      `Server '${this.name}' sent a malformed answer: ${message}`,
      {
        server: this.name,
      },
    );
  }

  private exitedError(connection: Connection): HostError {
    const exit = connection.process.exitInfo ?? { code: null, signal: null };
    const stderr = connection.process.stderrTail(STDERR_LINES_IN_ERRORS);
    return new HostError(
      'server-exited',
      `Server '${this.name}' exited (${describeExit(exit)}) while the call was pending.` +
        (stderr.length > 0 ? ` Last stderr: ${stderr.join(' | ')}` : ''),
      { server: this.name, exit, stderr },
    );
  }

  private async connect(attempt: number): Promise<void> {
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
      const reason = error instanceof LaunchError ? error.reason : 'spawn-failed';
      const message = error instanceof Error ? error.message : String(error);
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
    const roots = this.options.roots;
    const client = new Client(this.options.clientInfo, {
      capabilities: roots === undefined ? {} : { roots: { listChanged: true } },
      jsonSchemaValidator: NO_OUTPUT_SCHEMA_VALIDATION,
    });
    const connection: Connection = { generation, client, process, protocolVersion: 'unknown' };
    this.attempting = connection;
    process.transport.setProtocolVersion = (version) => {
      connection.protocolVersion = version;
    };
    client.onclose = () => {
      this.onConnectionClosed(connection);
    };
    client.onerror = (error) => {
      // Protocol noise from a server (a bad line, an unknown notification) is never fatal.
      this.options.events.onLog('warning', untrustedMessage(error.message));
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (this.connection === connection) this.refreshTools(connection);
    });
    if (roots !== undefined) {
      // The folders come from the user's profiles, asked for afresh on every request.
      client.setRequestHandler(ListRootsRequestSchema, () => ({
        roots: roots().map((root) => ({ ...root })),
      }));
    }
    const deadline = new RequestSignal(launch.handshakeTimeoutMs, launch.handshakeTimeoutMs);
    try {
      await client.connect(process.transport, {
        signal: deadline.signal,
        timeout: SDK_TIMEOUT_DISABLED_MS,
      });
    } catch (error) {
      await this.failHandshake(connection, attempt, deadline.timedOut, error);
      return;
    } finally {
      deadline.dispose();
      if (this.attempting === connection) this.attempting = undefined;
    }
    if (generation !== this.generation) {
      await this.closeConnection(connection);
      return;
    }
    this.connection = connection;
    const handshakeMs = this.now() - startedAt;
    await this.listTools(connection);
    if (this.connection !== connection) return;
    this.runningSince = this.now();
    const version = client.getServerVersion();
    this.setState({
      state: 'running',
      pid: process.pid ?? -1,
      handshakeMs,
      protocolVersion: connection.protocolVersion,
      serverInfo: {
        name: capText(sanitizeText(version?.name ?? 'unknown'), MAX_INFO_CHARS).text,
        version: capText(sanitizeText(version?.version ?? 'unknown'), MAX_INFO_CHARS).text,
      },
    });
    // Covers automatic restarts too: the listing changed even if no caller asked for a start.
    this.options.events.onToolsChanged(this);
  }

  private async failHandshake(
    connection: Connection,
    attempt: number,
    timedOut: boolean,
    error?: unknown,
  ): Promise<void> {
    const isCurrent = connection.generation === this.generation;
    await this.closeConnection(connection);
    if (!isCurrent) return;
    const exit = connection.process.exitInfo;
    const stderr = connection.process.stderrTail(STDERR_LINES_IN_ERRORS);
    const tail = stderr.length > 0 ? ` Last stderr: ${stderr.join(' | ')}` : '';
    const reason = error instanceof Error ? untrustedMessage(error.message) : 'unknown error';
    const message = timedOut
      ? `'${this.name}' did not complete the MCP handshake within ${this.options.launch.handshakeTimeoutMs} ms; check that it is an MCP server speaking stdio (set "timeout" in config.json if it is slow to start).${tail}`
      : exit
        ? `'${this.name}' exited during the handshake (${describeExit(exit)}).${tail}`
        : `'${this.name}' failed the MCP handshake: ${reason}.${tail}`;
    if (attempt > 0) {
      // An automatic restart that fails its handshake counts as one more crash: backoff, then
      // give up, instead of leaving a server that crashed once permanently failed.
      this.crashed(exit ?? { code: null, signal: null }, message);
      return;
    }
    this.setState({
      state: 'failed',
      reason: timedOut ? 'handshake-timeout' : 'handshake-failed',
      message,
      ...(exit ? { exit } : {}),
    });
    this.options.events.onLog('error', message);
  }

  private async listTools(connection: Connection): Promise<void> {
    if (!connection.client.getServerCapabilities()?.tools) {
      this.toolList = [];
      this.rejected = [];
      return;
    }
    const tools: ToolDefinition[] = [];
    const rejected: Array<{ name: string; problem: string }> = [];
    let cursor: string | undefined;
    try {
      for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
        const result = await connection.client.request(
          { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
          ListToolsPageSchema,
          { timeout: this.options.launch.handshakeTimeoutMs },
        );
        for (const entry of result.tools) {
          if (tools.length >= MAX_TOOLS_PER_SERVER) break;
          const parsed = parseToolDefinition(entry);
          if (parsed.ok) tools.push(parsed.tool);
          else rejected.push({ name: parsed.name, problem: parsed.problem });
        }
        cursor = result.nextCursor;
        if (cursor === undefined || tools.length >= MAX_TOOLS_PER_SERVER) break;
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.options.events.onLog('warning', `tools/list failed: ${untrustedMessage(message)}`);
      if (this.connection !== connection) return;
    }
    if (this.connection !== connection) return;
    for (const r of rejected) {
      this.options.events.onLog(
        'warning',
        `skipped tool '${untrustedMessage(r.name)}': ${untrustedMessage(r.problem)}`,
      );
    }
    this.toolList = tools;
    this.rejected = rejected;
  }

  /** Re-lists after `notifications/tools/list_changed`; bursts collapse into one trailing refresh. */
  private refreshTools(connection: Connection): void {
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        await this.listTools(connection);
      } while (this.refreshRequested() && this.connection === connection);
    })().finally(() => {
      this.refreshing = undefined;
      if (this.connection === connection) this.options.events.onToolsChanged(this);
    });
  }

  /** Whether a list_changed arrived during the last refresh (read through a call so the
   * compiler does not narrow the field across the await above). */
  private refreshRequested(): boolean {
    return this.refreshAgain;
  }

  private onConnectionClosed(connection: Connection): void {
    if (this.connection !== connection) return;
    this.connection = undefined;
    this.toolList = [];
    const exit = connection.process.exitInfo ?? { code: null, signal: null };
    if (this.now() - this.runningSince >= this.policy.stableAfterMs) this.restarts = 0;
    const stderr = connection.process.stderrTail(STDERR_LINES_IN_ERRORS);
    const tail = stderr.length > 0 ? ` Last stderr: ${stderr.join(' | ')}` : '';
    this.crashed(exit, `'${this.name}' exited (${describeExit(exit)}).${tail}`);
  }

  /** After a crash (or a failed automatic restart): restart with backoff, or give up. */
  private crashed(exit: ExitInfo, message: string): void {
    const decision = restartDecision(this.policy, this.restarts);
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

  private async closeConnection(connection: Connection): Promise<void> {
    try {
      await connection.client.close();
    } catch {
      // Closing a half-open connection can throw; the process is killed by the transport anyway.
    }
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

export function describeExit(exit: ExitInfo): string {
  if (exit.signal !== null) return `signal ${exit.signal}`;
  if (exit.code !== null) return `exit code ${exit.code}`;
  return 'no exit status';
}

function scheduleUnref(fn: () => void, ms: number): () => void {
  const timer = setTimeout(fn, ms);
  // A pending restart must not keep a host alive that is otherwise done.
  timer.unref();
  return () => {
    clearTimeout(timer);
  };
}
