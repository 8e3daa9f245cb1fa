import type { SenderInfo } from '../../messaging/sender';
import {
  UI_PORT_NAME,
  type PageEvent,
  type PageMethod,
  type WorkerMessage,
} from '../../messaging/ui-protocol';
import type { WorkerPort } from '../ui-server';

type Response = Extract<WorkerMessage, { kind: 'response' }>;

/**
 * A page's end of the UI port, in memory (style habit 8): the test plays a side panel, popup or
 * options page (or a content script posing as one) and reads what the worker posted to it.
 */
export class FakePagePort implements WorkerPort {
  readonly posted: WorkerMessage[] = [];
  disconnected = false;
  private nextId = 0;
  private readonly messageListeners: ((message: unknown) => void)[] = [];
  private readonly disconnectListeners: (() => void)[] = [];

  readonly onMessage = {
    addListener: (listener: (message: unknown) => void): void => {
      this.messageListeners.push(listener);
    },
  };

  readonly onDisconnect = {
    addListener: (listener: () => void): void => {
      this.disconnectListeners.push(listener);
    },
  };

  constructor(
    readonly sender: SenderInfo | undefined,
    readonly name = UI_PORT_NAME,
  ) {}

  postMessage(message: WorkerMessage): void {
    this.posted.push(message);
  }

  disconnect(): void {
    this.disconnected = true;
  }

  /** The page sends any message (well-formed or not). */
  send(message: unknown): void {
    for (const listener of this.messageListeners) listener(message);
  }

  /**
   * The page sends a request and waits (a few macrotasks at most) for the worker's answer.
   * Params are `unknown`: tests send malformed ones too.
   */
  async request(method: PageMethod, params: unknown = {}): Promise<Response> {
    const id = this.nextId++;
    this.send({ kind: 'request', id, method, params });
    for (let tick = 0; tick < 50; tick += 1) {
      const answer = this.responses().find((r) => r.id === id);
      if (answer !== undefined) return answer;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    throw new Error(`the worker did not answer ${method} (request ${id})`);
  }

  /** Like `request`, but throws unless the answer is a success; returns its result. */
  async call(method: PageMethod, params: unknown = {}): Promise<unknown> {
    const answer = await this.request(method, params);
    if (!answer.ok) throw new Error(`${method} failed: ${answer.error}`);
    return answer.result;
  }

  responses(): Response[] {
    return this.posted.filter((m): m is Response => m.kind === 'response');
  }

  events(): PageEvent[] {
    return this.posted.flatMap((m) => (m.kind === 'event' ? [m.event] : []));
  }

  /** The page closes (the browser drops the port). */
  close(): void {
    for (const listener of this.disconnectListeners) listener();
  }
}
