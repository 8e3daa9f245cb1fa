import type { McpSubscription, ServerCapabilities } from '@modelcontextprotocol/client';
import type { z } from 'zod';
import type { ServerState } from '../../protocol/servers';
import { messageOf } from '../../protocol/guards';
import type { CallToolResult } from '../../protocol/tools';
import { RawCallToolResultSchema, normalizeCallResult } from './call-result';
import type { Connection } from './connection';
import { requestWithDeadline } from './request-deadline';
import { callFailure, unavailableError } from './runtime-errors';
import type { CallOptions } from './runtime-types';
import { stageClock } from '../shared/stage-clock';

/** What the requests read of their runtime, at the moment they are sent. */
export interface RequestOwner {
  readonly name: string;
  /** Each request's wait (the server's `toolTimeout`). */
  readonly timeoutMs: number;
  /** The running connection, if the runtime is running. */
  connection(): Connection | undefined;
  state(): ServerState['state'];
  onLog(level: 'warning', message: string): void;
  /** The last request in flight settled: nothing the server asks now can belong to one. */
  onIdle?(): void;
}

/**
 * Requests on a runtime's current connection, apart from its state machine (server-runtime.ts):
 * tool calls, resources, prompts and completions (issue 12) under the host's own deadline, what
 * the server offers, and the questions it is asking the user (while one is open, the server's
 * requests do not time out: it is waiting on the user, not stuck).
 */
export class ConnectionRequests {
  private asking = 0;
  private inFlight = 0;
  /**
   * On 2026-07-28 a resource subscription is a `subscriptions/listen` stream of its own (one per
   * URI, so each can end alone), kept with the connection it was opened on: a reconnect starts
   * with none, as a 2025-era server forgets its `resources/subscribe` too.
   */
  private readonly listens = new Map<
    string,
    { readonly connection: Connection; readonly subscription: McpSubscription }
  >();

  constructor(private readonly owner: RequestOwner) {}

  /** What the running server offers (its `initialize` or `server/discover` answer), if running. */
  get capabilities(): ServerCapabilities | undefined {
    return this.running()?.client.getServerCapabilities();
  }

  /** The protocol era of the running connection (`modern`: 2026-07-28), if running. */
  get era(): 'modern' | 'legacy' | undefined {
    const connection = this.running();
    if (connection === undefined) return undefined;
    return connection.client.getProtocolEra() === 'modern' ? 'modern' : 'legacy';
  }

  /** Calls one tool by its raw name, its answer normalized (call-result.ts). */
  async callTool(
    tool: string,
    args: Record<string, unknown> | undefined,
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    const params = { name: tool, ...(args ? { arguments: args } : {}) };
    const raw = await this.request('tools/call', params, RawCallToolResultSchema, options);
    stageClock?.enter('response');
    try {
      return normalizeCallResult(raw);
    } finally {
      stageClock?.leave();
    }
  }

  /**
   * Sends one request. Throws HostError with a protocol reason on every failure. The answer is
   * validated by `schema` only; its strings are still the server's.
   */
  async request<T extends Record<string, unknown>>(
    method: string,
    params: Record<string, unknown>,
    schema: z.ZodType<T>,
    options: CallOptions = {},
  ): Promise<T> {
    const { owner } = this;
    const connection = this.running();
    if (connection === undefined) throw unavailableError(owner.name, owner.state());
    const held = { ...options, holdWhile: () => this.asking > 0 };
    this.inFlight += 1;
    try {
      return await this.send(connection, method, params, schema, held);
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0) owner.onIdle?.();
    }
  }

  private send<T extends Record<string, unknown>>(
    connection: Connection,
    method: string,
    params: Record<string, unknown>,
    schema: z.ZodType<T>,
    options: CallOptions,
  ): Promise<T> {
    const { owner } = this;
    const timeoutMs = owner.timeoutMs;
    return requestWithDeadline(
      connection.client,
      { method, params },
      schema,
      timeoutMs,
      options,
      (error, timedOut) =>
        callFailure(error, {
          ...{ server: owner.name, timedOut, timeoutMs, process: connection.process },
          cancelled: options.cancellation?.cancelled === true,
          disconnected: owner.connection() !== connection,
        }),
    );
  }

  /**
   * Subscribes to updates of `uri` on a 2026-07-28 connection: opens its listen stream (resolves
   * once the server acknowledged it) unless one is open on this connection. Throws HostError.
   */
  async listenToResource(uri: string): Promise<void> {
    const { owner } = this;
    const connection = this.running();
    if (connection === undefined) throw unavailableError(owner.name, owner.state());
    if (this.listens.get(uri)?.connection === connection) return;
    try {
      const subscription = await connection.client.listen(
        { resourceSubscriptions: [uri] },
        { timeout: owner.timeoutMs },
      );
      this.listens.set(uri, { connection, subscription });
      void subscription.closed.then(() => {
        if (this.listens.get(uri)?.subscription === subscription) this.listens.delete(uri);
      });
    } catch (error) {
      throw callFailure(error, {
        ...{ server: owner.name, timedOut: false, timeoutMs: owner.timeoutMs },
        ...{ process: connection.process, cancelled: false },
        disconnected: owner.connection() !== connection,
      });
    }
  }

  /** Ends the listen stream for `uri`, if one is open; true when there was one. */
  async stopListening(uri: string): Promise<boolean> {
    const open = this.listens.get(uri);
    if (open === undefined) return false;
    this.listens.delete(uri);
    await open.subscription.close();
    return true;
  }

  /** Runs `ask` (a question to the user) with this server's request timers held meanwhile. */
  async whileAsking<T>(ask: () => Promise<T>): Promise<T> {
    this.asking += 1;
    try {
      return await ask();
    } finally {
      this.asking -= 1;
    }
  }

  /** Tells the running server its roots changed (`notifications/roots/list_changed`). */
  rootsChanged(): void {
    const connection = this.owner.connection();
    if (connection === undefined) return;
    // Roots are deprecated by the 2026-07-28 revision (SEP-2577) but still part of 2025-11-25,
    // which every server speaks today (design D3); a 2026 server asks for them per request.
    if (connection.client.getProtocolEra() === 'modern') return;
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    connection.client.sendRootsListChanged().catch((error: unknown) => {
      this.owner.onLog('warning', `could not announce new roots: ${messageOf(error)}`);
    });
  }

  private running(): Connection | undefined {
    return this.owner.state() === 'running' ? this.owner.connection() : undefined;
  }
}
