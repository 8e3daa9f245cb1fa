/**
 * Runs `task` again when asked, at most one run at a time: asks that arrive during a run cause
 * exactly one more run after it, however many there were. A server starting sends a burst of
 * `servers/changed` notifications; a page should list once or twice, not once per event.
 */
export function coalesce(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  /** Asks so far; a run that ends with a higher count than it started with runs again. */
  let asks = 0;
  const loop = async (): Promise<void> => {
    try {
      let seen: number;
      do {
        seen = asks;
        try {
          await task();
        } catch {
          // The task reports its own errors; a failed run must not stop the next one.
        }
      } while (asks !== seen);
    } finally {
      running = null;
    }
  };
  return () => {
    asks += 1;
    running ??= loop();
    return running;
  };
}
