/**
 * One request's cancellation, as the host's call path reads it: whether and why the request was
 * cancelled, and the functions to run when it is. It is what an AbortSignal offers the host
 * without making one per request: on Node 20 making a controller's signal and adding a listener
 * to it cost about 10 us, more than the rest of routing a `tools/call` (issue 15; decision 0035).
 * Code that needs an AbortSignal (the MCP SDK's requests) makes its own and aborts it from
 * `onCancel` (mcp/request-deadline.ts).
 */
export class Cancellation {
  #cancelled = false;
  #reason: unknown = undefined;
  #listeners: (() => void)[] = [];

  get cancelled(): boolean {
    return this.#cancelled;
  }

  /** What `cancel` was given; undefined while not cancelled. */
  get reason(): unknown {
    return this.#reason;
  }

  /**
   * Runs `listener` once when the request is cancelled (at once if it already is). Returns the
   * function that removes it, which the caller runs once the request has settled. A listener must
   * not throw: it is the host's own code, which only passes the cancellation on.
   */
  onCancel(listener: () => void): () => void {
    if (this.#cancelled) {
      listener();
      return noop;
    }
    this.#listeners.push(listener);
    return () => {
      const at = this.#listeners.indexOf(listener);
      if (at >= 0) this.#listeners.splice(at, 1);
    };
  }

  /** Cancels the request: the first call counts, later ones do nothing. */
  cancel(reason: unknown): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#reason = reason;
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener();
  }
}

function noop(): void {
  // Nothing was registered: the listener ran at once.
}
