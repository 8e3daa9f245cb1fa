import { createHash } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import { z } from 'zod';
import {
  ActivityDeciderSchema,
  ActivityEventSchema,
  ActivityViaSchema,
  DEFAULT_ACTIVITY_PAGE_ENTRIES,
  MAX_ACTIVITY_NAME_CHARS,
  MAX_ACTIVITY_PAGE_BYTES,
  MAX_ACTIVITY_PAGE_ENTRIES,
  MAX_ACTIVITY_WORD_CHARS,
  deciderOf,
  type ActivityEntry,
  type ActivityEvent,
} from '../../protocol/activity';
import { safeText } from '../../protocol/untrusted/gate';
import { isErrno } from '../shared/errno';
import { HostError } from '../shared/host-error';
import { linesBefore, readAt, type RawLine } from './reverse-lines';

/**
 * Reads the audit log for `activity/list` and `switchyard activity`: newest entry first, across
 * the current file and its rotated generation (`<file>.1`), one bounded page at a time.
 *
 * Every line is hostile until parsed: the log is a file any program running as the user can
 * write. A line that is not JSON, not an entry, or longer than MAX_AUDIT_LINE_BYTES is skipped
 * and counted; every string of an entry goes through the untrusted-text gate (a name with a
 * terminal escape must not reach a terminal) and is capped. A page holds at most `limit`
 * entries and MAX_ACTIVITY_PAGE_BYTES of them, and reads at most MAX_ACTIVITY_SCAN_BYTES of log
 * (a filter that matches little returns a short page with a cursor, not a long stall).
 *
 * The cursor names a line by its byte offset and a hash of its first bytes. Files only grow and
 * rotation renames the current file to `.1` whole, so a line keeps its offset: a cursor is looked
 * up in the current file, then in `.1` (it rotated since), and refused when neither holds that
 * line any more (rotated out).
 */

/** Longest line read as an entry; entries are a few hundred bytes. */
export const MAX_AUDIT_LINE_BYTES = 64 * 1024;
/** Most bytes of log one page reads. */
export const MAX_ACTIVITY_SCAN_BYTES = 4 * 1024 * 1024;
/** Bytes read per step backwards. */
const CHUNK_BYTES = 64 * 1024;
/** Bytes of a line's start that its cursor check covers. */
const CHECK_BYTES = 256;

export interface ActivityQuery {
  /** Only entries of this server (its name as configured). */
  readonly server?: string;
  /** Only entries of these kinds. */
  readonly events?: readonly ActivityEvent[];
  /** Default DEFAULT_ACTIVITY_PAGE_ENTRIES, at most MAX_ACTIVITY_PAGE_ENTRIES. */
  readonly limit?: number;
  /** `nextCursor` of the page before: continue with older entries. */
  readonly cursor?: string;
}

export interface ActivityPage {
  /** Newest first. */
  readonly entries: ActivityEntry[];
  /** Where the next, older page starts; null when the log holds nothing older. */
  readonly nextCursor: string | null;
  /** Lines read for this page that were not entries (corrupt, foreign, oversized). */
  readonly skipped: number;
}

/** Limits a test shrinks; production uses the defaults. */
export interface ActivityReadLimits {
  readonly scanBytes?: number;
  readonly pageBytes?: number;
  readonly chunkBytes?: number;
}

const DiskText = z.string().max(4 * MAX_ACTIVITY_NAME_CHARS);
const Count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/** A line as this version reads it; unknown members are ignored, a wrong type skips the line. */
const AuditLineSchema = z.object({
  ts: z.iso.datetime(),
  event: ActivityEventSchema,
  server: DiskText.optional(),
  tool: DiskText.optional(),
  exposedName: DiskText.optional(),
  profile: DiskText.optional(),
  rule: DiskText.optional(),
  decision: DiskText.optional(),
  by: DiskText.optional(),
  via: DiskText.optional(),
  outcome: DiskText.optional(),
  caller: DiskText.optional(),
  argumentsBytes: Count.optional(),
  argumentsHash: Sha256.optional(),
  resultBytes: Count.optional(),
  resultHash: Sha256.optional(),
  durationMs: Count.optional(),
  fingerprint: Sha256.optional(),
});
type AuditLine = z.infer<typeof AuditLineSchema>;

interface Generation {
  readonly handle: fs.FileHandle;
  readonly size: number;
}

export async function readActivity(
  file: string,
  query: ActivityQuery = {},
  limits: ActivityReadLimits = {},
): Promise<ActivityPage> {
  const limit = Math.min(
    Math.max(1, Math.trunc(query.limit ?? DEFAULT_ACTIVITY_PAGE_ENTRIES)),
    MAX_ACTIVITY_PAGE_ENTRIES,
  );
  const scanBytes = limits.scanBytes ?? MAX_ACTIVITY_SCAN_BYTES;
  const pageBytes = limits.pageBytes ?? MAX_ACTIVITY_PAGE_BYTES;
  const chunkBytes = limits.chunkBytes ?? CHUNK_BYTES;
  const generations = await openGenerations(file);
  try {
    const from =
      query.cursor === undefined
        ? { index: 0, end: generations[0]?.size ?? 0 }
        : await findCursor(generations, query.cursor);
    const entries: ActivityEntry[] = [];
    let bytes = 0;
    let scanned = 0;
    let skipped = 0;
    /** The oldest line this page consumed, where the next page starts. */
    let last: { index: number; line: RawLine } | undefined;
    scan: for (let index = from.index; index < generations.length; index += 1) {
      const generation = generations[index];
      if (generation === undefined) break;
      const end = index === from.index ? from.end : generation.size;
      const lines = linesBefore(generation.handle, end, {
        chunkBytes,
        maxLineBytes: MAX_AUDIT_LINE_BYTES,
        onRead: (n) => (scanned += n),
      });
      for await (const line of lines) {
        // Every page moves on by at least one line, whatever the budgets.
        if (last !== undefined && scanned > scanBytes) break scan;
        const parsed = line.oversized ? undefined : parseLine(line.bytes);
        if (parsed === undefined) {
          skipped += 1;
        } else if (matches(parsed, query)) {
          const entry = toEntry(parsed);
          const size = Buffer.byteLength(JSON.stringify(entry), 'utf8') + 1;
          if (last !== undefined && bytes + size > pageBytes) break scan;
          entries.push(entry);
          bytes += size;
        }
        last = { index, line };
        if (entries.length >= limit) break scan;
      }
    }
    return { entries, nextCursor: nextCursor(generations, last), skipped };
  } finally {
    await Promise.all(generations.map((g) => g.handle.close()));
  }
}

/** The current file, then `.1`; a missing one (or one that is not a file) is left out. */
async function openGenerations(file: string): Promise<Generation[]> {
  const generations: Array<Generation & { readonly id: string }> = [];
  try {
    // The current file first: if it rotates between the two opens, both handles are the same
    // file (left once), never the new file and the old `.1` with the one between them missed.
    for (const path of [file, `${file}.1`]) {
      const handle = await openIfPresent(path);
      if (handle === undefined) continue;
      const stat = await handle.stat({ bigint: true });
      const id = `${stat.dev}:${stat.ino}`;
      if (!stat.isFile() || generations.some((g) => g.id === id)) {
        await handle.close();
        continue;
      }
      generations.push({ handle, size: Number(stat.size), id });
    }
  } catch (error) {
    await Promise.all(generations.map((g) => g.handle.close()));
    throw error;
  }
  return generations;
}

async function openIfPresent(path: string): Promise<fs.FileHandle | undefined> {
  try {
    // Non-blocking: a FIFO planted in place of the log must not hang the host on open. (Windows
    // has no O_NONBLOCK; `| undefined` is `| 0`.)
    return await fs.open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENXIO')) return undefined;
    throw error;
  }
}

function parseLine(bytes: Buffer): AuditLine | undefined {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  return AuditLineSchema.safeParse(value).data;
}

function matches(line: AuditLine, query: ActivityQuery): boolean {
  if (query.server !== undefined && line.server !== query.server) return false;
  return query.events === undefined || query.events.includes(line.event);
}

function gated(value: string | undefined, maxChars: number): string | undefined {
  return value === undefined ? undefined : safeText(value, { maxChars });
}

/** The entry as served: strings gated and capped, `by` derived for lines written without it. */
export function toEntry(line: AuditLine): ActivityEntry {
  // `denied-by-user` was the user's denial before decisions were named with `by`.
  const decision = line.decision === 'denied-by-user' ? 'denied' : line.decision;
  const by = ActivityDeciderSchema.safeParse(line.by).data ?? deciderOf(line.event, decision);
  const via = ActivityViaSchema.safeParse(line.via).data;
  // Absent members stay undefined here and are left out when the entry is serialized.
  return {
    ts: line.ts,
    event: line.event,
    server: gated(line.server, MAX_ACTIVITY_NAME_CHARS),
    tool: gated(line.tool, MAX_ACTIVITY_NAME_CHARS),
    exposedName: gated(line.exposedName, MAX_ACTIVITY_NAME_CHARS),
    profile: gated(line.profile, MAX_ACTIVITY_NAME_CHARS),
    rule: gated(line.rule, MAX_ACTIVITY_NAME_CHARS),
    decision: gated(decision, MAX_ACTIVITY_WORD_CHARS),
    by,
    via,
    outcome: gated(line.outcome, MAX_ACTIVITY_WORD_CHARS),
    caller: line.caller === 'app' || line.caller === 'model' ? line.caller : undefined,
    argumentsBytes: line.argumentsBytes,
    argumentsHash: line.argumentsHash,
    resultBytes: line.resultBytes,
    resultHash: line.resultHash,
    durationMs: line.durationMs,
    fingerprint: line.fingerprint,
  };
}

function lineCheck(bytes: Buffer): string {
  return createHash('sha256').update(bytes.subarray(0, CHECK_BYTES)).digest('hex').slice(0, 16);
}

function nextCursor(
  generations: readonly Generation[],
  last: { index: number; line: RawLine } | undefined,
): string | null {
  if (last === undefined) return null;
  const older = generations.slice(last.index + 1).some((g) => g.size > 0);
  if (last.line.start === 0 && !older) return null;
  return `${last.line.start}-${lineCheck(last.line.bytes)}`;
}

/** Where a cursor's line is now: the current file, or `.1` if the log rotated since. */
async function findCursor(
  generations: readonly Generation[],
  cursor: string,
): Promise<{ index: number; end: number }> {
  const match = /^(\d{1,15})-([0-9a-f]{16})$/.exec(cursor);
  const offset = Number(match?.[1]);
  if (match !== null && Number.isSafeInteger(offset)) {
    for (const [index, generation] of generations.entries()) {
      if (offset >= generation.size) continue;
      // The byte before a line is a newline (or there is none): the offset starts a line.
      const before = offset === 0 ? 0 : 1;
      const bytes = await readAt(
        generation.handle,
        offset - before,
        Math.min(before + CHECK_BYTES, generation.size - offset + before),
      );
      if (before === 1 && bytes[0] !== 0x0a) continue;
      const start = bytes.subarray(before);
      const newline = start.indexOf(0x0a);
      const line = newline === -1 ? start : start.subarray(0, newline);
      if (lineCheck(line) === match[2]) return { index, end: offset };
    }
  }
  throw new HostError(
    'invalid-params',
    'This page of activity is no longer in the log (it rotated out since). List the newest activity again.',
    { cursor },
  );
}
