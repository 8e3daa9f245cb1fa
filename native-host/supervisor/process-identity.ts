import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

/**
 * Who a pid is right now: when the process started, as an opaque token that is equal for the
 * same process and different for a later process that reused its pid, roughly when that was on
 * the wall clock, and its process group. That is what makes a pid record safe to act on
 * (issue 13): pids wrap around, and a record left by a dead host may name a pid that now belongs
 * to the user's editor.
 *
 * - Linux: fields 5 (pgrp) and 22 (starttime, clock ticks after boot) of `/proc/<pid>/stat`,
 *   read after the last `)` so a command name holding spaces or parentheses cannot shift them.
 *   The wall-clock time adds the boot time (`btime` in `/proc/stat`) at USER_HZ = 100, which is
 *   what every Linux architecture reports to user space.
 * - macOS: `ps -o pgid=,lstart=` in the C locale (one-second resolution, so a pid reused within
 *   the same second is the one case it cannot tell apart).
 * - Windows and others: unknown, so nothing is ever reaped there by record.
 *
 * Nothing here rejects: a process that is gone or cannot be read is undefined (or left out).
 */
export interface ProcessIdentity {
  readonly pid: number;
  /** Exact and opaque: compare for equality only. */
  readonly start: string;
  /** When it started, milliseconds since the epoch (to within 10 ms on Linux, 1 s on macOS). */
  readonly startedAtMs: number;
  readonly group: number;
}

export interface ProcessTable {
  identityOf(pid: number): Promise<ProcessIdentity | undefined>;
  /** Every live process in process group `pgid`. */
  membersOf(pgid: number): Promise<ProcessIdentity[]>;
}

const UNKNOWN: ProcessTable = {
  identityOf: () => Promise.resolve(undefined),
  membersOf: () => Promise.resolve([]),
};

export function processTable(platform: NodeJS.Platform = process.platform): ProcessTable {
  if (platform === 'linux') return linuxTable;
  if (platform === 'darwin') return darwinTable;
  return UNKNOWN;
}

/** The identity in a Linux `/proc/<pid>/stat` line, given the boot time; undefined if not one. */
export function parseProcStat(text: string, bootSeconds: number): ProcessIdentity | undefined {
  const open = text.indexOf(' (');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const pid = text.slice(0, open);
  // After "pid (comm)" comes field 3 (state): pgrp (field 5) is the 3rd from here, starttime
  // (field 22) the 20th.
  const fields = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const group = fields[2];
  const ticks = fields[19];
  if (group === undefined || ticks === undefined) return undefined;
  if (!/^\d+$/.test(pid) || !/^\d+$/.test(group) || !/^\d+$/.test(ticks)) return undefined;
  return {
    pid: Number(pid),
    start: `linux:${ticks}`,
    startedAtMs: bootSeconds * 1000 + Number(ticks) * 10,
    group: Number(group),
  };
}

/** One line of `ps -o pid=,pgid=,lstart=` (C locale), or undefined. */
export function parsePsLine(line: string): ProcessIdentity | undefined {
  const match = /^\s*(\d+)\s+(\d+)\s+(\S.*\S)\s*$/.exec(line);
  if (match === null) return undefined;
  const [, pid, group, start] = match;
  if (pid === undefined || group === undefined || start === undefined) return undefined;
  const startedAtMs = Date.parse(start);
  if (Number.isNaN(startedAtMs)) return undefined;
  return { pid: Number(pid), start: `darwin:${start}`, startedAtMs, group: Number(group) };
}

let bootSeconds: number | undefined;

async function linuxBootSeconds(): Promise<number> {
  if (bootSeconds === undefined) {
    const stat = await readFile('/proc/stat', 'utf8').catch(() => '');
    bootSeconds = Number(/^btime (\d+)$/m.exec(stat)?.[1] ?? 0);
  }
  return bootSeconds;
}

async function linuxStat(pid: string): Promise<ProcessIdentity | undefined> {
  try {
    return parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8'), await linuxBootSeconds());
  } catch {
    return undefined;
  }
}

const linuxTable: ProcessTable = {
  identityOf: (pid) => (isPid(pid) ? linuxStat(String(pid)) : Promise.resolve(undefined)),
  async membersOf(pgid) {
    if (!isPid(pgid)) return [];
    const entries = await readdir('/proc').catch(() => []);
    const all = await Promise.all(entries.filter((e) => /^\d+$/.test(e)).map(linuxStat));
    return all.filter((p): p is ProcessIdentity => p !== undefined && p.group === pgid);
  },
};

function runPs(args: readonly string[]): Promise<ProcessIdentity[]> {
  return new Promise((resolve) => {
    execFile(
      '/bin/ps',
      [...args],
      { env: { LC_ALL: 'C', PATH: '/usr/bin:/bin' }, timeout: 5000, maxBuffer: 8 * 1024 * 1024 },
      (error, stdout) => {
        if (error !== null) resolve([]);
        else resolve(stdout.split('\n').flatMap((line) => parsePsLine(line) ?? []));
      },
    );
  });
}

const darwinTable: ProcessTable = {
  async identityOf(pid) {
    if (!isPid(pid)) return undefined;
    return (await runPs(['-o', 'pid=,pgid=,lstart=', '-p', String(pid)]))[0];
  },
  async membersOf(pgid) {
    if (!isPid(pgid)) return [];
    return (await runPs(['-A', '-o', 'pid=,pgid=,lstart='])).filter((p) => p.group === pgid);
  },
};

function isPid(pid: number): boolean {
  return Number.isSafeInteger(pid) && pid > 1;
}
