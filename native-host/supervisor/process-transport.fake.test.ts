import { ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ProcessTransport, type KillFn, type ScheduleFn, type SpawnFn } from './process-transport';

// The lifecycle at the edges real processes cannot reach on demand (a process that never dies,
// signals that race): a fake child behind the real spawn seam, a manual clock, a fake kill.

const PID = 4242;
const GRACE_MS = 1000;
const MARGIN_MS = 250;

class FakeChild extends ChildProcess {
  override readonly stdout = new PassThrough();
  override readonly stderr = new PassThrough();
  override readonly stdio: ChildProcessWithoutNullStreams['stdio'];

  constructor(override readonly stdin: PassThrough = new PassThrough()) {
    super();
    this.stdio = [stdin, this.stdout, this.stderr, undefined, undefined];
  }

  override readonly pid = PID;
  readonly kills: (NodeJS.Signals | number | undefined)[] = [];

  override kill(signal?: NodeJS.Signals | number): boolean {
    this.kills.push(signal);
    return true;
  }

  /** The process exits and its stdio closes, as Node reports it. */
  die(code: number | null, signal: NodeJS.Signals | null): void {
    this.emit('exit', code, signal);
    this.stdout.end();
    this.stdout.resume();
  }
}

function manualClock() {
  let now = 0;
  let nextId = 0;
  const timers = new Map<number, { at: number; callback: () => void }>();
  const schedule: ScheduleFn = (callback, ms) => {
    const id = nextId++;
    timers.set(id, { at: now + ms, callback });
    return () => timers.delete(id);
  };
  const advance = (ms: number): void => {
    const end = now + ms;
    for (;;) {
      const due = [...timers.entries()]
        .filter(([, t]) => t.at <= end)
        .sort(([a, x], [b, y]) => x.at - y.at || a - b)[0];
      if (due === undefined) break;
      const [id, timer] = due;
      timers.delete(id);
      now = timer.at;
      timer.callback();
    }
    now = end;
  };
  return { schedule, advance };
}

/** A stdin that records what each write to the pipe carried: one entry per write(v). */
class RecordingStdin extends PassThrough {
  readonly writes: string[][] = [];

  override _write(chunk: unknown, _encoding: BufferEncoding, done: () => void): void {
    this.writes.push([String(chunk)]);
    done();
  }

  override _writev(chunks: Array<{ chunk: unknown }>, done: () => void): void {
    this.writes.push(chunks.map((c) => String(c.chunk)));
    done();
  }
}

function setup(child = new FakeChild()) {
  const spawn: SpawnFn = () => child;
  const signals: [number, NodeJS.Signals | 0][] = [];
  let groupAlive = true;
  const kill: KillFn = (pid, signal) => {
    signals.push([pid, signal]);
    if (!groupAlive) throw Object.assign(new Error('ESRCH'), { code: 'ESRCH' });
  };
  const clock = manualClock();
  const transport = new ProcessTransport({
    command: '/usr/bin/server',
    args: [],
    env: {},
    spawn,
    kill,
    schedule: clock.schedule,
    killGraceMs: GRACE_MS,
    exitMarginMs: MARGIN_MS,
    platform: 'linux',
  });
  const events: string[] = [];
  transport.onexit = (info) => events.push(`exit:${info.code ?? info.signal ?? ''}`);
  transport.onclose = () => events.push('close');
  const killGroup = (): void => {
    groupAlive = false;
  };
  return { child, transport, signals, clock, events, killGroup };
}

async function started(s: ReturnType<typeof setup>): Promise<void> {
  const start = s.transport.start();
  s.child.emit('spawn');
  await start;
}

/** Lets pending promise callbacks run. */
async function settle(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

describe('ProcessTransport lifecycle (fake child, manual clock)', () => {
  it('gives up at grace + margin when the process never exits, and closes once', async () => {
    const s = setup();
    await started(s);
    let closed = false;
    void s.transport.close().then(() => {
      closed = true;
    });
    expect(s.signals).toEqual([[-PID, 'SIGTERM']]);

    s.clock.advance(GRACE_MS - 1);
    await settle();
    expect(s.signals.filter(([, sig]) => sig === 'SIGKILL')).toEqual([]);

    s.clock.advance(1);
    expect(s.signals.filter(([, sig]) => sig === 'SIGKILL')).toEqual([[-PID, 'SIGKILL']]);
    await settle();
    expect(closed).toBe(false);

    s.clock.advance(MARGIN_MS);
    await settle();
    expect(closed).toBe(true);
    expect(s.events).toEqual(['close']);
    expect(s.transport.exitInfo).toBeUndefined();

    // A late exit is still reported, but the transport stays closed.
    s.child.die(null, 'SIGKILL');
    await settle();
    expect(s.events).toEqual(['close', 'exit:SIGKILL']);
  });

  it('closes as soon as the process has exited, the group is empty and stdout is closed', async () => {
    const s = setup();
    await started(s);
    const closing = s.transport.close();
    s.killGroup();
    s.child.die(null, 'SIGTERM');
    await closing;
    expect(s.events).toEqual(['exit:SIGTERM', 'close']);
    expect(s.signals.filter(([, sig]) => sig === 'SIGKILL')).toEqual([]);
  });

  it('waits for a grandchild still in the group before closing, then SIGKILLs it', async () => {
    const s = setup();
    await started(s);
    let closed = false;
    void s.transport.close().then(() => {
      closed = true;
    });
    s.child.die(null, 'SIGTERM'); // the leader went; the group did not
    s.clock.advance(GRACE_MS / 2);
    await settle();
    expect(closed).toBe(false);

    s.clock.advance(GRACE_MS / 2);
    expect(s.signals).toContainEqual([-PID, 'SIGKILL']);
    s.killGroup();
    s.clock.advance(25);
    await settle();
    expect(closed).toBe(true);
    expect(s.events).toEqual(['exit:SIGTERM', 'close']);
  });

  it('rejects pending and later sends once closed', async () => {
    const s = setup();
    await started(s);
    // Fill the pipe's buffer (nothing reads it) so a send waits for drain.
    const big = 'x'.repeat(64 * 1024);
    const pending = s.transport.send({ jsonrpc: '2.0', method: 'fill', params: { big } });
    const outcome = pending.then(
      () => 'sent',
      (error: unknown) => (error instanceof Error ? error.name : 'other'),
    );
    void s.transport.close();
    s.killGroup();
    s.child.die(3, null);
    await settle();
    expect(await outcome).toBe('TransportClosedError');
    await expect(s.transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow(
      /exited \(exit code 3\)/,
    );
  });

  it('sends the lines of one turn to the server in one write, in order', async () => {
    const stdin = new RecordingStdin();
    const s = setup(new FakeChild(stdin));
    await started(s);
    const message = (id: number) => ({ jsonrpc: '2.0' as const, id, method: 'tools/call' });
    await Promise.all(Array.from({ length: 50 }, (_, id) => s.transport.send(message(id))));
    await settle();
    const line = (id: number) => `${JSON.stringify(message(id))}\n`;
    expect(stdin.writes).toEqual([Array.from({ length: 50 }, (_, id) => line(id))]);
    // The next turn is a write of its own.
    await s.transport.send(message(50));
    await settle();
    expect(stdin.writes.map((w) => w.length)).toEqual([50, 1]);
    expect(stdin.writes[1]).toEqual([line(50)]);
  });

  it('uses no group signals and no taskkill on win32 when stdin EOF suffices', async () => {
    const child = new FakeChild();
    const signals: unknown[] = [];
    const trees: number[] = [];
    const transport = new ProcessTransport({
      command: 'C:\\server.exe',
      args: [],
      env: {},
      spawn: () => child,
      kill: (pid, signal) => signals.push([pid, signal]),
      killTree: (pid) => trees.push(pid),
      platform: 'win32',
    });
    const start = transport.start();
    child.emit('spawn');
    await start;
    const closing = transport.close();
    expect(child.stdin.writableEnded).toBe(true);
    child.die(0, null);
    await closing;
    expect(signals).toEqual([]);
    expect(trees).toEqual([]);
  });
});
