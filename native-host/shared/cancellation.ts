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
  /** One entry per registration (so the same function added twice is two listeners); made on
   * the first `onCancel`: only requests relayed to a server register one (a tool call, a resource
   * read, a prompt), the host's own requests never do. */
  #listeners: Set<{ readonly run: () => void }> | undefined;

  get cancelled(): boolean {
    return this.#cancelled;
  }

  /** What `cancel` was given; undefined while not cancelled. */
  get reason(): unknown {
    return this.#reason;
  }

  /**
   * Runs `listener` once when the request is cancelled (at once if it already is). Returns the
   * function that removes it, which the caller runs once the request has settled; removed while
   * a cancel is running the listeners, it is skipped if it has not run yet, as with an
   * EventTarget.
   */
  onCancel(listener: () => void): () => void {
    if (this.#cancelled) {
      listener();
      return noop;
    }
    const entry = { run: listener };
    const listeners = (this.#listeners ??= new Set());
    listeners.add(entry);
    return () => {
      listeners.delete(entry);
    };
  }

  /**
   * Cancels the request: the first call counts, later ones do nothing. Every listener runs even
   * if one throws (a listener passes the cancellation on, to a server or a timer, and one that
   * failed must not keep the others from hearing it); what they threw is thrown afterwards, the
   * error itself for one, an AggregateError for several.
   */
  cancel(reason: unknown): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#reason = reason;
    const listeners = this.#listeners;
    if (listeners === undefined) return;
    const errors: unknown[] = [];
    // A Set visits what is still in it: a listener another one removed is skipped.
    for (const entry of listeners) {
      listeners.delete(entry);
      try {
        entry.run();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'cancel listeners failed');
  }
}

function noop(): void {
  // Nothing was registered: the listener ran at once.
}
