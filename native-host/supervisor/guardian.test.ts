import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { GUARDIAN_NAME, startGuardian, type Guardian } from './guardian';

// Real processes: a process group whose members ignore SIGTERM, the real /bin/sh guardian, and
// `kill(-pgid, 0)` to see whether the group still has a live member. The dangerous direction is a
// group that outlives its host; killing a group the host had let go is the other one.

function victimGroup(): ChildProcess {
  // A leader and a member, both ignoring SIGTERM: only the SIGKILL pass can end them.
  return spawn('sh', ['-c', "trap '' TERM; sleep 300 & sleep 300; wait"], {
    detached: true,
    stdio: 'ignore',
  });
}

/** Whether the group has a live (not zombie) member, by `ps`. */
function groupAlive(pgid: number): boolean {
  const out = execFileSync('ps', ['-eo', 'pgid=,stat='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .some(([group, stat]) => Number(group) === pgid && stat !== undefined && !stat.startsWith('Z'));
}

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

function started(): Guardian {
  const guardian = startGuardian({ onError: (message) => expect.fail(message) });
  if (guardian === undefined) throw new Error('no guardian on this platform');
  return guardian;
}

describe.skipIf(process.platform === 'win32')('guardian', () => {
  it('kills a tracked group, SIGTERM-proof members included, when its pipe ends', async () => {
    const victim = victimGroup();
    const pgid = victim.pid!;
    const guardian = started();
    guardian.track(pgid);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(groupAlive(pgid)).toBe(true);
    guardian.close(); // what the host's death does to the pipe
    expect(await until(() => !groupAlive(pgid), 10_000)).toBe(true);
  });

  it('leaves an untracked group alone, and exits at once', async () => {
    const victim = victimGroup();
    const pgid = victim.pid!;
    const guardian = started();
    guardian.track(pgid);
    guardian.untrack(pgid);
    const pid = guardian.pid!;
    guardian.close();
    expect(await until(() => !groupAlive(pid), 5_000)).toBe(true);
    expect(groupAlive(pgid)).toBe(true);
    process.kill(-pgid, 'SIGKILL');
  });

  it('names itself for ps, and is not started on Windows', () => {
    const guardian = started();
    const args = execFileSync('ps', ['-o', 'args=', '-p', String(guardian.pid)], {
      encoding: 'utf8',
    }).trim();
    expect(args.endsWith(GUARDIAN_NAME)).toBe(true);
    guardian.close();
    expect(startGuardian({ platform: 'win32' })).toBeUndefined();
  });
});
