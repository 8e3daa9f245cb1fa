import { z } from 'zod';
import { JsonRpcRequestSchema, type JsonRpcRequest } from '../../../protocol/jsonrpc';
import { PROTOCOL_VERSION, type ResultOf } from '../../../protocol/methods';
import { createPortTransport, type PortLike, type TransportFactory } from '../port-transport';

/**
 * An in-memory `runtime.Port` (style habit 8: the fake implements the real seam). The test plays
 * the host: it reads what the extension posted and delivers answers and notifications.
 */
export class FakePort implements PortLike {
  readonly posted: unknown[] = [];
  /** What `runtime.lastError` says inside the disconnect listener. */
  lastError: string | undefined;
  disconnectedByExtension = false;
  /** Plays the host: called (in a microtask, as the real port is asynchronous) for each request. */
  onRequest: ((request: JsonRpcRequest) => void) | undefined;
  private readonly messageListeners: ((message: unknown) => void)[] = [];
  private readonly disconnectListeners: (() => void)[] = [];

  readonly onMessage = {
    addListener: (callback: (message: unknown) => void): void => {
      this.messageListeners.push(callback);
    },
  };

  readonly onDisconnect = {
    addListener: (callback: () => void): void => {
      this.disconnectListeners.push(callback);
    },
  };

  postMessage(message: unknown): void {
    if (this.disconnectedByExtension || this.lastError !== undefined) {
      throw new Error('Attempting to use a disconnected port object');
    }
    // Native messaging serializes to JSON: undefined members vanish, as they would on the wire.
    const copy: unknown = JSON.parse(JSON.stringify(message));
    this.posted.push(copy);
    const request = JsonRpcRequestSchema.safeParse(copy);
    const onRequest = this.onRequest;
    if (request.success && onRequest !== undefined) {
      queueMicrotask(() => {
        onRequest(request.data);
      });
    }
  }

  disconnect(): void {
    this.disconnectedByExtension = true;
  }

  /** The host sends one message. */
  deliver(message: unknown): void {
    for (const listener of this.messageListeners) listener(message);
  }

  /** The browser drops the port with `runtime.lastError` set to `lastError`. */
  drop(lastError = 'Native host has exited.'): void {
    this.lastError = lastError;
    for (const listener of this.disconnectListeners) listener();
  }

  /** Requests posted so far, parsed. */
  requests(): JsonRpcRequest[] {
    return this.posted.flatMap((message) => {
      const parsed = JsonRpcRequestSchema.safeParse(message);
      return parsed.success ? [parsed.data] : [];
    });
  }

  /** Notifications posted so far (messages with a method and no id). */
  notifications(): { method: string; params?: unknown }[] {
    return this.posted.flatMap((message) => {
      const parsed = NotificationShape.safeParse(message);
      const isNotification = typeof message === 'object' && message !== null && !('id' in message);
      return parsed.success && isNotification ? [parsed.data] : [];
    });
  }

  /** The last request posted with `method`; throws if there is none. */
  lastRequest(method: string): JsonRpcRequest {
    const found = this.requests()
      .filter((r) => r.method === method)
      .at(-1);
    if (found === undefined) throw new Error(`no ${method} request was posted`);
    return found;
  }

  respond(id: JsonRpcRequest['id'], result: unknown): void {
    this.deliver({ jsonrpc: '2.0', id, result });
  }

  fail(
    id: JsonRpcRequest['id'],
    error: { code?: number; message: string; data?: Record<string, unknown> },
  ): void {
    this.deliver({ jsonrpc: '2.0', id, error: { code: error.code ?? -32000, ...error } });
  }

  /** Answers the pending `host/hello` the way a healthy host does. */
  answerHello(result: Partial<ResultOf<'host/hello'>> = {}): void {
    this.respond(this.lastRequest('host/hello').id, {
      protocolVersion: PROTOCOL_VERSION,
      host: { name: 'switchyard', version: '0.1.0' },
      home: '/home/ada/.config/switchyard',
      configWarnings: [],
      ...result,
    });
  }
}

const NotificationShape = z.object({ method: z.string(), params: z.unknown().optional() });

/** Hands out a fresh FakePort per connection attempt, like `runtime.connectNative`. */
export class FakeNative {
  readonly ports: FakePort[] = [];

  readonly connect: TransportFactory = (handlers) => {
    const port = new FakePort();
    this.ports.push(port);
    return createPortTransport(port, handlers, () => port.lastError);
  };

  /** The newest port; throws before the first connection. */
  get port(): FakePort {
    const port = this.ports.at(-1);
    if (port === undefined) throw new Error('no connection was opened');
    return port;
  }
}
