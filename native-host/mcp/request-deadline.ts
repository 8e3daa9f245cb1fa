import type {
  Client,
  PriorDiscovery,
  ProgressCallback,
  Transport,
} from '@modelcontextprotocol/client';
import type { z } from 'zod';
import { untrustedMessage } from './runtime-errors';
import type { CallOptions } from './runtime-types';
import type { Cancellation } from '../shared/cancellation';
import { stageClock } from '../shared/stage-clock';

/** Largest delay a Node timer honours; passed to the SDK so only the host's own timers fire. */
export const SDK_TIMEOUT_DISABLED_MS = 2 ** 31 - 1;

/**
 * One request's abort signal (what the SDK takes): fires when the caller cancels or when the host's
 * own timer runs out. `extend()` restarts the wait (progress from the server), never past
 * `maxTotalMs` from the start. `dispose()` must run when the request settles: it clears the timer
 * and detaches from the caller's cancellation. One signal of its own per request, aborted from the
 * caller's `Cancellation` (decision 0035), not `AbortSignal.any` over two: on Node 20 a composite
 * signal that ever had a listener is never collected, about 9.5 KiB leaked per call when the
 * benchmark measured it (with an SDK that did not remove its listener; v2 does, in `finally`).
 */
export class RequestDeadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout;
  private readonly startedAt = Date.now();
  private expired = false;
  private readonly detach: (() => void) | undefined;

  constructor(
    private readonly timeoutMs: number,
    private readonly maxTotalMs: number,
    caller?: Cancellation,
    /** While true, a timer that runs out starts again instead of ending the request. */
    private readonly holdWhile?: () => boolean,
  ) {
    this.timer = this.arm(timeoutMs);
    this.detach = caller?.onCancel(() => {
      this.controller.abort(caller.reason);
    });
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
    this.detach?.();
  }

  private arm(ms: number): NodeJS.Timeout {
    const timer = setTimeout(() => {
      if (this.holdWhile?.() === true) {
        this.timer = this.arm(this.timeoutMs);
        return;
      }
      this.expired = true;
      this.controller.abort(new Error('timeout'));
    }, ms);
    timer.unref();
    return timer;
  }
}

/** How a handshake ended; `timedOut` says whether the host's timer, not the server, ended it. */
export type HandshakeOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly error: unknown; readonly timedOut: boolean };

/**
 * Connects `client` over `transport` within `timeoutMs`: the `server/discover` probe (unless
 * `prior` says how the server speaks) and the `initialize` handshake where the server is a 2025-era
 * one. The SDK does not pass the signal to its probe, so the deadline is also raced here: a
 * handshake the timer ended returns at once, and the caller closes the transport (which ends the
 * probe).
 */
export async function connectWithDeadline(
  client: Client,
  transport: Transport,
  timeoutMs: number,
  prior?: PriorDiscovery,
): Promise<HandshakeOutcome> {
  const deadline = new RequestDeadline(timeoutMs, timeoutMs);
  const expired = new Promise<void>((resolve) => {
    deadline.signal.addEventListener('abort', () => {
      resolve();
    });
  });
  const connected = client.connect(transport, {
    signal: deadline.signal,
    timeout: SDK_TIMEOUT_DISABLED_MS,
    ...(prior === undefined ? {} : { prior }),
  });
  try {
    await Promise.race([connected, expired]);
    if (deadline.timedOut) {
      // Settles once the caller closes the transport; nobody waits for it any more.
      connected.catch(() => undefined);
      return { ok: false, error: new Error('timeout'), timedOut: true };
    }
    return { ok: true };
  } catch (error) {
    return { ok: false, error, timedOut: deadline.timedOut };
  } finally {
    deadline.dispose();
  }
}

/**
 * Sends one request to a server under the host's own timer, not the SDK's: a server can answer
 * with error code -32001 itself, and that must not read as a timeout. The wait is `timeoutMs`,
 * restarted by each progress notification, never more than ten times that in all, and held while
 * `options.holdWhile` says so. Aborting (the caller's signal or the timer) also sends the server
 * `notifications/cancelled`, so it can stop the work. Rejects with what `failure` makes of the
 * error, told whether the host's timer ended the request.
 */
export async function requestWithDeadline<T extends Record<string, unknown>>(
  client: Client,
  request: { readonly method: string; readonly params: Record<string, unknown> },
  schema: z.ZodType<T>,
  timeoutMs: number,
  options: CallOptions,
  failure: (error: unknown, timedOut: boolean) => Error,
): Promise<T> {
  stageClock?.enter('forward');
  const deadline = new RequestDeadline(
    timeoutMs,
    timeoutMs * 10,
    options.cancellation,
    options.holdWhile,
  );
  let answer: Promise<T>;
  try {
    answer = client.request({ method: request.method, params: { ...request.params } }, schema, {
      signal: deadline.signal,
      timeout: SDK_TIMEOUT_DISABLED_MS,
      onprogress: relayProgress(deadline, options.onprogress),
    });
  } catch (error) {
    answer = Promise.reject(error instanceof Error ? error : new Error(String(error)));
  } finally {
    stageClock?.leave();
  }
  try {
    return await answer;
  } catch (error) {
    throw failure(error, deadline.timedOut);
  } finally {
    stageClock?.enter('response');
    deadline.dispose();
    stageClock?.leave();
  }
}

/**
 * The SDK `onprogress` for one call: each notification extends the deadline, and reaches the
 * caller with only the fields the protocol defines (the message is a stranger's text).
 */
function relayProgress(
  deadline: RequestDeadline,
  onprogress: CallOptions['onprogress'],
): ProgressCallback {
  return (progress) => {
    deadline.extend();
    onprogress?.({
      progress: progress.progress,
      ...(progress.total === undefined ? {} : { total: progress.total }),
      ...(progress.message === undefined ? {} : { message: untrustedMessage(progress.message) }),
    });
  };
}
