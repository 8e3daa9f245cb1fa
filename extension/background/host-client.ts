import { parseJsonRpcMessage } from '../../protocol/jsonrpc';
import type { HostNotification, ParamsOf, RequestMethod, ResultOf } from '../../protocol/methods';
import { describeConnection, type ConnectionState } from '../messaging/connection';
import type { BackoffPolicy } from './backoff';
import { systemClock, type Clock } from './clock';
import { ClientRequestError } from './host-errors';
import { HostConnection } from './host-connection';
import {
  HostNotifications,
  isHostNotification,
  type NotificationHandler,
} from './host-notifications';
import type { TransportFactory } from './port-transport';
import { RequestTable, type Log, type PendingRequest, type RequestOptions } from './request-table';
import { allToolPages } from './tool-pages';

export type { Log, LogLevel, PendingRequest, RequestOptions } from './request-table';

/**
 * The request client of the native channel (style habit 5): ids, deadlines and cancellation
 * (request-table.ts) and typed notifications (host-notifications.ts) over the connection state
 * machine of host-connection.ts, which owns the transport, the `host/hello` handshake and the
 * reconnect backoff. Types come from the protocol's method table; everything the host sends is
 * parsed with the table's schemas. A host error stays an error here (HostRequestError): the
 * callers that expect one, such as `approval-required`, convert it (host-tool-call.ts).
 */

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
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

export class HostClient {
  private readonly timeouts: Partial<Record<RequestMethod, number>>;
  private readonly log: Log;
  private readonly requests: RequestTable;
  private readonly notifications: HostNotifications;
  private readonly connection: HostConnection;

  constructor(options: HostClientOptions = {}) {
    const clock = options.clock ?? systemClock;
    this.timeouts = { ...METHOD_TIMEOUTS_MS, ...options.timeouts };
    this.log = options.log ?? consoleLog;
    this.requests = new RequestTable(
      clock,
      (message) => {
        this.connection.send(message);
      },
      this.log,
    );
    this.notifications = new HostNotifications(this.log, (progress) => {
      this.requests.progress(progress);
    });
    this.connection = new HostConnection(
      {
        hello: (params, timeoutMs) => {
          const hello = this.requests.create('host/hello', params, timeoutMs, {});
          this.requests.transmit(hello.id);
          return hello.result;
        },
        receive: (message) => {
          this.receive(message);
        },
        connected: () => {
          this.requests.transmitQueued();
        },
        failAll: (reason, message) => {
          this.requests.failAll(reason, message);
        },
      },
      { ...options, clock, log: this.log },
    );
  }

  get state(): ConnectionState {
    return this.connection.state;
  }

  /** Calls `listener` on every state change; returns the unsubscribe function. */
  onStateChange(listener: (state: ConnectionState) => void): () => void {
    return this.connection.onStateChange(listener);
  }

  /**
   * Subscribes to one host notification. Params are validated against the method table first;
   * an invalid notification is logged and dropped. Subscriptions survive reconnects, and
   * notifications may arrive before the handshake completes (docs/protocol.md, Handshake).
   */
  on<N extends HostNotification>(method: N, handler: NotificationHandler<N>): () => void {
    return this.notifications.on(method, handler);
  }

  /**
   * Connects unless connecting or connected, starting the retry count afresh. This is also the
   * "Retry" of the not-installed, protocol-mismatch and gave-up states.
   */
  connect(): void {
    this.connection.connect();
  }

  /** Closes the port for good (no reconnect); every pending request fails. */
  close(): void {
    this.connection.close();
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
    const state = this.connection.state;
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
    if (isToolsList(method, params)) {
      // A large listing comes in pages (tool-pages.ts); callers always get it whole.
      const listing = allToolPages(
        (cursor) =>
          this.start(
            'tools/list',
            { ...params, ...(cursor === undefined ? {} : { cursor }) },
            options,
          ).result,
      );
      return listing as Promise<ResultOf<M>>;
    }
    return this.start(method, params, options).result;
  }

  /**
   * Cancels a pending request: it fails at once with `cancelled`, and the host is sent
   * `notifications/cancelled` if the request reached it. False if it was not pending.
   */
  cancel(id: number, reason?: string): boolean {
    return this.requests.cancel(id, reason);
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
    this.notifications.dispatch(message.method, message.params);
  }
}

function isToolsList(method: RequestMethod, _params: unknown): _params is ParamsOf<'tools/list'> {
  return method === 'tools/list';
}
