import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../shared/atomic-write';
import { readFileBounded } from '../shared/bounded-read';
import { errnoCode } from '../shared/errno';
import { withFileLock } from '../shared/file-lock';
import { signalProcessGroup, type KillFn, processKill } from './process-group';
import type { ProcessIdentity, ProcessTable } from './process-identity';

/**
 * Pid records (issue 13): each host keeps `$SWITCHYARD_HOME/run/host-<pid>.json` listing itself
 * and the process groups of the servers it runs, each with its leader's start time. A host that
 * shuts down removes its record. A host that died without its shutdown (and whose guardian died
 * too, or never ran: Windows, a killed session) leaves it behind, and the next host to start
 * reaps the groups it names before starting its own servers, so an orphan no longer holds the
 * ports, files and tokens its successor needs. Then it records what it reaped for `doctor`.
 *
 * A group is signalled only when it is still the one recorded: its leader is alive, still leads
 * that group and started when the record says, so a pid that another program reused since is
 * never touched. When the leader has exited but members remain (`sh -c` or `npx` gone, their
 * child still running), the kernel has not given the group's id to anyone else while they live;
 * it could have only if the group had emptied and the id been reused before the record was last
 * written, so the members are reaped only if every one of them started between the leader's
 * start and that last write. The records are the user's own files (the home is 0700); one planted
 * by another program of the user can name only processes that program could kill anyway.
 */

export const RUN_FOLDER = 'run';
export const REAPED_FILE = 'reaped.json';
const RECORD_NAME = /^host-(\d+)\.json$/;
const MAX_RECORD_BYTES = 256 * 1024;
const MAX_GROUPS = 1000;
/** What `reaped.json` keeps, newest last. */
export const MAX_REAPED_KEPT = 20;

const GroupSchema = z.object({
  pgid: z.number().int().min(2),
  start: z.string().min(1).max(200),
  startedAtMs: z.number(),
  server: z.string().max(256),
});
const RecordSchema = z.object({
  version: z.literal(1),
  host: z.object({ pid: z.number().int().min(2), start: z.string().min(1).max(200) }),
  groups: z.array(GroupSchema).max(MAX_GROUPS),
});
type HostRecord = z.infer<typeof RecordSchema>;

const ReapedSchema = z.object({
  server: z.string().max(256),
  pgid: z.number().int(),
  hostPid: z.number().int(),
  at: z.string().max(64),
  signal: z.enum(['SIGTERM', 'SIGKILL']),
});
/** One server group a host reaped after the host that ran it died. */
export type ReapedGroup = z.infer<typeof ReapedSchema>;

export interface GroupRecorderOptions {
  readonly processes: ProcessTable;
  readonly pid?: number;
  readonly onError?: (message: string) => void;
}

/** This host's record: written on every start and end of a server group. */
export class GroupRecorder {
  private groups: HostRecord['groups'] = [];
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    readonly file: string,
    private readonly host: HostRecord['host'],
    private readonly options: GroupRecorderOptions,
  ) {}

  /** Undefined where a start time cannot be read (Windows): a record could not be acted on. */
  static async open(
    runDir: string,
    options: GroupRecorderOptions,
  ): Promise<GroupRecorder | undefined> {
    const pid = options.pid ?? process.pid;
    const self = await options.processes.identityOf(pid);
    if (self === undefined) return undefined;
    return new GroupRecorder(
      path.join(runDir, `host-${pid}.json`),
      { pid, start: self.start },
      options,
    );
  }

  /** A server's group started; its leader's start time is read now, before it can be reused. */
  track(pgid: number, server: string): void {
    this.enqueue(async () => {
      const leader = await this.options.processes.identityOf(pgid);
      // Already gone: there is nothing left to reap.
      if (leader === undefined || leader.group !== pgid) return;
      const { start, startedAtMs } = leader;
      this.groups = [
        ...this.groups.filter((g) => g.pgid !== pgid),
        { pgid, start, startedAtMs, server },
      ].slice(-MAX_GROUPS);
      await this.write();
    });
  }

  /** That group is gone. */
  untrack(pgid: number): void {
    this.enqueue(async () => {
      const before = this.groups.length;
      this.groups = this.groups.filter((g) => g.pgid !== pgid);
      if (this.groups.length !== before) await this.write();
    });
  }

  /** Resolves once every change so far is on disk (or failed and was reported). */
  settled(): Promise<void> {
    return this.queue;
  }

  /** After a normal shutdown: the record goes, since nothing it named is left. */
  async close(): Promise<void> {
    this.enqueue(async () => {
      this.closed = true;
      await unlinkIfPresent(this.file);
    });
    await this.queue;
  }

  private enqueue(step: () => Promise<void>): void {
    this.queue = this.queue.then(step).catch((error: unknown) => {
      this.options.onError?.(`the server pid record could not be saved: ${String(error)}`);
    });
  }

  private async write(): Promise<void> {
    if (this.closed) return;
    const record: HostRecord = { version: 1, host: this.host, groups: this.groups };
    await writeAtomically(this.file, `${JSON.stringify(record)}\n`);
  }
}

export interface ReapOptions {
  readonly processes: ProcessTable;
  readonly kill?: KillFn;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => Date;
  /** This host's pid: its own record is never read as a dead host's. */
  readonly pid?: number;
  /** How long a group has after SIGTERM before SIGKILL. Default 1 s. */
  readonly graceMs?: number;
}

/**
 * Reaps the server groups of every host whose record is left in `runDir` and who is no longer
 * running, removes those records, and adds what it killed to `reaped.json`. Returns what it
 * killed. A record that is not valid is removed (it can name nothing safely). Never throws for
 * the records' content; I/O errors other than a missing folder reject.
 */
export async function reapDeadHosts(runDir: string, options: ReapOptions): Promise<ReapedGroup[]> {
  let names: string[];
  try {
    names = await fsp.readdir(runDir);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return [];
    throw error;
  }
  const ownPid = options.pid ?? process.pid;
  const reaped: ReapedGroup[] = [];
  for (const name of names) {
    const match = RECORD_NAME.exec(name);
    if (match === null || Number(match[1]) === ownPid) continue;
    const file = path.join(runDir, name);
    const read = await readRecord(file);
    if (read !== undefined) {
      const { record, writtenAtMs } = read;
      const host = await options.processes.identityOf(record.host.pid);
      if (host?.start === record.host.start) continue; // A live host: its servers are its own.
      for (const group of record.groups) {
        const signal = await reapGroup(group, writtenAtMs, options);
        if (signal !== undefined) {
          const at = (options.now?.() ?? new Date()).toISOString();
          reaped.push({
            server: group.server,
            pgid: group.pgid,
            hostPid: record.host.pid,
            at,
            signal,
          });
        }
      }
    }
    await unlinkIfPresent(file);
  }
  if (reaped.length > 0) await appendReaped(runDir, reaped);
  return reaped;
}

/** What `reaped.json` holds, oldest first; empty when it is missing or not valid. */
export async function readReaped(runDir: string): Promise<ReapedGroup[]> {
  try {
    const bytes = await readFileBounded(path.join(runDir, REAPED_FILE), MAX_RECORD_BYTES);
    const parsed = z.array(ReapedSchema).safeParse(JSON.parse(Buffer.from(bytes).toString('utf8')));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** Slack for comparing start times read from two clocks (boot ticks, the file's mtime). */
const CLOCK_SLACK_MS = 1000;

/** Whether group `group.pgid` is, now, the one recorded (see the module comment). */
async function stillOurs(
  group: HostRecord['groups'][number],
  writtenAtMs: number,
  processes: ProcessTable,
): Promise<boolean> {
  const leader = await processes.identityOf(group.pgid);
  if (leader !== undefined) return leader.start === group.start && leader.group === group.pgid;
  const members = await processes.membersOf(group.pgid);
  const inWindow = (p: ProcessIdentity): boolean =>
    p.startedAtMs >= group.startedAtMs - CLOCK_SLACK_MS &&
    p.startedAtMs <= writtenAtMs + CLOCK_SLACK_MS;
  return members.length > 0 && members.every(inWindow);
}

/** Signals one recorded group if, and only if, it is still the group recorded. */
async function reapGroup(
  group: HostRecord['groups'][number],
  writtenAtMs: number,
  options: ReapOptions,
): Promise<ReapedGroup['signal'] | undefined> {
  const kill = options.kill ?? processKill;
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  if (!(await stillOurs(group, writtenAtMs, options.processes))) return undefined;
  if (!signalProcessGroup(group.pgid, 'SIGTERM', kill)) return undefined;
  const graceMs = options.graceMs ?? 1000;
  for (let waited = 0; waited < graceMs; waited += 50) {
    await sleep(50);
    if (!signalProcessGroup(group.pgid, 0, kill)) return 'SIGTERM';
  }
  // Checked again: in that second the whole group may have gone and the id been reused.
  if (!(await stillOurs(group, writtenAtMs, options.processes))) return 'SIGTERM';
  signalProcessGroup(group.pgid, 'SIGKILL', kill);
  return 'SIGKILL';
}

/** A record and when it was last written; undefined when it is not a valid record. */
async function readRecord(
  file: string,
): Promise<{ record: HostRecord; writtenAtMs: number } | undefined> {
  try {
    const writtenAtMs = (await fsp.stat(file)).mtimeMs;
    const bytes = await readFileBounded(file, MAX_RECORD_BYTES);
    if (bytes.length > MAX_RECORD_BYTES) return undefined;
    const record = RecordSchema.safeParse(JSON.parse(Buffer.from(bytes).toString('utf8'))).data;
    return record === undefined ? undefined : { record, writtenAtMs };
  } catch {
    return undefined;
  }
}

async function appendReaped(runDir: string, entries: readonly ReapedGroup[]): Promise<void> {
  const file = path.join(runDir, REAPED_FILE);
  await withFileLock(file, async () => {
    const kept = [...(await readReaped(runDir)), ...entries].slice(-MAX_REAPED_KEPT);
    await writeAtomically(file, `${JSON.stringify(kept, null, 2)}\n`);
  });
}

async function writeAtomically(file: string, text: string): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  // Not durable: the record names processes of this boot, which a power loss ends too; it is
  // rewritten at every server start, where two fsyncs each would only slow the start.
  await writeFileAtomic(file, text, 0o600, { durable: false });
}

async function unlinkIfPresent(file: string): Promise<void> {
  try {
    await fsp.unlink(file);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
}
