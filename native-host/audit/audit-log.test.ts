import { promises as fsPromises, existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditLog, type AuditLogOptions, type Schedule } from './audit-log';

const fixedNow = () => new Date('2026-11-29T12:00:00.000Z');

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'sy-audit-')), 'audit.jsonl');
}

function readEntries(file: string): Array<Record<string, unknown>> {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A timer the test fires by hand: `fire()` runs what is due, as the delay passing would. */
function manualSchedule(): { schedule: Schedule; pending: () => number; fire: () => void } {
  const timers = new Set<() => void>();
  return {
    schedule: (fn) => {
      timers.add(fn);
      return () => timers.delete(fn);
    },
    pending: () => timers.size,
    fire: () => {
      const due = [...timers];
      timers.clear();
      for (const fn of due) fn();
    },
  };
}

/** The deferral the log builds entries on, run by hand. */
function manualDefer(): { defer: (fn: () => void) => void; run: () => void } {
  const queue: Array<() => void> = [];
  return {
    defer: (fn) => queue.push(fn),
    run: () => {
      for (const fn of queue.splice(0)) fn();
    },
  };
}

/**
 * The real file system, with every call that starts a write recorded (synchronously, so "nothing
 * started" is observable at once) and, when `gate` is set, appends held until it opens.
 */
function recordingFs(gate?: { wait: Promise<void> }): {
  fs: NonNullable<AuditLogOptions['fs']>;
  calls: string[];
  appends: string[];
  /** Resolves once `n` appends have been made. */
  appended: (n: number) => Promise<void>;
} {
  const calls: string[] = [];
  const appends: string[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const appendFile = async (...args: Parameters<typeof fsPromises.appendFile>): Promise<void> => {
    appends.push(String(args[1]));
    for (const w of waiters.filter((w) => appends.length >= w.n)) w.resolve();
    if (gate) await gate.wait;
    return fsPromises.appendFile(...args);
  };
  // Every operation is recorded when the log reaches for it, before it runs.
  const fs = new Proxy(fsPromises, {
    get(target, property, receiver): unknown {
      if (typeof property === 'string') calls.push(property);
      return property === 'appendFile' ? appendFile : Reflect.get(target, property, receiver);
    },
  });
  return {
    fs,
    calls,
    appends,
    appended: (n) =>
      appends.length >= n
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ n, resolve })),
  };
}

describe('AuditLog', () => {
  it('appends one JSON line per entry, user-readable only', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sy-audit-')), 'nested', 'audit.jsonl');
    const log = new AuditLog({ file, now: fixedNow });
    log.append({ event: 'call', server: 's', tool: 't', outcome: 'ok', argumentsBytes: 2 });
    log.append({ event: 'call', server: 's', tool: 'u', outcome: 'timeout' });
    await log.flush();
    expect(readEntries(file)).toEqual([
      {
        ts: '2026-11-29T12:00:00.000Z',
        event: 'call',
        server: 's',
        tool: 't',
        outcome: 'ok',
        argumentsBytes: 2,
      },
      { ts: '2026-11-29T12:00:00.000Z', event: 'call', server: 's', tool: 'u', outcome: 'timeout' },
    ]);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('says on every line who decided and which client the recording process served', async () => {
    const file = tempFile();
    const log = new AuditLog({ file, now: fixedNow, via: 'cli' });
    log.append({ event: 'call', tool: 't', decision: 'allow', rule: 'files__*' });
    log.append({ event: 'call', tool: 't', decision: 'approved' });
    log.append({ event: 'call', tool: 't', decision: 'refused' });
    log.append({ event: 'trust', server: 's', decision: 'revoked' });
    log.append({ event: 'launch', server: 's', decision: 'ask' });
    await log.flush();
    expect(readEntries(file).map((e) => [e['decision'], e['by'], e['via']])).toEqual([
      ['allow', 'policy', 'cli'],
      ['approved', 'user', 'cli'],
      ['refused', 'host', 'cli'],
      ['revoked', 'user', 'cli'],
      ['ask', 'host', 'cli'],
    ]);
  });

  it('rotates to one previous generation at the size cap, inside a batch too', async () => {
    const file = tempFile();
    const log = new AuditLog({ file, now: fixedNow, maxBytes: 300 });
    for (let i = 0; i < 10; i += 1) log.append({ event: 'call', tool: `tool-${i}` });
    await log.flush();
    expect(statSync(file).size).toBeLessThanOrEqual(300);
    expect(readFileSync(`${file}.1`, 'utf8')).toContain('tool-');
    expect(readFileSync(file, 'utf8')).toContain('tool-9');
  });

  it('never throws when the disk fails, and reports the error', async () => {
    const errors: unknown[] = [];
    const log = new AuditLog({
      file: '/dev/null/cannot/audit.jsonl',
      onError: (e) => errors.push(e),
    });
    log.append({ event: 'call' });
    await log.flush();
    expect(errors.length).toBe(1);
  });

  it('writes a batch once the delay has passed, in one append', async () => {
    const file = tempFile();
    const timer = manualSchedule();
    const turn = manualDefer();
    const { fs, calls, appends } = recordingFs();
    const log = new AuditLog({ file, now: fixedNow, fs, schedule: timer.schedule, ...turn });
    for (let i = 0; i < 5; i += 1) log.append({ event: 'call', tool: `t${i}` });
    expect(timer.pending()).toBe(0);
    turn.run();
    expect(calls).toEqual([]);
    expect(existsSync(file)).toBe(false);
    expect(timer.pending()).toBe(1);

    timer.fire();
    await log.flush();
    expect(appends.length).toBe(1);
    expect(readEntries(file).map((e) => e['tool'])).toEqual(['t0', 't1', 't2', 't3', 't4']);
  });

  it('writes at once when the pending entries reach the batch size', async () => {
    const file = tempFile();
    const timer = manualSchedule();
    const turn = manualDefer();
    const { fs, calls, appends, appended } = recordingFs();
    const log = new AuditLog({ file, fs, schedule: timer.schedule, maxBatchBytes: 200, ...turn });
    log.append({ event: 'call', tool: 'first' });
    turn.run();
    expect(timer.pending()).toBe(1);
    expect(calls).toEqual([]);
    log.append({ event: 'call', tool: 'second-entry-that-fills-the-batch'.repeat(4) });
    turn.run();
    // The batch went to disk without the timer: cancelled, not left to fire later.
    expect(timer.pending()).toBe(0);
    expect(calls).toEqual(['mkdir']);
    await appended(1);
    await log.flush();
    expect(appends.length).toBe(1);
    expect(readEntries(file).map((e) => e['tool'])).toEqual([
      'first',
      'second-entry-that-fills-the-batch'.repeat(4),
    ]);
  });

  it('flush writes everything, also entries appended while a batch is being written', async () => {
    const file = tempFile();
    const timer = manualSchedule();
    const turn = manualDefer();
    let open: () => void = () => undefined;
    const gate = { wait: new Promise<void>((resolve) => (open = resolve)) };
    const { fs, appends, appended } = recordingFs(gate);
    const log = new AuditLog({ file, fs, schedule: timer.schedule, ...turn });
    log.append({ event: 'call', tool: 'a' });
    const flushed = log.flush();
    await appended(1); // 'a' is being written, held by the gate
    log.append({ event: 'call', tool: 'b' });
    log.append({ event: 'call', tool: 'c' });
    turn.run();
    // The running write picks them up: no timer needed.
    expect(timer.pending()).toBe(0);
    open();
    await flushed;
    expect(readEntries(file).map((e) => e['tool'])).toEqual(['a', 'b', 'c']);
    expect(appends.length).toBe(2);
  });

  it('flush also writes what is appended while it is writing, before resolving', async () => {
    const file = tempFile();
    const never = { defer: () => undefined };
    let open: () => void = () => undefined;
    const gate = { wait: new Promise<void>((resolve) => (open = resolve)) };
    const { fs, appended } = recordingFs(gate);
    const log = new AuditLog({ file, fs, schedule: manualSchedule().schedule, ...never });
    log.append({ event: 'call', tool: 'first' });
    const flushed = log.flush();
    await appended(1);
    // Appended during the flush, and its turn never comes (the host is about to exit).
    log.append(() => ({ event: 'call', tool: 'late' }));
    open();
    await flushed;
    expect(readEntries(file).map((e) => e['tool'])).toEqual(['first', 'late']);
  });

  it('a failed batch is reported once and later entries are still written', async () => {
    const file = tempFile();
    const errors: unknown[] = [];
    let fail = true;
    const log = new AuditLog({
      file,
      onError: (e) => errors.push(e),
      fs: {
        ...fsPromises,
        appendFile: (...args: Parameters<typeof fsPromises.appendFile>) =>
          fail ? Promise.reject(new Error('disk full')) : fsPromises.appendFile(...args),
      },
    });
    log.append({ event: 'call', tool: 'lost-1' });
    log.append({ event: 'call', tool: 'lost-2' });
    await expect(log.flush()).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
    fail = false;
    log.append({ event: 'call', tool: 'kept' });
    await log.flush();
    expect(readEntries(file).map((e) => e['tool'])).toEqual(['kept']);
  });

  it('timestamps an entry when it is appended, not when it is written', async () => {
    const file = tempFile();
    const timer = manualSchedule();
    const turn = manualDefer();
    let now = new Date('2026-11-29T12:00:00.000Z');
    const log = new AuditLog({ file, now: () => now, schedule: timer.schedule, ...turn });
    log.append({ event: 'policy', decision: 'allow' });
    log.append(() => ({ event: 'call', tool: 'built-later' }));
    now = new Date('2026-11-29T13:00:00.000Z');
    turn.run();
    timer.fire();
    await log.flush();
    expect(readEntries(file).map((e) => e['ts'])).toEqual([
      '2026-11-29T12:00:00.000Z',
      '2026-11-29T12:00:00.000Z',
    ]);
  });

  it('builds an entry after the caller has returned, in append order', () => {
    const turn = manualDefer();
    const log = new AuditLog({ file: tempFile(), schedule: manualSchedule().schedule, ...turn });
    let built = 0;
    log.append({ event: 'launch', server: 'first' });
    log.append(() => {
      built += 1;
      return { event: 'call', tool: 'second' };
    });
    log.append({ event: 'trust', server: 'third' });
    expect(built).toBe(0);
    turn.run();
    expect(built).toBe(1);
  });

  it('flush builds and writes entries whose turn has not come yet', async () => {
    const file = tempFile();
    const never = { defer: () => undefined };
    const log = new AuditLog({ file, schedule: manualSchedule().schedule, ...never });
    log.append({ event: 'launch', server: 'first' });
    log.append(() => ({ event: 'call', tool: 'second' }));
    log.append({ event: 'trust', server: 'third' });
    await log.flush();
    expect(readEntries(file).map((e) => e['server'] ?? e['tool'])).toEqual([
      'first',
      'second',
      'third',
    ]);
  });

  it('a builder that throws costs its own entry, reported, and nothing else', async () => {
    const file = tempFile();
    const errors: unknown[] = [];
    const log = new AuditLog({ file, onError: (e) => errors.push(e) });
    log.append({ event: 'launch', server: 'before' });
    log.append(() => {
      throw new Error('cannot hash');
    });
    log.append({ event: 'launch', server: 'after' });
    await expect(log.flush()).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(readEntries(file).map((e) => e['server'])).toEqual(['before', 'after']);
  });
});
