import { z } from 'zod';
import { parseJsonRpcMessage } from '../../protocol/jsonrpc';
import {
  PROTOCOL_VERSION,
  hostNotifications,
  type HostNotification,
  type HostNotificationParams,
  type ParamsOf,
  type RequestMethod,
  type ResultOf,
} from '../../protocol/methods';
import {
  callToolWithApproval,
  type CallToolOptions,
  type HostToolCallOutcome,
} from './approval-flow';
import { systemClock, type Clock } from './clock';
import { DEFAULT_BACKOFF, backoffDelayMs, type BackoffPolicy } from './backoff';
import { describeConnection, type ConnectionState } from '../messaging/connection';
import { ClientRequestError, HostRequestError } from './host-errors';
import {
  TransportClosedError,
  classifyDisconnect,
  connectNativeHost,
  type DisconnectInfo,
  type Transport,
  type TransportFactory,
} from './port-transport';
import { RequestTable, type Log, type PendingRequest, type RequestOptions } from './request-table';

export type { Log, LogLevel, PendingRequest, RequestOptions } from './request-table';

/**
 * The request client of the native channel (style habit 5): the connection state machine
 * (connection-state.ts) with the `host/hello` handshake and reconnect backoff, typed
 * notifications, and requests (request-table.ts) over one transport at a time. Types come from
 * the protocol's method table; everything the host sends is parsed with the table's schemas.
 */

const notificationSchemas: {
  readonly [N in HostNotification]: z.ZodType<HostNotificationParams<N>>;
} = hostNotifications;

type NotificationHandler<N extends HostNotification> = (params: HostNotificationParams<N>) => void;

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** The handshake is answered at once by a healthy host. */
export const HELLO_TIMEOUT_MS = 10_000;
/**
 * Safety nets for a host that stopped answering, not the tools' deadlines: the host enforces each
 * server's handshake `timeout` and `toolTimeout` and reports `timeout` itself. Progress restarts
 * a `tools/call` deadline.
 */
const METHOD_TIMEOUTS_MS: Partial<Record<RequestMethod, number>> = {
  'servers/start': 120_000,
  'servers/restart': 120_000,
  'trust/approve': 120_000,
  'tools/call': 600_000,
};

const consoleLog: Log = (level, message) => {
  console[level](`[switchyard] ${message}`);
};

export interface HostClientOptions {
  /** Opens a transport; default `runtime.connectNative('com.switchyard.host')`. */
  readonly connect?: TransportFactory;
  readonly clock?: Clock;
  /** Sent in `host/hello`; informational. */
  readonly client?: { readonly name: string; readonly version: string };
  /** Per-method deadline overrides, in ms. */
  readonly timeouts?: Partial<Record<RequestMethod, number>>;
  readonly helloTimeoutMs?: number;
  readonly backoff?: BackoffPolicy;
  readonly log?: Log;
}

const SupportedVersionsSchema = z.object({ supported: z.array(z.number().int()) });

const noop = (): void => undefined;

export class HostClient {
  private readonly openTransport: TransportFactory;
  private readonly clock: Clock;
  private readonly clientInfo: { readonly name: string; readonly version: string };
  private readonly timeouts: Partial<Record<RequestMethod, number>>;
  private readonly helloTimeoutMs: number;
  private readonly backoff: BackoffPolicy;
  private readonly log: Log;
  private readonly requests: RequestTable;

  private current: ConnectionState = { state: 'disconnected' };
  private transport: Transport | undefined;
  /** Bumped whenever a transport is abandoned, so its late callbacks are ignored. */
  private generation = 0;
  /** Crashes in a row, for the backoff. */
  private failures = 0;
  private connectedAt: number | undefined;
  private cancelRetry: () => void = noop;
  private readonly stateListeners = new Set<(state: ConnectionState) => void>();
  private readonly listeners: { [N in HostNotification]: Set<NotificationHandler<N>> } = {
    'notifications/servers/changed': new Set(),
    'notifications/tools/changed': new Set(),
    'notifications/progress': new Set(),
    'notifications/log': new Set(),
  };

  constructor(options: HostClientOptions = {}) {
    this.openTransport = options.connect ?? ((handlers) => connectNativeHost(handlers));
    this.clock = options.clock ?? systemClock;
    this.clientInfo = options.client ?? { name: 'switchyard-extension', version: 'dev' };
    this.timeouts = { ...METHOD_TIMEOUTS_MS, ...options.timeouts };
    this.helloTimeoutMs = options.helloTimeoutMs ?? HELLO_TIMEOUT_MS;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.log = options.log ?? consoleLog;
    this.requests = new RequestTable(
      this.clock,
      (message) => {
        if (this.transport === undefined) throw new TransportClosedError();
        this.transport.send(message);
      },
      this.log,
    );
  }

  get state(): ConnectionState {
    return this.current;
  }

  /** Calls `listener` on every state change; returns the unsubscribe function. */
  onStateChange(listener: (state: ConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /**
   * Subscribes to one host notification. Params are validated against the method table first;
   * an invalid notification is logged and dropped. Subscriptions survive reconnects, and
   * notifications may arrive before the handshake completes (docs/protocol.md, Handshake).
   */
  on<N extends HostNotification>(method: N, handler: NotificationHandler<N>): () => void {
    const set = this.listeners[method];
    set.add(handler);
    return () => set.delete(handler);
  }

  /**
   * Connects unless connecting or connected, starting the retry count afresh. This is also the
   * "Retry" of the not-installed, protocol-mismatch and gave-up states.
   */
  connect(): void {
    if (this.current.state === 'connecting' || this.current.state === 'connected') return;
    this.cancelRetry();
    this.failures = 0;
    this.open();
  }

  /** Closes the port for good (no reconnect); every pending request fails. */
  close(): void {
    this.cancelRetry();
    this.abandonTransport(true);
    this.requests.failAll('disconnected', 'The connection to the Switchyard host was closed.');
    this.setState({ state: 'disconnected' });
  }

  /**
   * Sends a request. While connecting it waits for the handshake; in any other state but
   * `connected` it fails at once with `not-connected`. The answer is parsed with the method's
   * result schema; a host error keeps its `data.reason` (HostRequestError). A request refused
   * before it was issued has id -1.
   */
  start<M extends RequestMethod>(
    method: M,
    params: ParamsOf<M>,
    options: RequestOptions = {},
  ): PendingRequest<M> {
    const state = this.current;
    if (state.state !== 'connected' && state.state !== 'connecting') {
      const error = new ClientRequestError(method, 'not-connected', describeConnection(state));
      return { id: -1, result: Promise.reject(error) };
    }
    const timeoutMs = options.timeoutMs ?? this.timeouts[method] ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const pending = this.requests.create(method, params, timeoutMs, options);
    if (state.state === 'connected') this.requests.transmit(pending.id);
    return pending;
  }

  request<M extends RequestMethod>(
    method: M,
    params: ParamsOf<M>,
    options: RequestOptions = {},
  ): Promise<ResultOf<M>> {
    return this.start(method, params, options).result;
  }

  /**
   * Cancels a pending request: it fails at once with `cancelled`, and the host is sent
   * `notifications/cancelled` if the request reached it. False if it was not pending.
   */
  cancel(id: number, reason?: string): boolean {
    return this.requests.cancel(id, reason);
  }

  /** `tools/call` with the approval flow (approval-flow.ts). */
  callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    options: CallToolOptions,
  ): Promise<HostToolCallOutcome> {
    return callToolWithApproval(this, name, args, options);
  }

  private open(): void {
    this.generation += 1;
    const generation = this.generation;
    this.setState({ state: 'connecting', attempt: this.failures });
    try {
      this.transport = this.openTransport({
        onMessage: (message) => {
          if (generation === this.generation) this.receive(message);
        },
        onDisconnect: (info) => {
          if (generation === this.generation) this.dropped(info);
        },
      });
    } catch (error) {
      // connectNative throws synchronously for a malformed name or a missing permission.
      this.dropped(classifyDisconnect(error instanceof Error ? error.message : String(error)));
      return;
    }
    // The handshake goes first; other requests wait in the table until it succeeds.
    const hello = this.requests.create(
      'host/hello',
      { protocolVersion: PROTOCOL_VERSION, client: this.clientInfo },
      this.helloTimeoutMs,
      {},
    );
    this.requests.transmit(hello.id);
    hello.result.then(
      (result) => {
        if (generation !== this.generation) return;
        if (result.protocolVersion !== PROTOCOL_VERSION) {
          this.mismatch(
            [result.protocolVersion],
            `The host answered with protocol ${result.protocolVersion}, this extension speaks ${PROTOCOL_VERSION}.`,
          );
          return;
        }
        this.connectedAt = this.clock.now();
        this.setState({
          state: 'connected',
          hostVersion: result.host.version,
          home: result.home,
          configWarnings: result.configWarnings,
        });
        this.requests.transmitQueued();
      },
      (error: unknown) => {
        if (generation !== this.generation) return;
        if (error instanceof HostRequestError && error.reason === 'protocol-mismatch') {
          const supported = SupportedVersionsSchema.safeParse(error.data).data?.supported ?? [];
          this.mismatch(supported, error.message);
          return;
        }
        const why = error instanceof Error ? error.message : String(error);
        this.abandonTransport(true);
        this.dropped({ kind: 'crashed', message: `The handshake failed: ${why}` });
      },
    );
  }

  private mismatch(host: readonly number[], message: string): void {
    this.abandonTransport(true);
    this.requests.failAll('not-connected', message);
    this.setState({ state: 'protocol-mismatch', host, extension: PROTOCOL_VERSION, message });
  }

  /** The port dropped (or never opened): fail what is pending, then retry or wait for the user. */
  private dropped(info: DisconnectInfo): void {
    const connectedFor = this.connectedAt === undefined ? 0 : this.clock.now() - this.connectedAt;
    this.abandonTransport(false);
    this.requests.failAll(
      'disconnected',
      `The Switchyard host stopped before answering (${info.message}).`,
    );
    if (info.kind === 'not-installed') {
      this.setState({ state: 'not-installed', message: info.message });
      return;
    }
    if (connectedFor >= this.backoff.stableMs) this.failures = 0;
    this.failures += 1;
    const retryInMs = backoffDelayMs(this.backoff, this.failures);
    this.setState({ state: 'crashed', message: info.message, retryInMs });
    if (retryInMs !== null) {
      this.cancelRetry = this.clock.setTimer(() => {
        this.cancelRetry = noop;
        this.open();
      }, retryInMs);
    }
  }

  private abandonTransport(close: boolean): void {
    this.generation += 1;
    this.connectedAt = undefined;
    const transport = this.transport;
    this.transport = undefined;
    if (close) transport?.close();
  }

  private receive(raw: unknown): void {
    const message = parseJsonRpcMessage(raw);
    if (message === undefined) {
      this.log('warn', 'dropped a message from the host that is not JSON-RPC 2.0');
      return;
    }
    if (!('method' in message)) {
      // Answers to cancelled or timed-out requests land here, as do id-less parse errors.
      if (!this.requests.answer(message)) {
        this.log('debug', `ignored an answer to request ${String(message.id)}: not pending`);
      }
      return;
    }
    if ('id' in message) {
      this.log('warn', `dropped a request from the host (${message.method}): hosts send none`);
      return;
    }
    if (!isHostNotification(message.method)) {
      this.log('warn', `dropped an unknown notification from the host (${message.method})`);
      return;
    }
    this.dispatch(message.method, message.params);
  }

  // N correlates the schema with the handlers' parameter type, which a union method cannot do.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
  private dispatch<N extends HostNotification>(method: N, params: unknown): void {
    const parsed = notificationSchemas[method].safeParse(params);
    if (!parsed.success) {
      const where = parsed.error.issues.map((i) => i.path.join('.') || '(root)').join(', ');
      this.log('warn', `dropped an invalid ${method} from the host (at ${where})`);
      return;
    }
    if (method === 'notifications/progress') {
      // Same params, parsed again under the concrete type: N does not narrow on a comparison.
      const progress = notificationSchemas['notifications/progress'].safeParse(params);
      if (progress.success) this.requests.progress(progress.data);
    }
    for (const handler of [...this.listeners[method]]) {
      try {
        handler(parsed.data);
      } catch (error) {
        this.log('error', `a ${method} handler threw: ${String(error)}`);
      }
    }
  }

  private setState(state: ConnectionState): void {
    this.current = state;
    for (const listener of [...this.stateListeners]) {
      try {
        listener(state);
      } catch (error) {
        this.log('error', `a connection state listener threw: ${String(error)}`);
      }
    }
  }
}

function isHostNotification(method: string): method is HostNotification {
  return Object.hasOwn(hostNotifications, method);
}
