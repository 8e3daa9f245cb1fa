import type { z } from 'zod';
import type { JsonRpcResponse, RequestId } from '../../protocol/jsonrpc';
import {
  requestMethods,
  type HostNotificationParams,
  type ParamsOf,
  type RequestMethod,
  type ResultOf,
} from '../../protocol/methods';
import type { Clock } from './clock';
import {
  ClientRequestError,
  hostRequestError,
  type ClientFailureReason,
  type RequestFailure,
} from './host-errors';
import { messageOf } from '../../protocol/guards';

/**
 * The requests in flight on one client, like the MCP SDK's `Protocol`: ids, per-request
 * deadlines, cancellation, and answers parsed with the method table's result schema. It does not
 * know about connections: `send` throws when there is no port, and the client decides when queued
 * requests go out and when everything fails.
 */

// The method table satisfies this mapped type, so indexing it with a type parameter yields that
// method's own result schema (TypeScript cannot correlate `requestMethods[M]` by itself).
const resultSchemas: {
  readonly [M in RequestMethod]: { readonly result: z.ZodType<ResultOf<M>> };
} = requestMethods;

export type ProgressParams = HostNotificationParams<'notifications/progress'>;

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
/** Diagnostics. Never given argument or result values (design D9): methods, ids, sizes only. */
export type Log = (level: LogLevel, message: string) => void;

export interface RequestOptions {
  /** Overrides the method's deadline. */
  readonly timeoutMs?: number;
  /** Aborting cancels the request (see `cancel`). */
  readonly signal?: AbortSignal;
  /** Progress of a `tools/call`; each notification also restarts the deadline. */
  readonly onProgress?: (progress: ProgressParams) => void;
}

export interface PendingRequest<M extends RequestMethod> {
  readonly id: number;
  readonly result: Promise<ResultOf<M>>;
}

interface Entry {
  readonly method: RequestMethod;
  readonly timeoutMs: number;
  readonly onProgress: ((progress: ProgressParams) => void) | undefined;
  readonly message: { jsonrpc: '2.0'; id: number; method: RequestMethod; params?: unknown };
  sent: boolean;
  stopTimer: () => void;
  detachSignal: () => void;
  resolve(result: unknown): void;
  reject(error: RequestFailure): void;
}

const noop = (): void => undefined;

function issuePaths(error: z.ZodError): string {
  return error.issues.map((issue) => issue.path.join('.') || '(root)').join(', ');
}

export class RequestTable {
  private nextId = 1;
  private readonly entries = new Map<number, Entry>();

  constructor(
    private readonly clock: Clock,
    /** Posts one message; throws when there is no open port. */
    private readonly send: (message: unknown) => void,
    private readonly log: Log,
  ) {}

  /** Registers a request without sending it; `transmit` sends it. Fails at once if `signal` is aborted. */
  create<M extends RequestMethod>(
    method: M,
    params: ParamsOf<M>,
    timeoutMs: number,
    options: RequestOptions,
  ): PendingRequest<M> {
    const id = this.nextId++;
    const schema = resultSchemas[method].result;
    const result = new Promise<ResultOf<M>>((resolve, reject) => {
      if (options.signal?.aborted === true) {
        reject(new ClientRequestError(method, 'cancelled', `${method} was cancelled.`));
        return;
      }
      const entry: Entry = {
        method,
        timeoutMs,
        onProgress: options.onProgress,
        message: { jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) },
        sent: false,
        stopTimer: noop,
        detachSignal: noop,
        resolve: (value) => {
          const parsed = schema.safeParse(value);
          if (parsed.success) {
            resolve(parsed.data);
            return;
          }
          const where = issuePaths(parsed.error);
          this.log('warn', `${method} #${id}: the answer does not match the protocol at ${where}`);
          reject(
            new ClientRequestError(
              method,
              'invalid-response',
              `The host's answer to ${method} does not match this extension's protocol (at ${where}). Update the host and the extension to the same release.`,
            ),
          );
        },
        reject,
      };
      this.entries.set(id, entry);
      entry.stopTimer = this.clock.setTimer(() => {
        this.expire(id);
      }, timeoutMs);
      const signal = options.signal;
      if (signal !== undefined) {
        const onAbort = (): void => {
          this.cancel(id);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        entry.detachSignal = () => {
          signal.removeEventListener('abort', onAbort);
        };
      }
    });
    return { id, result };
  }

  /** Sends a registered request; if the port is gone it fails with `not-connected` (it never left). */
  transmit(id: number): void {
    const entry = this.entries.get(id);
    if (entry === undefined || entry.sent) return;
    try {
      this.send(entry.message);
      entry.sent = true;
    } catch (error) {
      this.settle(id, entry);
      const why = messageOf(error);
      entry.reject(
        new ClientRequestError(
          entry.method,
          'not-connected',
          `Could not send ${entry.method}: ${why}`,
        ),
      );
    }
  }

  /** Sends every request that was waiting for the handshake, oldest first. */
  transmitQueued(): void {
    for (const [id, entry] of [...this.entries]) if (!entry.sent) this.transmit(id);
  }

  /**
   * Cancels a pending request: it fails at once with `cancelled`, and if it reached the host, the
   * host is sent `notifications/cancelled` (its late answer is ignored). False if not pending.
   */
  cancel(id: number, reason = 'Cancelled by the user.'): boolean {
    const entry = this.entries.get(id);
    if (entry === undefined) return false;
    this.settle(id, entry);
    if (entry.sent) this.notifyCancelled(id, reason);
    entry.reject(
      new ClientRequestError(entry.method, 'cancelled', `${entry.method} was cancelled.`),
    );
    return true;
  }

  /** Settles the request a response answers; false when none is pending under its id. */
  answer(response: JsonRpcResponse): boolean {
    const id = response.id;
    const entry = typeof id === 'number' ? this.entries.get(id) : undefined;
    if (typeof id !== 'number' || entry === undefined) return false;
    this.settle(id, entry);
    if ('error' in response) entry.reject(hostRequestError(entry.method, response.error));
    else entry.resolve(response.result);
    return true;
  }

  /** Progress restarts the request's deadline, as the host's own deadline is extended. */
  progress(progress: ProgressParams): void {
    const id = progress.requestId;
    if (typeof id !== 'number') return;
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    entry.stopTimer();
    entry.stopTimer = this.clock.setTimer(() => {
      this.expire(id);
    }, entry.timeoutMs);
    entry.onProgress?.(progress);
  }

  /**
   * Fails everything pending: requests that reached the host (they may have run) with `reason`,
   * requests that never left with `not-connected`.
   */
  failAll(reason: ClientFailureReason, message: string): void {
    for (const [id, entry] of [...this.entries]) {
      this.settle(id, entry);
      entry.reject(
        new ClientRequestError(entry.method, entry.sent ? reason : 'not-connected', message),
      );
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private settle(id: number, entry: Entry): void {
    this.entries.delete(id);
    entry.stopTimer();
    entry.detachSignal();
  }

  private expire(id: number): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    this.settle(id, entry);
    // The host may still be working on it: tell it to stop (answered `cancelled`, ignored here).
    if (entry.sent) this.notifyCancelled(id, 'The extension stopped waiting (timeout).');
    entry.reject(
      new ClientRequestError(
        entry.method,
        'timeout',
        `The Switchyard host did not answer ${entry.method} within ${entry.timeoutMs} ms.`,
      ),
    );
  }

  private notifyCancelled(requestId: RequestId, reason: string): void {
    try {
      this.send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId, reason },
      });
    } catch {
      // The port is gone: the host aborts everything when its stdin closes (design D12).
    }
  }
}
