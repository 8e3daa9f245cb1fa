import {
  JsonRpcErrorCode,
  parseJsonRpcMessage,
  type JsonRpcFailure,
  type JsonRpcRequest,
  type RequestId,
} from '../../protocol/jsonrpc';
import {
  clientNotifications,
  isClientNotification,
  isRequestMethod,
  paramsSchemaOf,
  type HostNotification,
  type HostNotificationParams,
  type ParamsOf,
  type RequestMethod,
  type ResultOf,
} from '../../protocol/methods';
import { HostErrorDataSchema, type ErrorReason } from '../../protocol/errors';
import { FrameTooLargeError } from '../transport/frame-codec';
import { capText } from '../../protocol/untrusted/cap';
import { HostError } from '../shared/host-error';
import { FileLockTimeoutError } from '../shared/file-lock';
import { messageOf } from '../../protocol/guards';
import { Cancellation } from '../shared/cancellation';

/**
 * Routes JSON-RPC requests from the extension to typed handlers. It validates every message
 * against the method table before a handler sees it, enforces `host/hello` first, tracks
 * in-flight requests so `notifications/cancelled` can abort them, and turns every failure into a
 * JSON-RPC error with a `data.reason`. It never throws at its caller: one bad message costs one
 * error response, never the connection.
 */

export interface RequestContext {
  readonly id: RequestId;
  /**
   * Cancelled when the extension cancels this request (reason CANCEL_REASON) or the host shuts
   * down (another reason).
   */
  readonly cancellation: Cancellation;
  notify<N extends HostNotification>(method: N, params: HostNotificationParams<N>): void;
}

export type Handler<M extends RequestMethod> = (
  params: ParamsOf<M>,
  context: RequestContext,
) => Promise<ResultOf<M>>;

/** A handler for every method: a method without one does not compile. */
export type Handlers = { readonly [M in RequestMethod]: Handler<M> };

export interface DispatcherOptions {
  readonly handlers: Handlers;
  /** Sends one message; rejects (e.g. FrameTooLargeError) without having written anything. */
  readonly send: (message: unknown) => Promise<void>;
  readonly log: (level: 'info' | 'warning' | 'error', message: string) => void;
  /** The host's first stage already answered this connection's `host/hello` (decision 0030). */
  readonly helloAnswered?: boolean;
}

/** Reason attached to aborts the extension asked for. */
export const CANCEL_REASON = 'cancelled-by-client';

export class Dispatcher {
  private readonly options: DispatcherOptions;
  private readonly inFlight = new Map<RequestId, Cancellation>();
  private helloDone = false;

  constructor(options: DispatcherOptions) {
    this.options = options;
    this.helloDone = options.helloAnswered ?? false;
  }

  /** Number of requests currently being handled. */
  get pending(): number {
    return this.inFlight.size;
  }

  /** Handles one decoded JSON value from the channel. */
  handle(value: unknown): void {
    const message = parseJsonRpcMessage(value);
    if (!message) {
      this.reply(
        failure(
          null,
          JsonRpcErrorCode.InvalidRequest,
          'Not a JSON-RPC 2.0 message.',
          'invalid-request',
        ),
      );
      return;
    }
    if ('method' in message) {
      if ('id' in message) {
        void this.handleRequest(message);
      } else {
        this.handleNotification(message.method, message.params);
      }
      return;
    }
    // The host sends no requests to the extension, so a response is unexpected; log and drop.
    this.options.log(
      'warning',
      'Ignored a JSON-RPC response from the extension: the host sent no request.',
    );
  }

  /** Answers a frame whose payload was not JSON. */
  handleParseError(error: Error): void {
    this.reply(
      failure(
        null,
        JsonRpcErrorCode.ParseError,
        `Frame is not valid JSON: ${error.message}`,
        'invalid-request',
      ),
    );
  }

  /** Aborts every in-flight request (host shutdown). */
  abortAll(reason: string): void {
    for (const cancellation of this.inFlight.values()) this.cancel(cancellation, reason);
  }

  /** One request's cancel; a listener that fails is logged and the others have run. */
  private cancel(cancellation: Cancellation, reason: string): void {
    try {
      cancellation.cancel(reason);
    } catch (error) {
      this.options.log('error', `Cancelling a request failed: ${messageOf(error)}`);
    }
  }

  private handleNotification(method: string, params: unknown): void {
    if (!isClientNotification(method)) {
      this.options.log('warning', `Ignored unknown notification '${method.slice(0, 128)}'.`);
      return;
    }
    const parsed = clientNotifications[method].safeParse(params);
    if (!parsed.success) {
      this.options.log('warning', `Ignored malformed '${method}' notification.`);
      return;
    }
    // notifications/cancelled is the only client notification so far.
    const cancellation = this.inFlight.get(parsed.data.requestId);
    if (cancellation !== undefined) this.cancel(cancellation, CANCEL_REASON);
  }

  private async handleRequest(request: JsonRpcRequest): Promise<void> {
    const { id, method } = request;
    if (this.inFlight.has(id)) {
      this.reply(
        failure(
          id,
          JsonRpcErrorCode.InvalidRequest,
          `Request id ${String(id)} is already in flight.`,
          'invalid-request',
        ),
      );
      return;
    }
    if (!isRequestMethod(method)) {
      this.reply(
        failure(
          id,
          JsonRpcErrorCode.MethodNotFound,
          `Unknown method '${method.slice(0, 128)}'.`,
          'unknown-method',
        ),
      );
      return;
    }
    if (!this.helloDone && method !== 'host/hello') {
      this.reply(
        failure(
          id,
          JsonRpcErrorCode.HostError,
          "Send 'host/hello' before any other request.",
          'protocol-mismatch',
        ),
      );
      return;
    }
    const cancellation = new Cancellation();
    this.inFlight.set(id, cancellation);
    try {
      const result = await this.run(method, request.params, id, cancellation);
      if (method === 'host/hello') this.helloDone = true;
      await this.sendResult(id, result);
    } catch (error) {
      this.reply(toFailure(id, error));
    } finally {
      this.inFlight.delete(id);
    }
  }

  private async run<M extends RequestMethod>(
    method: M,
    rawParams: unknown,
    id: RequestId,
    cancellation: Cancellation,
  ): Promise<ResultOf<M>> {
    const parsed = paramsSchemaOf(method).safeParse(rawParams);
    if (!parsed.success) {
      const issues = parsed.error.issues.slice(0, 10).map((issue) => ({
        path: issue.path.map(String).join('.'),
        message: issue.message,
      }));
      throw new HostError(
        'invalid-params',
        `Invalid params for '${method}': ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`,
        { issues },
      );
    }
    const handler: Handler<M> = this.options.handlers[method];
    return handler(parsed.data, {
      id,
      cancellation,
      notify: (notification, params) => {
        this.reply({ jsonrpc: '2.0', method: notification, params });
      },
    });
  }

  private async sendResult(id: RequestId, result: unknown): Promise<void> {
    try {
      await this.options.send({ jsonrpc: '2.0', id, result });
    } catch (error) {
      // The encoder refuses a frame over the browser's limit without writing it: fail this one
      // response with a typed error instead of dropping the port (design section 4).
      const message = messageOf(error);
      const tooLarge = error instanceof FrameTooLargeError;
      this.reply(
        failure(
          id,
          tooLarge ? JsonRpcErrorCode.HostError : JsonRpcErrorCode.InternalError,
          `The result could not be sent: ${message}`,
          tooLarge ? 'result-too-large' : 'internal',
        ),
      );
    }
  }

  private reply(
    message: JsonRpcFailure | { jsonrpc: '2.0'; method: string; params: unknown },
  ): void {
    this.options.send(message).catch((error: unknown) => {
      if ('error' in message) {
        // An error reply that cannot be framed (a huge detail) still gets a minimal answer, so
        // the caller never waits forever.
        this.options
          .send(
            failure(
              message.id,
              message.error.code,
              capText(message.error.message, MAX_ERROR_MESSAGE_CHARS).text,
              HostErrorDataSchema.safeParse(message.error.data).data?.reason ?? 'internal',
            ),
          )
          .catch(() => undefined);
      }
      this.options.log('error', `Could not send a message: ${messageOf(error)}`);
    });
  }
}

/** Error messages quote servers and users; a cap keeps every error reply well inside a frame. */
const MAX_ERROR_MESSAGE_CHARS = 8_000;

function failure(
  id: RequestId | null,
  code: number,
  message: string,
  reason: ErrorReason,
  details: Readonly<Record<string, unknown>> = {},
): JsonRpcFailure {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code,
      message: capText(message, MAX_ERROR_MESSAGE_CHARS).text,
      data: { ...details, reason },
    },
  };
}

function toFailure(id: RequestId, error: unknown): JsonRpcFailure {
  if (error instanceof HostError) {
    const code =
      error.reason === 'invalid-params'
        ? JsonRpcErrorCode.InvalidParams
        : JsonRpcErrorCode.HostError;
    return failure(id, code, error.message, error.reason, error.details);
  }
  if (error instanceof FileLockTimeoutError) {
    return failure(id, JsonRpcErrorCode.HostError, error.message, 'busy', { file: error.lockFile });
  }
  const message = messageOf(error);
  return failure(id, JsonRpcErrorCode.InternalError, `Internal host error: ${message}`, 'internal');
}
