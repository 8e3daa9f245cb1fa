import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Resident memory of a process, from the kernel on Linux (`/proc/<pid>/status`, and
 * `/proc/<pid>/smaps_rollup` for what of it is shared), from `ps` elsewhere. Peak (VmHWM),
 * the proportional share and the private part are only known on Linux.
 */

export interface ProcessMemory {
  readonly pid: number;
  /** Resident set size, in MiB. */
  readonly rssMiB: number;
  /** Highest resident set size since the process started, in MiB (Linux only). */
  readonly peakMiB: number | null;
  /**
   * Proportional set size, in MiB (Linux only): each resident page divided by the number of
   * processes that map it. RSS counts the node binary's pages whole in every node process (the
   * servers are node processes too); PSS splits them.
   */
  readonly pssMiB: number | null;
  /** Pages no other process maps (clean and dirty), in MiB (Linux only). */
  readonly privateMiB: number | null;
  /** Resident pages other processes map too, in MiB (Linux only): RSS less the private pages,
   * both from one read of smaps_rollup, so the two cannot drift apart. */
  readonly sharedMiB: number | null;
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
  const kib = (field: string) => kibField(status, field);
  const rss = kib('VmRSS');
  if (rss === undefined) return undefined;
  const peak = kib('VmHWM');
  const shares = sharesOf(pid);
  return {
    pid,
    rssMiB: rss / KIB_PER_MIB,
    peakMiB: peak === undefined ? null : peak / KIB_PER_MIB,
    pssMiB: shares?.pss ?? null,
    privateMiB: shares?.private ?? null,
    sharedMiB: shares?.shared ?? null,
  };
}

/** PSS, the private and the shared pages, in MiB, from smaps_rollup (Linux 4.14+); undefined if
 * unreadable. */
function sharesOf(pid: number): { pss: number; private: number; shared: number } | undefined {
  let rollup: string;
  try {
    rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  } catch {
    return undefined;
  }
  const kib = (field: string) => kibField(rollup, field);
  const rss = kib('Rss');
  const pss = kib('Pss');
  const clean = kib('Private_Clean');
  const dirty = kib('Private_Dirty');
  if (rss === undefined || pss === undefined || clean === undefined || dirty === undefined)
    return undefined;
  return {
    pss: pss / KIB_PER_MIB,
    private: (clean + dirty) / KIB_PER_MIB,
    shared: (rss - clean - dirty) / KIB_PER_MIB,
  };
}

/** A `Field:   123 kB` line of a /proc file, in KiB. */
function kibField(text: string, field: string): number | undefined {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(text);
  return match ? Number(match[1]) : undefined;
}

function fromPs(pid: number): ProcessMemory | undefined {
  try {
    const out = execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' });
    const kib = Number(out.trim());
    return Number.isFinite(kib) && out.trim() !== ''
      ? {
          pid,
          rssMiB: kib / KIB_PER_MIB,
          peakMiB: null,
          pssMiB: null,
          privateMiB: null,
          sharedMiB: null,
        }
      : undefined;
  } catch {
    return undefined;
  }
}
