import { execFileSync } from 'node:child_process';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, test } from 'vitest';
import { ActivityEntrySchema, type ActivityEntry } from '../../protocol/activity';
import { HostError } from '../shared/host-error';
import { AuditLog } from './audit-log';
import { readActivity, type ActivityPage, type ActivityQuery } from './activity-read';

// The reader is how a person looks back at what ran on their machine. Dangerous directions: an
// entry that is silently missing or shown twice at a page or rotation boundary (the view would
// lie about what happened), a hostile line that crashes the host or reaches a terminal as an
// escape sequence, and a page that grows past what one native-messaging frame can carry.

const HASH = 'a'.repeat(64);

function logFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'sy-activity-')), 'audit.jsonl');
}

/** One audit line as the host writes it; `n` makes it unique and orders it (ts). */
function line(n: number, over: Record<string, unknown> = {}): string {
  const ts = new Date(Date.UTC(2026, 11, 1, 10, 0, n)).toISOString();
  return JSON.stringify({
    ts,
    event: 'call',
    server: n % 2 === 0 ? 'files' : 'memory',
    tool: `tool_${n}`,
    exposedName: `${n % 2 === 0 ? 'files' : 'memory'}__tool_${n}`,
    decision: 'allow',
    rule: '*',
    outcome: 'ok',
    argumentsBytes: 2,
    argumentsHash: HASH,
    durationMs: n,
    by: 'policy',
    via: 'browser',
    ...over,
  });
}

function write(file: string, lines: readonly string[]): void {
  writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
}

const tools = (page: ActivityPage): string[] => page.entries.map((e) => e.tool ?? '?');

/** Every page of a query, oldest page last. */
async function allPages(file: string, query: ActivityQuery, limits = {}): Promise<ActivityPage[]> {
  const pages: ActivityPage[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 1_000; i += 1) {
    const page = await readActivity(file, { ...query, ...(cursor ? { cursor } : {}) }, limits);
    pages.push(page);
    if (page.nextCursor === null) return pages;
    cursor = page.nextCursor;
  }
  throw new Error('the cursor never ended');
}

describe('readActivity', () => {
  it('returns nothing, and no cursor, when there is no log yet', async () => {
    expect(await readActivity(logFile())).toEqual({ entries: [], nextCursor: null, skipped: 0 });
  });

  it('reads newest first across the rotated generation, every entry once', async () => {
    const file = logFile();
    write(`${file}.1`, [line(1), line(2), line(3)]);
    write(file, [line(4), line(5)]);
    const page = await readActivity(file);
    expect(tools(page)).toEqual(['tool_5', 'tool_4', 'tool_3', 'tool_2', 'tool_1']);
    expect(page.nextCursor).toBeNull();
    for (const entry of page.entries) expect(ActivityEntrySchema.parse(entry)).toEqual(entry);
  });

  it("reads what the audit log wrote, across the log's own rotation", async () => {
    const file = logFile();
    const log = new AuditLog({ file, maxBytes: 1_000, via: 'browser' });
    for (let n = 0; n < 30; n += 1) {
      log.append({ event: 'call', server: 'files', tool: `t${n}`, decision: 'approved' });
    }
    await log.flush();
    const entries = (await allPages(file, { limit: 3 })).flatMap((p) => p.entries);
    // Two generations of 1,000 bytes hold the newest entries, contiguous, none twice.
    const kept = entries.map((e) => Number(e.tool?.slice(1)));
    expect(kept[0]).toBe(29);
    expect(kept).toEqual(kept.map((_, i) => 29 - i));
    expect(kept.length).toBeGreaterThan(5);
    expect(entries[0]).toMatchObject({ decision: 'approved', by: 'user', via: 'browser' });
  });

  test.each([1, 2, 3, 5, 7])(
    'pages of %i cover the log exactly once, across the rotation boundary',
    async (limit) => {
      const file = logFile();
      write(`${file}.1`, [line(1), line(2), line(3), line(4)]);
      write(file, [line(5), line(6), line(7)]);
      const pages = await allPages(file, { limit });
      expect(pages.flatMap(tools)).toEqual([7, 6, 5, 4, 3, 2, 1].map((n) => `tool_${n}`));
      for (const page of pages.slice(0, -1)) expect(page.entries).toHaveLength(limit);
    },
  );

  it('follows its cursor into .1 when the log rotates between two pages', async () => {
    const file = logFile();
    write(`${file}.1`, [line(1), line(2)]);
    write(file, [line(3), line(4), line(5)]);
    const first = await readActivity(file, { limit: 2 });
    expect(tools(first)).toEqual(['tool_5', 'tool_4']);
    // Rotation: the current file becomes .1 (the old .1 is gone), a new file starts.
    renameSync(file, `${file}.1`);
    // Longer than the page's offset: the cursor's line is told apart by its check, not by size.
    write(file, [line(6), line(7), line(8)]);
    const second = await readActivity(file, { limit: 10, cursor: first.nextCursor ?? '' });
    expect(tools(second)).toEqual(['tool_3']);
    expect(second.nextCursor).toBeNull();
  });

  test.each([
    ['the line rotated out', '0-0123456789abcdef'],
    ['an offset past the end', '999999-0123456789abcdef'],
  ])('refuses a cursor whose line is gone (%s) with invalid-params', async (_label, cursor) => {
    const file = logFile();
    write(file, [line(1), line(2)]);
    const error = await readActivity(file, { cursor }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostError);
    expect(error instanceof HostError ? error.reason : '').toBe('invalid-params');
  });

  it('refuses a cursor that does not point at the start of a line', async () => {
    const file = logFile();
    write(file, [line(1), line(2), line(3)]);
    const first = await readActivity(file, { limit: 1 });
    const [offset = '0', check = ''] = (first.nextCursor ?? '').split('-');
    const shifted = `${Number(offset) + 1}-${check}`;
    await expect(readActivity(file, { cursor: shifted })).rejects.toThrow(/no longer in the log/);
  });

  test.each<[string, ActivityQuery, string[]]>([
    ['one server', { server: 'files' }, ['tool_6', 'tool_4', 'tool_2']],
    ['a server with no entries', { server: 'github' }, []],
    ['one event kind', { events: ['trust'] }, ['tool_3']],
    ['two event kinds', { events: ['trust', 'launch'] }, ['tool_5', 'tool_3']],
    ['a server and a kind', { server: 'memory', events: ['call'] }, ['tool_1']],
  ])('filters: %s', async (_label, query, expected) => {
    const file = logFile();
    write(`${file}.1`, [line(1), line(2), line(3, { event: 'trust', decision: 'approved' })]);
    write(file, [line(4), line(5, { event: 'launch', decision: 'ask' }), line(6)]);
    const pages = await allPages(file, { ...query, limit: 2 });
    expect(pages.flatMap(tools)).toEqual(expected);
  });

  test.each<[string, string]>([
    ['not JSON', '{"ts": "2026-12-01T10:00:00.000Z", "event": "call"'],
    ['a JSON array', '[1, 2, 3]'],
    ['a JSON string', '"call"'],
    ['no timestamp', JSON.stringify({ event: 'call', server: 'files' })],
    ['a timestamp that is not ISO 8601', line(9, { ts: 'yesterday' })],
    ['an event this version does not know', line(9, { event: 'teleport' })],
    ['a size that is not a count', line(9, { argumentsBytes: -1 })],
    ['a size beyond exact integers', line(9, { resultBytes: 1e300 })],
    ['a hash that is not SHA-256 hex', line(9, { resultHash: 'zz' })],
    ['a server name that is not a string', line(9, { server: { name: 'files' } })],
    ['a 2,000-character server name', line(9, { server: 'x'.repeat(2_000) })],
    ['NUL bytes', '\u0000\u0000\u0000'],
    ['a line longer than 64 KiB', line(9, { padding: 'p'.repeat(70_000) })],
  ])('skips and counts a line with %s, and reads on', async (_label, bad) => {
    const file = logFile();
    write(file, [line(1), bad, line(2)]);
    const page = await readActivity(file);
    expect(tools(page)).toEqual(['tool_2', 'tool_1']);
    expect(page.skipped).toBe(1);
  });

  it('passes over empty lines and reads an unterminated last line', async () => {
    const file = logFile();
    writeFileSync(file, `${line(1)}\n\n\n${line(2)}`);
    expect(await readActivity(file)).toMatchObject({ skipped: 0, nextCursor: null });
    expect(tools(await readActivity(file))).toEqual(['tool_2', 'tool_1']);
  });

  it('reads the same entries whatever the chunk size (lines across chunk boundaries)', async () => {
    const file = logFile();
    const lines = [line(1), 'garbage', line(2, { server: 'ünïcødé ✓' }), line(3), line(4)];
    write(file, lines);
    const expected = await readActivity(file);
    for (const chunkBytes of [1, 2, 3, 7, 64, 100, 333, 4096]) {
      const pages = await allPages(file, { limit: 2 }, { chunkBytes });
      expect(pages.flatMap((p) => p.entries)).toEqual(expected.entries);
      expect(pages.reduce((n, p) => n + p.skipped, 0)).toBe(1);
    }
  });

  it('gates every string: escapes and bidi controls become visible, secrets are redacted', async () => {
    const file = logFile();
    write(file, [
      line(1, {
        server: 'evil\u001b]0;pwned\u0007\u202e',
        tool: 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB',
        outcome: 'o'.repeat(500),
      }),
    ]);
    const [entry] = (await readActivity(file)).entries;
    expect(entry?.server).not.toContain('\u001b');
    expect(entry?.server).not.toContain('\u0007');
    expect(entry?.server).not.toContain('\u202e');
    expect(entry?.server).toContain('⟦U+202E⟧');
    expect(entry?.tool).toContain('[REDACTED:');
    expect(entry?.outcome?.length).toBeLessThanOrEqual(64);
    expect(ActivityEntrySchema.safeParse(entry).success).toBe(true);
  });

  it('says who decided for lines written before `by`, and keeps the old name of a denial', async () => {
    const file = logFile();
    const legacy = (n: number, decision: string, event = 'call'): string =>
      JSON.stringify({
        ts: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
        event,
        decision,
      });
    write(file, [
      legacy(1, 'allow'),
      legacy(2, 'approved'),
      legacy(3, 'denied-by-user'),
      legacy(4, 'revoked', 'trust'),
      legacy(5, 'mystery'),
    ]);
    const entries: Array<Partial<ActivityEntry>> = (await readActivity(file)).entries.map((e) => ({
      decision: e.decision,
      by: e.by,
    }));
    expect(entries).toEqual([
      { decision: 'mystery', by: undefined },
      { decision: 'revoked', by: 'user' },
      { decision: 'denied', by: 'user' },
      { decision: 'approved', by: 'user' },
      { decision: 'allow', by: 'policy' },
    ]);
  });

  it('stops a page at its byte budget, with a cursor to the rest', async () => {
    const file = logFile();
    write(
      file,
      [1, 2, 3, 4, 5, 6].map((n) => line(n)),
    );
    const size = Buffer.byteLength(JSON.stringify((await readActivity(file)).entries[0])) + 1;
    const pages = await allPages(file, { limit: 200 }, { pageBytes: size * 2 + 10 });
    expect(pages.map((p) => p.entries.length)).toEqual([2, 2, 2]);
    expect(pages.flatMap(tools)).toEqual([6, 5, 4, 3, 2, 1].map((n) => `tool_${n}`));
  });

  it('stops a page at its scan budget, yet moves on by at least one line each page', async () => {
    const file = logFile();
    write(file, [line(1), ...Array.from({ length: 20 }, () => 'corrupt'), line(2)]);
    const pages = await allPages(file, { server: 'memory' }, { scanBytes: 1, chunkBytes: 16 });
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.flatMap(tools)).toEqual(['tool_1']);
    expect(pages.reduce((n, p) => n + p.skipped, 0)).toBe(20);
  });

  it.skipIf(process.platform === 'win32')(
    'does not hang on a FIFO planted in place of the log',
    async () => {
      const file = logFile();
      execFileSync('mkfifo', [file]);
      write(`${file}.1`, [line(1)]);
      expect(tools(await readActivity(file))).toEqual(['tool_1']);
    },
  );
});
