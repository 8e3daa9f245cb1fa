import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, test } from 'vitest';
import { z } from 'zod';
import { ActivityEntrySchema, type ActivityEntry } from '../../protocol/activity';
import { activity, activityText, parseActivityArgs, DEFAULT_ACTIVITY_LINES } from './activity';
import type { CliIo } from './io';

// The CLI reads the log without a host. Dangerous directions: a table that credits a decision
// to the wrong party, and a hostile line that reaches the terminal raw.

describe('parseActivityArgs', () => {
  test.each([
    [[], { server: undefined, events: undefined, limit: DEFAULT_ACTIVITY_LINES, json: false }],
    [
      ['--server', 'memory', '--json'],
      { server: 'memory', limit: DEFAULT_ACTIVITY_LINES, json: true },
    ],
    [['--server=my server', '--limit=5'], { server: 'my server', limit: 5 }],
    [['--event', 'trust', '--event=policy', '--event', 'trust'], { events: ['trust', 'policy'] }],
    [['--limit', '10000'], { limit: 10_000 }],
  ])('%j', (argv, expected) => {
    expect(parseActivityArgs(argv)).toMatchObject({ ok: true, ...expected });
  });

  test.each([
    [['memory'], /unknown argument 'memory'/],
    [['--server'], /--server needs a server name/],
    [['--server='], /--server needs a server name/],
    [['--event', 'shell'], /--event is one of/],
    [['--limit', '0'], /--limit needs a whole number/],
    [['--limit', '10001'], /--limit needs a whole number/],
    [['--limit', '1e3'], /--limit needs a whole number/],
    [['--json=yes'], /--json takes no value/],
    [['--follow'], /unknown argument '--follow'/],
  ])('refuses %j', (argv, message) => {
    const parsed = parseActivityArgs(argv);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });
});

const utc = (iso: string): string => iso.slice(0, 19).replace('T', ' ');

const entries: ActivityEntry[] = [
  {
    ts: '2026-12-01T10:00:03.000Z',
    event: 'call',
    server: 'files',
    tool: 'write_file',
    exposedName: 'files__write_file',
    decision: 'approved',
    by: 'user',
    via: 'browser',
    outcome: 'ok',
    durationMs: 12,
  },
  {
    ts: '2026-12-01T10:00:02.000Z',
    event: 'call',
    server: 'files',
    exposedName: 'files__read_file',
    rule: 'files__read_*',
    decision: 'allow',
    by: 'policy',
    via: 'cli',
    outcome: 'ok',
    durationMs: 3,
  },
  {
    ts: '2026-12-01T10:00:01.000Z',
    event: 'policy',
    rule: 'files__read_*',
    decision: 'allow',
    by: 'user',
    via: 'cli',
  },
];

describe('activityText', () => {
  const lines = activityText(entries, { formatTime: utc }).split('\n');

  it('has a cell under every heading, and says who decided in words', () => {
    expect(lines[0]).toMatch(/^TIME\s+EVENT\s+SERVER\s+TOOL\s+DECISION\s+OUTCOME\s+DURATION$/);
    expect(lines[1]).toMatch(
      /^2026-12-01 10:00:03\s+call\s+files\s+files__write_file\s+approved by you on the approval card\s+ok\s+12 ms$/,
    );
    expect(lines[2]).toMatch(
      /^2026-12-01 10:00:02\s+call\s+files\s+files__read_file\s+allowed by policy \(rule files__read_\*\)\s+ok\s+3 ms$/,
    );
    expect(lines[3]).toMatch(
      /^2026-12-01 10:00:01\s+policy\s+-\s+files__read_\*\s+set to allow by you in a terminal\s+-\s+-$/,
    );
    expect(lines.at(-2)).toMatch(/^3 entries, newest first\. Arguments and results are never/);
  });

  it('says when there is nothing, and what was skipped', () => {
    expect(activityText([], { skipped: 2, server: 'memory' })).toBe(
      "No activity recorded for 'memory'.\n2 lines of the log could not be read and were skipped.\n",
    );
    expect(activityText([])).toBe('No activity recorded yet.\n');
  });
});

function captureIo(home: string): CliIo & { readonly stdout: string[]; readonly stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (text) => stdout.push(text),
    err: (text) => stderr.push(text),
    env: { SWITCHYARD_HOME: home },
    platform: 'linux',
  };
}

const PrintedSchema = z.object({ entries: z.array(ActivityEntrySchema), skipped: z.number() });

describe('switchyard activity', () => {
  const home = mkdtempSync(path.join(tmpdir(), 'switchyard-cli-activity-'));
  const line = (n: number, server: string): string =>
    JSON.stringify({
      ts: `2026-12-01T10:00:0${n}.000Z`,
      event: 'call',
      server,
      exposedName: `${server}__t${n}`,
      decision: 'approved',
      via: 'browser',
    });
  writeFileSync(path.join(home, 'audit.jsonl.1'), `${line(1, 'files')}\n${line(2, 'memory')}\n`);
  writeFileSync(
    path.join(home, 'audit.jsonl'),
    `${line(3, 'files')}\nnot json\n${line(4, 'evil\u001b[2Jx')}\n`,
  );

  it('reads both generations newest first, without a host, and never prints an escape', async () => {
    const io = captureIo(home);
    expect(await activity(io, [])).toBe(0);
    const text = io.stdout.join('');
    expect(text).not.toContain('\u001b');
    // The escape sequence is removed by the untrusted-text gate.
    expect(
      text
        .split('\n')
        .slice(1, 5)
        .map((l) => l.split(/\s{2,}/)[3]),
    ).toEqual(['evilx__t4', 'files__t3', 'memory__t2', 'files__t1']);
    expect(text).toContain('1 line of the log could not be read and was skipped.');
  });

  it('filters by server', async () => {
    const io = captureIo(home);
    expect(await activity(io, ['--server', 'files', '--json'])).toBe(0);
    const printed: unknown = JSON.parse(io.stdout.join(''));
    expect(printed).toMatchObject({
      entries: [{ exposedName: 'files__t3', by: 'user' }, { exposedName: 'files__t1' }],
      skipped: 1,
    });
  });

  it('pages through the log for as many entries as --limit asks, past one protocol page', async () => {
    const big = mkdtempSync(path.join(tmpdir(), 'switchyard-cli-activity-'));
    const many = Array.from({ length: 250 }, (_, i) =>
      JSON.stringify({ ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), event: 'call' }),
    );
    writeFileSync(path.join(big, 'audit.jsonl'), `${many.join('\n')}\n`);
    const io = captureIo(big);
    expect(await activity(io, ['--limit', '230', '--json'])).toBe(0);
    const { entries: printed } = PrintedSchema.parse(JSON.parse(io.stdout.join('')));
    expect(printed).toHaveLength(230);
    expect(printed[0]?.ts).toBe(new Date(Date.UTC(2026, 0, 1, 0, 0, 249)).toISOString());
    expect(printed.at(-1)?.ts).toBe(new Date(Date.UTC(2026, 0, 1, 0, 0, 20)).toISOString());
  });

  it('exits 2 with the usage on a bad argument', async () => {
    const io = captureIo(home);
    expect(await activity(io, ['--limit', 'lots'])).toBe(2);
    expect(io.stderr.join('')).toMatch(/usage: switchyard activity/);
  });
});
