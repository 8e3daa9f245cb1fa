import type { SpawnOptions, SpawnSyncOptions } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  killProcessGroupNow,
  killProcessTreeWindows,
  signalProcessGroup,
  type KillFn,
} from './process-group';

function errno(code: string): Error {
  return Object.assign(new Error(code), { code });
}

/** A `KillFn` that records calls and answers from a table of pid -> error code. */
function fakeKill(failures: Record<number, string> = {}) {
  const calls: [number, NodeJS.Signals | 0][] = [];
  const kill: KillFn = (pid, signal) => {
    calls.push([pid, signal]);
    const code = failures[pid];
    if (code !== undefined) throw errno(code);
  };
  return { calls, kill };
}

// Banner: the dangerous direction is signalling too much. kill(-0) hits the host's own group,
// kill(-1) every process the user owns; no input may reach either.
describe('process group guards', () => {
  it.each([0, 1, -1, -4321, 2.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses pid %s everywhere',
    (pid) => {
      const { calls, kill } = fakeKill();
      expect(() => signalProcessGroup(pid, 'SIGTERM', kill)).toThrow(RangeError);
      expect(() => {
        killProcessGroupNow(pid, { platform: 'linux', kill });
      }).toThrow(RangeError);
      expect(() => {
        killProcessTreeWindows(pid, { spawn: () => ({ on: () => undefined }) });
      }).toThrow(RangeError);
      expect(calls).toEqual([]);
    },
  );
});

describe('signalProcessGroup', () => {
  it.each([
    { failure: undefined, exists: true },
    { failure: 'ESRCH', exists: false },
    { failure: 'EPERM', exists: true },
  ])('signals the negative pid; $failure means exists=$exists', ({ failure, exists }) => {
    const { calls, kill } = fakeKill(failure === undefined ? {} : { [-4321]: failure });
    expect(signalProcessGroup(4321, 0, kill)).toBe(exists);
    expect(calls).toEqual([[-4321, 0]]);
  });
});

describe('killProcessGroupNow', () => {
  it('SIGKILLs the group on POSIX and ignores a group that is gone', () => {
    const { calls, kill } = fakeKill({ [-77]: 'ESRCH' });
    killProcessGroupNow(4321, { platform: 'linux', kill });
    killProcessGroupNow(77, { platform: 'darwin', kill });
    expect(calls).toEqual([
      [-4321, 'SIGKILL'],
      [-77, 'SIGKILL'],
    ]);
  });

  it('runs taskkill /T /F by absolute path on win32, synchronously', () => {
    const runs: [string, readonly string[], SpawnSyncOptions][] = [];
    const spawnSync = (command: string, args: readonly string[], options: SpawnSyncOptions) => {
      runs.push([command, args, options]);
    };
    killProcessGroupNow(4321, { platform: 'win32', spawnSync, systemRoot: 'D:\\Win' });
    // A SystemRoot that is not an absolute drive path falls back rather than hitting PATH.
    killProcessGroupNow(4321, { platform: 'win32', spawnSync, systemRoot: 'Windows' });
    expect(runs.map(([command, args]) => [command, args])).toEqual([
      ['D:\\Win\\System32\\taskkill.exe', ['/pid', '4321', '/T', '/F']],
      ['C:\\Windows\\System32\\taskkill.exe', ['/pid', '4321', '/T', '/F']],
    ]);
    expect(runs[0]?.[2]).toMatchObject({ windowsHide: true });
  });
});

describe('killProcessTreeWindows', () => {
  it('spawns taskkill without a shell and swallows its errors', () => {
    const runs: [string, readonly string[], SpawnOptions][] = [];
    let onError: ((error: Error) => void) | undefined;
    killProcessTreeWindows(99, {
      systemRoot: 'C:\\Windows',
      spawn: (command, args, options) => {
        runs.push([command, args, options]);
        return {
          on: (_event: 'error', listener: (error: Error) => void) => {
            onError = listener;
          },
        };
      },
    });
    expect(runs).toEqual([
      [
        'C:\\Windows\\System32\\taskkill.exe',
        ['/pid', '99', '/T', '/F'],
        { stdio: 'ignore', windowsHide: true, shell: false },
      ],
    ]);
    expect(() => onError?.(errno('ENOENT'))).not.toThrow();
  });
});
