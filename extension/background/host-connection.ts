import { z } from 'zod';
import { PROTOCOL_VERSION, type ParamsOf, type ResultOf } from '../../protocol/methods';
import type { ConnectionState } from '../messaging/connection';
import { DEFAULT_BACKOFF, backoffDelayMs, type BackoffPolicy } from './backoff';
import { systemClock, type Clock } from './clock';
import { HostRequestError, type ClientFailureReason } from './host-errors';
import {
  TransportClosedError,
  classifyDisconnect,
  connectNativeHost,
  type DisconnectInfo,
  type Transport,
  type TransportFactory,
} from './port-transport';
import type { Log } from './request-table';
import { messageOf } from '../../protocol/guards';

/**
 * The native connection's state machine (messaging/connection.ts draws it): one transport at a
 * time, the `host/hello` handshake, reconnect with backoff after a crash, and the states that
 * wait for the user (not installed, protocol mismatch, gave up). It knows nothing of requests:
 * the request client (host-client.ts) sends the handshake for it, and is told when queued
 * requests may go and when every pending request fails.
 */

/** The handshake is answered at once by a healthy host. */
export const HELLO_TIMEOUT_MS = 10_000;

/** What the connection needs from the request client on top of it. */
export interface ConnectionHooks {
  /** Sends `host/hello` over the transport just opened, ahead of everything else. */
  hello(params: ParamsOf<'host/hello'>, timeoutMs: number): Promise<ResultOf<'host/hello'>>;
  /** A message from the current transport (a stale transport's messages never arrive). */
  receive(message: unknown): void;
  /** The handshake succeeded: requests that waited for it may go. */
  connected(): void;
  /** Every pending request fails with this reason and message. */
  failAll(reason: ClientFailureReason, message: string): void;
}

export interface HostConnectionOptions {
  /** Opens a transport; default `runtime.connectNative('com.switchyard.host')`. */
  readonly connect?: TransportFactory;
  readonly clock?: Clock;
  /** Sent in `host/hello`; informational. */
  readonly client?: { readonly name: string; readonly version: string };
  readonly helloTimeoutMs?: number;
  readonly backoff?: BackoffPolicy;
  readonly log: Log;
}

const SupportedVersionsSchema = z.object({ supported: z.array(z.number().int()) });

const noop = (): void => undefined;

export class HostConnection {
  private readonly openTransport: TransportFactory;
  private readonly clock: Clock;
  private readonly clientInfo: { readonly name: string; readonly version: string };
  private readonly helloTimeoutMs: number;
  private readonly backoff: BackoffPolicy;
  private readonly log: Log;

  private current: ConnectionState = { state: 'disconnected' };
  private transport: Transport | undefined;
  /** Bumped whenever a transport is abandoned, so its late callbacks are ignored. */
  private generation = 0;
  /** Crashes in a row, for the backoff. */
  private failures = 0;
  private connectedAt: number | undefined;
  private cancelRetry: () => void = noop;
  private readonly stateListeners = new Set<(state: ConnectionState) => void>();

  constructor(
    private readonly hooks: ConnectionHooks,
    options: HostConnectionOptions,
  ) {
    this.openTransport = options.connect ?? ((handlers) => connectNativeHost(handlers));
    this.clock = options.clock ?? systemClock;
    this.clientInfo = options.client ?? { name: 'switchyard-extension', version: 'dev' };
    this.helloTimeoutMs = options.helloTimeoutMs ?? HELLO_TIMEOUT_MS;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.log = options.log;
  }

  get state(): ConnectionState {
    return this.current;
  }

  /** Calls `listener` on every state change; returns the unsubscribe function. */
  onStateChange(listener: (state: ConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Posts one message on the current transport; throws TransportClosedError when there is none. */
  send(message: unknown): void {
    if (this.transport === undefined) throw new TransportClosedError();
    this.transport.send(message);
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
    this.hooks.failAll('disconnected', 'The connection to the Switchyard host was closed.');
    this.setState({ state: 'disconnected' });
  }

  private open(): void {
    this.generation += 1;
    const generation = this.generation;
    this.setState({ state: 'connecting', attempt: this.failures });
    try {
      this.transport = this.openTransport({
        onMessage: (message) => {
          if (generation === this.generation) this.hooks.receive(message);
        },
        onDisconnect: (info) => {
          if (generation === this.generation) this.dropped(info);
        },
      });
    } catch (error) {
      // connectNative throws synchronously for a malformed name or a missing permission.
      this.dropped(classifyDisconnect(messageOf(error)));
      return;
    }
    // The handshake goes first; other requests wait until it succeeds.
    this.hooks
      .hello({ protocolVersion: PROTOCOL_VERSION, client: this.clientInfo }, this.helloTimeoutMs)
      .then(
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
            runtime: result.runtime ?? null,
          });
          this.hooks.connected();
        },
        (error: unknown) => {
          if (generation !== this.generation) return;
          if (error instanceof HostRequestError && error.reason === 'protocol-mismatch') {
            const supported = SupportedVersionsSchema.safeParse(error.data).data?.supported ?? [];
            this.mismatch(supported, error.message);
            return;
          }
          const why = messageOf(error);
          this.abandonTransport(true);
          this.dropped({ kind: 'crashed', message: `The handshake failed: ${why}` });
        },
      );
  }

  private mismatch(host: readonly number[], message: string): void {
    this.abandonTransport(true);
    this.hooks.failAll('not-connected', message);
    this.setState({ state: 'protocol-mismatch', host, extension: PROTOCOL_VERSION, message });
  }

  /** The port dropped (or never opened): fail what is pending, then retry or wait for the user. */
  private dropped(info: DisconnectInfo): void {
    const connectedFor = this.connectedAt === undefined ? 0 : this.clock.now() - this.connectedAt;
    this.abandonTransport(false);
    this.hooks.failAll(
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
