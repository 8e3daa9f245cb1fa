import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  GroupRecorder,
  MAX_REAPED_KEPT,
  REAPED_FILE,
  reapDeadHosts,
  readReaped,
  type ReapedGroup,
} from './group-records';
import { processTable, type ProcessIdentity } from './process-identity';

// Real processes, checked with /proc: the dangerous error is killing a process that is not the
// recorded server (a pid reused by the user's editor), the other is leaving an orphan running.

const processes = processTable('linux');
let runDir: string;
let children: ChildProcess[] = [];

beforeEach(() => {
  runDir = mkdtempSync(path.join(tmpdir(), 'sy-run-'));
});
afterEach(() => {
  for (const child of children) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // gone
    }
    child.kill('SIGKILL');
  }
  children = [];
  rmSync(runDir, { recursive: true, force: true });
});

/** A process in a group of its own, running `script`. */
function startGroup(script: string, stdin: 'ignore' | 'pipe' = 'ignore'): ChildProcess {
  const child = spawn('/bin/sh', ['-c', script], {
    detached: true,
    stdio: [stdin, 'ignore', 'ignore'],
  });
  children.push(child);
  return child;
}

async function identity(pid: number | undefined): Promise<ProcessIdentity> {
  const found = await processes.identityOf(pid ?? -1);
  if (found === undefined) throw new Error(`no process ${String(pid)}`);
  return found;
}

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

function plant(
  hostPid: number,
  hostStart: string,
  groups: Array<{ pgid: number; start: string; startedAtMs: number; server: string }>,
): string {
  const file = path.join(runDir, `host-${hostPid}.json`);
  writeFileSync(
    file,
    JSON.stringify({ version: 1, host: { pid: hostPid, start: hostStart }, groups }),
  );
  return file;
}

/** Whether any process of group `pgid` is alive (zombies count as dead: PID 1 may not reap). */
async function groupAlive(pgid: number): Promise<boolean> {
  for (const member of await processes.membersOf(pgid)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${member.pid}/stat`, 'utf8');
    } catch {
      continue; // it was reaped between the listing and this read: dead
    }
    const state = stat.split(') ')[1]?.[0];
    if (state !== 'Z') return true;
  }
  return false;
}

const fast = { processes, graceMs: 200 };

describe.runIf(process.platform === 'linux')('pid records', () => {
  test('the recorder lists each live group with its leader start time, and removes its file on close', async () => {
    const server = startGroup('exec sleep 60');
    const leader = await identity(server.pid);
    const recorder = await GroupRecorder.open(runDir, { processes });
    expect(recorder).toBeDefined();
    recorder?.track(leader.pid, 'files');
    await recorder?.settled();
    const record: unknown = JSON.parse(
      readFileSync(path.join(runDir, `host-${process.pid}.json`), 'utf8'),
    );
    expect(record).toMatchObject({
      version: 1,
      host: { pid: process.pid },
      groups: [{ pgid: leader.pid, start: leader.start, server: 'files' }],
    });
    recorder?.untrack(leader.pid);
    await recorder?.settled();
    expect(JSON.parse(readFileSync(recorder?.file ?? '', 'utf8'))).toMatchObject({ groups: [] });
    await recorder?.close();
    expect(existsSync(recorder?.file ?? '')).toBe(false);
  });

  test('a group whose leader is gone before it is tracked is not recorded', async () => {
    const recorder = await GroupRecorder.open(runDir, { processes });
    recorder?.track(deadPid(), 'gone');
    await recorder?.settled();
    expect(existsSync(recorder?.file ?? '')).toBe(false);
  });

  test("a dead host's live server group is stopped, its record removed, and the reaping kept for doctor", async () => {
    const server = startGroup('exec sleep 60');
    const leader = await identity(server.pid);
    const record = plant(deadPid(), 'linux:1', [{ ...leader, pgid: leader.pid, server: 'files' }]);
    const reaped = await reapDeadHosts(runDir, fast);
    expect(reaped).toMatchObject([{ server: 'files', pgid: leader.pid, signal: 'SIGTERM' }]);
    expect(await groupAlive(leader.pid)).toBe(false);
    expect(existsSync(record)).toBe(false);
    expect(await readReaped(runDir)).toEqual(reaped);
  });

  test('a pid that was reused by another process since is never signalled', async () => {
    const unrelated = startGroup('exec sleep 60');
    const now = await identity(unrelated.pid);
    plant(deadPid(), 'linux:1', [
      { pgid: now.pid, start: 'linux:1', startedAtMs: now.startedAtMs, server: 'files' },
    ]);
    expect(await reapDeadHosts(runDir, fast)).toEqual([]);
    expect(await groupAlive(now.pid)).toBe(true);
    expect(existsSync(path.join(runDir, REAPED_FILE))).toBe(false);
  });

  test('a process that no longer leads the recorded group is never signalled', async () => {
    // Same pid and start time, but in this process's group: signalling -pid would miss or hit
    // the wrong group.
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    children.push(child);
    const now = await identity(child.pid);
    plant(deadPid(), 'linux:1', [{ ...now, pgid: now.pid, server: 'x' }]);
    expect(await reapDeadHosts(runDir, fast)).toEqual([]);
    expect(child.exitCode).toBeNull();
  });

  test('a live host keeps its record and its servers', async () => {
    const server = startGroup('exec sleep 60');
    const leader = await identity(server.pid);
    const host = await identity(process.ppid);
    const record = plant(host.pid, host.start, [{ ...leader, pgid: leader.pid, server: 'files' }]);
    expect(await reapDeadHosts(runDir, fast)).toEqual([]);
    expect(existsSync(record)).toBe(true);
    expect(await groupAlive(leader.pid)).toBe(true);
  });

  test('a group whose leader exited is reaped when its members started while the record was written', async () => {
    // `sh` (the leader) starts a sleep in its group, then exits when its stdin closes: what
    // `npx` or `sh -c` leave when they go and their child stays.
    const shell = startGroup('sleep 60 & read line', 'pipe');
    const leader = await identity(shell.pid);
    for (let i = 0; i < 100 && (await processes.membersOf(leader.pid)).length < 2; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    plant(deadPid(), 'linux:1', [{ ...leader, pgid: leader.pid, server: 'npx-server' }]);
    shell.stdin?.end();
    await new Promise((r) => shell.once('exit', r));
    expect(await processes.identityOf(leader.pid)).toBeUndefined();
    expect(await groupAlive(leader.pid)).toBe(true);

    const reaped = await reapDeadHosts(runDir, fast);
    expect(reaped).toMatchObject([{ server: 'npx-server', pgid: leader.pid }]);
    expect(await groupAlive(leader.pid)).toBe(false);
  });

  test('a leaderless group whose members started before the recorded leader is not ours', async () => {
    const shell = startGroup('sleep 60 & read line', 'pipe');
    const leader = await identity(shell.pid);
    for (let i = 0; i < 100 && (await processes.membersOf(leader.pid)).length < 2; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const later = leader.startedAtMs + 60_000;
    plant(deadPid(), 'linux:1', [{ ...leader, pgid: leader.pid, startedAtMs: later, server: 'x' }]);
    shell.stdin?.end();
    await new Promise((r) => shell.once('exit', r));
    expect(await reapDeadHosts(runDir, fast)).toEqual([]);
    expect(await groupAlive(leader.pid)).toBe(true);
  });

  test('a group that ignores SIGTERM is killed after the grace period', async () => {
    const server = startGroup('trap "" TERM; exec sleep 60');
    const leader = await identity(server.pid);
    plant(deadPid(), 'linux:1', [{ ...leader, pgid: leader.pid, server: 'stubborn' }]);
    const reaped = await reapDeadHosts(runDir, fast);
    expect(reaped).toMatchObject([{ server: 'stubborn', signal: 'SIGKILL' }]);
    expect(await groupAlive(leader.pid)).toBe(false);
  });

  test.each([
    { name: 'not JSON', text: '{"version":1,' },
    { name: 'a future version', text: '{"version":2,"host":{"pid":5,"start":"x"},"groups":[]}' },
    {
      name: 'a pid that would signal every process',
      text: '{"version":1,"host":{"pid":5,"start":"x"},"groups":[{"pgid":1,"start":"x","startedAtMs":0,"server":"a"}]}',
    },
  ])('a record that is $name is removed and names nothing', async ({ text }) => {
    const file = path.join(runDir, 'host-5.json');
    writeFileSync(file, text);
    expect(await reapDeadHosts(runDir, fast)).toEqual([]);
    expect(existsSync(file)).toBe(false);
  });

  test('files that are not host records, and this host’s own record, are left alone', async () => {
    writeFileSync(path.join(runDir, 'notes.txt'), 'x');
    writeFileSync(path.join(runDir, `host-${process.pid}.json`), 'x');
    expect(await reapDeadHosts(runDir, { ...fast })).toEqual([]);
    expect(existsSync(path.join(runDir, 'notes.txt'))).toBe(true);
    expect(existsSync(path.join(runDir, `host-${process.pid}.json`))).toBe(true);
  });

  test('a missing run folder reaps nothing', async () => {
    expect(await reapDeadHosts(path.join(runDir, 'none'), fast)).toEqual([]);
  });

  test(`reaped.json keeps the newest ${MAX_REAPED_KEPT}`, async () => {
    const old: ReapedGroup[] = Array.from({ length: MAX_REAPED_KEPT }, (_, i) => ({
      server: `old${i}`,
      pgid: 100 + i,
      hostPid: 99,
      at: '2026-01-01T00:00:00.000Z',
      signal: 'SIGTERM',
    }));
    writeFileSync(path.join(runDir, REAPED_FILE), JSON.stringify(old));
    const server = startGroup('exec sleep 60');
    const leader = await identity(server.pid);
    plant(deadPid(), 'linux:1', [{ ...leader, pgid: leader.pid, server: 'newest' }]);
    await reapDeadHosts(runDir, fast);
    const kept = await readReaped(runDir);
    expect(kept).toHaveLength(MAX_REAPED_KEPT);
    expect(kept.at(0)?.server).toBe('old1');
    expect(kept.at(-1)?.server).toBe('newest');
  });
});
