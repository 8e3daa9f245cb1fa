/**
 * Lets everything already queued run: promise callbacks and zero-delay timers (a fake port's
 * answers, a client's handshake). For tests on both sides.
 */
export const flush = (): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, 0);
  });
