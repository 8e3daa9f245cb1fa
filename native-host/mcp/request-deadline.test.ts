import { describe, expect, it } from 'vitest';
import { Cancellation } from '../shared/cancellation';
import { RequestDeadline } from './request-deadline';

// The dangerous direction: a cancel that does not reach the server (it goes on working for a user
// who pressed Stop), or a settled request that a later cancel still touches.

describe('RequestDeadline with a caller cancellation', () => {
  it('aborts the request signal with the caller reason', () => {
    const cancellation = new Cancellation();
    const deadline = new RequestDeadline(60_000, 60_000, cancellation);
    cancellation.cancel('user pressed stop');
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBe('user pressed stop');
    expect(deadline.timedOut).toBe(false);
    deadline.dispose();
  });

  it('starts aborted for a caller cancelled already', () => {
    const cancellation = new Cancellation();
    cancellation.cancel('shutdown');
    const deadline = new RequestDeadline(60_000, 60_000, cancellation);
    expect(deadline.signal.aborted).toBe(true);
    deadline.dispose();
  });

  it('detaches on dispose: a later cancel does not touch a settled request', () => {
    const cancellation = new Cancellation();
    const deadline = new RequestDeadline(60_000, 60_000, cancellation);
    deadline.dispose();
    cancellation.cancel('late');
    expect(deadline.signal.aborted).toBe(false);
  });
});
