import type { ModelProvider, ProviderEvent, ProviderRequest } from './provider';

/**
 * A model played from a script, behind the real ModelProvider seam (style habit 8), for unit
 * tests and CI. Each `stream` call plays the next turn. A turn may check what it was sent
 * (`expect`), and its steps may, besides provider events, wait for a test-controlled promise,
 * hang until the run is aborted, or throw.
 */

export type ScriptStep =
  | ProviderEvent
  /** Waits until `until` settles (lets a test act mid-stream). */
  | { readonly type: 'wait'; readonly until: Promise<unknown> }
  /** Never yields again; ends only when the request's signal aborts (as a stuck HTTP stream). */
  | { readonly type: 'hang' }
  /** The stream throws, as an SDK does on a network failure. */
  | { readonly type: 'throw'; readonly error: Error };

export interface ScriptedTurn {
  /** Called with the request before anything is streamed; throw (e.g. a failed `expect`) to fail. */
  readonly expect?: (request: ProviderRequest) => void;
  readonly steps: readonly ScriptStep[];
}

/** Shorthand for a turn that answers with text and stops. */
export function textTurn(
  text: string,
  expectRequest?: (request: ProviderRequest) => void,
): ScriptedTurn {
  return {
    ...(expectRequest === undefined ? {} : { expect: expectRequest }),
    steps: [
      { type: 'text-delta', text },
      { type: 'finish', reason: 'stop', usage: { inputTokens: 10, outputTokens: 5 } },
    ],
  };
}

/** Shorthand for a turn that calls tools. */
export function toolTurn(
  calls: readonly { readonly id: string; readonly name: string; readonly arguments: unknown }[],
  expectRequest?: (request: ProviderRequest) => void,
): ScriptedTurn {
  return {
    ...(expectRequest === undefined ? {} : { expect: expectRequest }),
    steps: [
      ...calls.map((call): ProviderEvent => ({ type: 'tool-call', ...call })),
      { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 10, outputTokens: 5 } },
    ],
  };
}

function abortError(): Error {
  const error = new Error('The operation was aborted.');
  error.name = 'AbortError';
  return error;
}

function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(abortError());
    signal.addEventListener(
      'abort',
      () => {
        reject(abortError());
      },
      { once: true },
    );
  });
}

export class ScriptedProvider implements ModelProvider {
  /** Every request received, in order: a snapshot of what the model was sent. */
  readonly requests: ProviderRequest[] = [];
  private next = 0;

  constructor(private readonly turns: readonly ScriptedTurn[]) {}

  /** Turns not played yet. */
  get remaining(): number {
    return this.turns.length - this.next;
  }

  async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
    // Snapshot: the loop keeps appending to its own arrays after the call.
    this.requests.push({ ...request, messages: structuredClone([...request.messages]) });
    const turn = this.turns[this.next];
    this.next += 1;
    if (turn === undefined) {
      throw new Error(`ScriptedProvider: no turn left for request ${this.next}`);
    }
    turn.expect?.(request);
    for (const step of turn.steps) {
      if (request.signal.aborted) throw abortError();
      switch (step.type) {
        case 'wait':
          await Promise.race([step.until, untilAborted(request.signal)]);
          break;
        case 'hang':
          await untilAborted(request.signal);
          break;
        case 'throw':
          throw step.error;
        case 'text-delta':
        case 'tool-call':
        case 'finish':
        case 'error':
          yield step;
          break;
      }
    }
  }
}
