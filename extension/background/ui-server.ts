import { z } from 'zod';
import { isOwnExtensionPage, type SenderInfo } from '../messaging/sender';
import {
  PageRequestMessageSchema,
  UI_PORT_NAME,
  isPageMethod,
  pageRequests,
  type PageEvent,
  type PageMethod,
  type PageParamsOf,
  type PageResultOf,
  type WorkerMessage,
} from '../messaging/ui-protocol';
import { RunInProgressError } from './agent-session';
import { ClientRequestError, HostRequestError } from './host-errors';

/**
 * The worker's end of the page ports (ui-protocol.ts): accepts a port only from this extension's
 * own pages, parses every request before a handler sees it, answers each request exactly once,
 * and pushes events to every open page. A handler that throws answers its request with the
 * error's message; nothing a page sends can throw out of here.
 */

export type PageHandlers = {
  [M in PageMethod]: (params: PageParamsOf<M>) => Promise<PageResultOf<M>>;
};

/** The part of `runtime.Port` the server uses. */
export interface WorkerPort {
  readonly name: string;
  readonly sender?: SenderInfo;
  postMessage(message: WorkerMessage): void;
  disconnect(): void;
  readonly onMessage: { addListener(listener: (message: unknown) => void): void };
  readonly onDisconnect: { addListener(listener: () => void): void };
}

export interface UiServerOptions {
  readonly extensionId: string;
  /** `chrome-extension://<id>` or `moz-extension://<uuid>`, no trailing slash. */
  readonly extensionOrigin: string;
  readonly handlers: PageHandlers;
  /** Called when a page connects (e.g. to refresh what it will ask for). */
  readonly onConnect?: () => void;
}

function describeError(error: unknown): { error: string; reason?: string } {
  if (error instanceof HostRequestError || error instanceof ClientRequestError) {
    return { error: error.message, reason: error.reason };
  }
  if (error instanceof RunInProgressError)
    return { error: error.message, reason: 'run-in-progress' };
  if (error instanceof z.ZodError) {
    return { error: `Invalid request: ${z.prettifyError(error)}`, reason: 'invalid-request' };
  }
  if (error instanceof Error) {
    // PageRequestRefused and other errors that name their reason keep it.
    const reason: unknown = 'reason' in error ? error.reason : undefined;
    return typeof reason === 'string' ? { error: error.message, reason } : { error: error.message };
  }
  return { error: String(error) };
}

export class UiServer {
  private readonly ports = new Set<WorkerPort>();

  constructor(private readonly options: UiServerOptions) {}

  get pageCount(): number {
    return this.ports.size;
  }

  /** How many open pages are at `path` of the extension (`/sidepanel.html`). */
  pagesAt(path: string): number {
    const url = `${this.options.extensionOrigin}${path}`;
    return [...this.ports].filter((port) => port.sender?.url?.split(/[?#]/)[0] === url).length;
  }

  /** Takes a newly connected port; false (and the port closed) when it is not one of ours. */
  accept(port: WorkerPort): boolean {
    const { extensionId, extensionOrigin } = this.options;
    if (
      port.name !== UI_PORT_NAME ||
      port.sender === undefined ||
      !isOwnExtensionPage(port.sender, extensionId, extensionOrigin)
    ) {
      console.warn('[switchyard] refused a port from', port.sender?.url ?? 'an unknown sender');
      port.disconnect();
      return false;
    }
    this.ports.add(port);
    port.onDisconnect.addListener(() => this.ports.delete(port));
    port.onMessage.addListener((message) => {
      void this.handle(port, message);
    });
    this.options.onConnect?.();
    return true;
  }

  broadcast(event: PageEvent): void {
    for (const port of [...this.ports]) this.post(port, { kind: 'event', event });
  }

  private async handle(port: WorkerPort, raw: unknown): Promise<void> {
    const message = PageRequestMessageSchema.safeParse(raw);
    if (!message.success) {
      console.warn('[switchyard] dropped a malformed page message');
      return;
    }
    const { id, method, params } = message.data;
    if (!isPageMethod(method)) {
      this.post(port, {
        kind: 'response',
        id,
        ok: false,
        error: `Unknown request '${method}'.`,
        reason: 'unknown-method',
      });
      return;
    }
    try {
      const result = await this.dispatch(method, params);
      this.post(port, { kind: 'response', id, ok: true, result });
    } catch (error) {
      this.post(port, { kind: 'response', id, ok: false, ...describeError(error) });
    }
  }

  private dispatch<M extends PageMethod>(method: M, raw: unknown): Promise<PageResultOf<M>> {
    // The table's `satisfies` ties each method to its schema; TypeScript cannot follow the key.
    const schema: z.ZodType = pageRequests[method].params;
    const handler = this.options.handlers[method] as (
      params: PageParamsOf<M>,
    ) => Promise<PageResultOf<M>>;
    return handler(schema.parse(raw) as PageParamsOf<M>);
  }

  private post(port: WorkerPort, message: WorkerMessage): void {
    if (!this.ports.has(port)) return;
    try {
      port.postMessage(message);
    } catch {
      // The page closed between our check and the post.
      this.ports.delete(port);
    }
  }
}
