import type { ParamsOf, ResultOf } from '../../protocol/methods';
import {
  UI_PORT_NAME,
  type PageEvent,
  type PageMethod,
  type PageParamsOf,
  type PageRequestMessage,
  type PageResultOf,
  type WorkerMessage,
} from './ui-protocol';
import type { PageHostMethod } from './page-host-methods';

/**
 * A page's end of the UI port (ui-protocol.ts): requests with ids, pushed events, and a new port
 * when the old one drops (the worker restarted), after which listeners hear `reconnected` and
 * should ask for a fresh snapshot.
 */

/** The part of `runtime.Port` this client uses. */
export interface PagePort {
  postMessage(message: PageRequestMessage): void;
  disconnect(): void;
  readonly onMessage: { addListener(listener: (message: unknown) => void): void };
  readonly onDisconnect: { addListener(listener: () => void): void };
}

export class PageRequestError extends Error {
  constructor(
    readonly method: string,
    message: string,
    readonly reason: string | undefined,
  ) {
    super(message);
    this.name = 'PageRequestError';
  }
}

const RECONNECT_DELAY_MS = 250;

interface Waiting {
  readonly method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class PageClient {
  private port: PagePort | undefined;
  private nextId = 0;
  private closed = false;
  private readonly waiting = new Map<number, Waiting>();
  private readonly eventListeners = new Set<(event: PageEvent) => void>();
  private readonly reconnectListeners = new Set<() => void>();

  constructor(
    private readonly connectPort: () => PagePort,
    private readonly schedule: (callback: () => void, ms: number) => void = (callback, ms) => {
      setTimeout(callback, ms);
    },
  ) {
    this.open();
  }

  request<M extends PageMethod>(method: M, params: PageParamsOf<M>): Promise<PageResultOf<M>> {
    const port = this.port;
    if (port === undefined) {
      return Promise.reject(
        new PageRequestError(method, 'Switchyard is restarting; try again.', undefined),
      );
    }
    const id = this.nextId++;
    return new Promise<PageResultOf<M>>((resolve, reject) => {
      this.waiting.set(id, {
        method,
        // The worker answers `method` with PageResultOf<method> (ui-protocol.ts).
        resolve: (value) => {
          resolve(value as PageResultOf<M>);
        },
        reject,
      });
      try {
        port.postMessage({ kind: 'request', id, method, params });
      } catch (error) {
        this.waiting.delete(id);
        reject(
          new PageRequestError(
            method,
            `Switchyard did not take the request: ${String(error)}`,
            undefined,
          ),
        );
      }
    });
  }

  /** A host method through the worker, typed by the protocol's method table. */
  host<M extends PageHostMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    // The worker validated the host's answer against ResultOf<M> before relaying it.
    return this.request('host/request', { method, params }) as Promise<ResultOf<M>>;
  }

  onEvent(listener: (event: PageEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Called after the port dropped and a new one opened: re-read the snapshot. */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    this.port?.disconnect();
    this.port = undefined;
    this.failAll('The page closed.');
  }

  private open(): void {
    const port = this.connectPort();
    this.port = port;
    port.onMessage.addListener((message) => {
      this.receive(message);
    });
    port.onDisconnect.addListener(() => {
      if (this.port !== port) return;
      this.port = undefined;
      this.failAll('Switchyard restarted while this request ran; try again.');
      if (this.closed) return;
      this.schedule(() => {
        if (this.closed) return;
        this.open();
        for (const listener of [...this.reconnectListeners]) listener();
      }, RECONNECT_DELAY_MS);
    });
  }

  private receive(raw: unknown): void {
    if (typeof raw !== 'object' || raw === null || !('kind' in raw)) return;
    // Messages come from this extension's own worker (the port cannot be opened from outside).
    const message = raw as WorkerMessage;
    if (message.kind === 'event') {
      for (const listener of [...this.eventListeners]) listener(message.event);
      return;
    }
    const waiting = this.waiting.get(message.id);
    if (waiting === undefined) return;
    this.waiting.delete(message.id);
    if (message.ok) waiting.resolve(message.result);
    else waiting.reject(new PageRequestError(waiting.method, message.error, message.reason));
  }

  private failAll(message: string): void {
    for (const [id, waiting] of this.waiting) {
      this.waiting.delete(id);
      waiting.reject(new PageRequestError(waiting.method, message, undefined));
    }
  }
}

/** The production client: a port named UI_PORT_NAME to this extension's worker. */
export function connectPageClient(runtime: {
  connect(info: { name: string }): PagePort;
}): PageClient {
  return new PageClient(() => runtime.connect({ name: UI_PORT_NAME }));
}
