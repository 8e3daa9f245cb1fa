import type { Clock } from '../clock';

interface Timer {
  readonly id: number;
  readonly due: number;
  readonly callback: () => void;
}

/** A Clock for tests: time moves only when `advance` is called; due timers run in order. */
export class FakeClock implements Clock {
  private time: number;
  private nextId = 0;
  private timers: Timer[] = [];

  constructor(start = 1_000_000) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimer(callback: () => void, delayMs: number): () => void {
    const timer: Timer = { id: this.nextId++, due: this.time + delayMs, callback };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t.id !== timer.id);
    };
  }

  /** Delays (from now) of the timers still pending, soonest first. */
  pendingDelays(): number[] {
    return this.timers.map((t) => t.due - this.time).sort((a, b) => a - b);
  }

  /** Moves time forward by `ms`, running every timer that falls due, in due order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const next = [...this.timers].sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (next === undefined || next.due > end) break;
      this.timers = this.timers.filter((t) => t.id !== next.id);
      this.time = next.due;
      next.callback();
    }
    this.time = end;
  }
}
