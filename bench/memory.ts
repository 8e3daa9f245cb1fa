import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Resident memory of a process, from the kernel on Linux (`/proc/<pid>/status`), from `ps`
 * elsewhere. Peak (VmHWM) is only known on Linux.
 */

export interface ProcessMemory {
  readonly pid: number;
  /** Resident set size, in MiB. */
  readonly rssMiB: number;
  /** Highest resident set size since the process started, in MiB (Linux only). */
  readonly peakMiB: number | null;
}

const KIB_PER_MIB = 1_024;

/** The process's memory, or undefined when it is gone or cannot be read. */
export function readMemory(pid: number): ProcessMemory | undefined {
  return process.platform === 'linux' ? fromProcStatus(pid) : fromPs(pid);
}

function fromProcStatus(pid: number): ProcessMemory | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kib = (field: string): number | undefined => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
    return match ? Number(match[1]) : undefined;
  };
  const rss = kib('VmRSS');
  if (rss === undefined) return undefined;
  const peak = kib('VmHWM');
  return {
    pid,
    rssMiB: rss / KIB_PER_MIB,
    peakMiB: peak === undefined ? null : peak / KIB_PER_MIB,
  };
}

function fromPs(pid: number): ProcessMemory | undefined {
  try {
    const out = execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' });
    const kib = Number(out.trim());
    return Number.isFinite(kib) && out.trim() !== ''
      ? { pid, rssMiB: kib / KIB_PER_MIB, peakMiB: null }
      : undefined;
  } catch {
    return undefined;
  }
}
