import { describe, expect, it } from 'vitest';
import { Cancellation } from './cancellation';

// The dangerous direction: a cancel that does not reach the request (the server goes on working
// for a user who pressed Stop), or a removed listener that still fires for a later request.

describe('Cancellation', () => {
  it('runs each listener once, with the first reason, and says so', () => {
    const cancellation = new Cancellation();
    const seen: unknown[] = [];
    cancellation.onCancel(() => seen.push(['a', cancellation.reason]));
    cancellation.onCancel(() => seen.push(['b', cancellation.reason]));
    expect(cancellation.cancelled).toBe(false);
    expect(cancellation.reason).toBeUndefined();
    cancellation.cancel('first');
    cancellation.cancel('second');
    expect(cancellation.cancelled).toBe(true);
    expect(cancellation.reason).toBe('first');
    expect(seen).toEqual([
      ['a', 'first'],
      ['b', 'first'],
    ]);
  });

  it('runs a listener added after the cancel at once', () => {
    const cancellation = new Cancellation();
    cancellation.cancel('gone');
    let ran = 0;
    const remove = cancellation.onCancel(() => (ran += 1));
    expect(ran).toBe(1);
    remove();
    cancellation.cancel('again');
    expect(ran).toBe(1);
  });

  it('never runs a removed listener, and keeps the others', () => {
    const cancellation = new Cancellation();
    const seen: string[] = [];
    const removeA = cancellation.onCancel(() => seen.push('a'));
    cancellation.onCancel(() => seen.push('b'));
    removeA();
    removeA();
    cancellation.cancel('x');
    expect(seen).toEqual(['b']);
  });

  it('runs every listener when one throws, then throws what it threw', () => {
    const cancellation = new Cancellation();
    const seen: string[] = [];
    cancellation.onCancel(() => {
      throw new Error('first broke');
    });
    cancellation.onCancel(() => seen.push('b'));
    expect(() => {
      cancellation.cancel('x');
    }).toThrow('first broke');
    expect(seen).toEqual(['b']);
    expect(cancellation.cancelled).toBe(true);
  });

  it('throws an AggregateError with every error when several listeners throw', () => {
    const cancellation = new Cancellation();
    cancellation.onCancel(() => {
      throw new Error('a');
    });
    cancellation.onCancel(() => {
      throw new Error('b');
    });
    let thrown: unknown;
    try {
      cancellation.cancel('x');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AggregateError);
    expect((thrown as AggregateError).errors.map((e: Error) => e.message)).toEqual(['a', 'b']);
  });

  it('skips a listener another listener removed during the cancel, as an EventTarget does', () => {
    const cancellation = new Cancellation();
    const seen: string[] = [];
    let removeB = (): void => undefined;
    cancellation.onCancel(() => {
      seen.push('a');
      removeB();
    });
    removeB = cancellation.onCancel(() => seen.push('b'));
    cancellation.onCancel(() => seen.push('c'));
    cancellation.cancel('x');
    expect(seen).toEqual(['a', 'c']);
  });

  it('counts the same function added twice as two listeners, each removed on its own', () => {
    const cancellation = new Cancellation();
    let ran = 0;
    const listener = () => (ran += 1);
    const removeFirst = cancellation.onCancel(listener);
    cancellation.onCancel(listener);
    removeFirst();
    cancellation.cancel('x');
    expect(ran).toBe(1);
  });
});
