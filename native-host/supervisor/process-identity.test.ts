import { describe, expect, test } from 'vitest';
import { parseProcStat, parsePsLine, processTable } from './process-identity';

// The dangerous error is reading the wrong field: a pid record would then match a process that
// merely reused the pid, or a group that is not the server's.
describe('parseProcStat', () => {
  const rest = 'S 1 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 987654 1000 10';
  test.each([
    { name: 'a plain name', line: `4242 (sleep) ${rest}`, pid: 4242, group: 4242, ticks: 987654 },
    {
      name: 'a name with spaces and parentheses',
      line: `4242 (a) b (c) ${rest}`,
      pid: 4242,
      group: 4242,
      ticks: 987654,
    },
    {
      name: 'a name that looks like fields',
      line: `4242 (x) S 9 9 9) ${rest}`,
      pid: 4242,
      group: 4242,
      ticks: 987654,
    },
  ])('$name', ({ line, pid, group, ticks }) => {
    expect(parseProcStat(line, 1_000_000)).toEqual({
      pid,
      group,
      start: `linux:${ticks}`,
      startedAtMs: 1_000_000_000 + ticks * 10,
    });
  });

  test.each([
    { name: 'empty', line: '' },
    { name: 'no parentheses', line: `4242 sleep ${rest}` },
    { name: 'too few fields', line: '4242 (sleep) S 1 4242' },
    { name: 'a non-numeric start', line: `4242 (sleep) ${rest.replace('987654', 'x')}` },
  ])('not a stat line: $name', ({ line }) => {
    expect(parseProcStat(line, 0)).toBeUndefined();
  });
});

describe('parsePsLine', () => {
  test('reads pid, group and start in the C locale', () => {
    expect(parsePsLine('  812   800 Tue Dec  1 23:55:58 2026')).toEqual({
      pid: 812,
      group: 800,
      start: 'darwin:Tue Dec  1 23:55:58 2026',
      startedAtMs: Date.parse('Tue Dec  1 23:55:58 2026'),
    });
  });
  test.each(['', 'PID PGID STARTED', '812 800', '812 800 not a date'])('not a line: %j', (line) => {
    expect(parsePsLine(line)).toBeUndefined();
  });
});

describe.runIf(process.platform === 'linux')('the Linux process table', () => {
  test('this process: its own group, started before now', async () => {
    const me = await processTable('linux').identityOf(process.pid);
    expect(me?.pid).toBe(process.pid);
    expect(me?.startedAtMs).toBeLessThanOrEqual(Date.now() + 1000);
    expect(me?.startedAtMs).toBeGreaterThan(Date.now() - 24 * 3600 * 1000 * 365);
    const members = await processTable('linux').membersOf(me?.group ?? -1);
    expect(members.map((p) => p.pid)).toContain(process.pid);
  });
  test('a pid that does not exist, and pids that are never read', async () => {
    const table = processTable('linux');
    expect(await table.identityOf(2 ** 30)).toBeUndefined();
    expect(await table.identityOf(1)).toBeUndefined();
    expect(await table.identityOf(-5)).toBeUndefined();
    expect(await table.membersOf(0)).toEqual([]);
  });
});

test('Windows has no table: nothing can be matched, so nothing is reaped', async () => {
  const table = processTable('win32');
  expect(await table.identityOf(process.pid)).toBeUndefined();
  expect(await table.membersOf(process.pid)).toEqual([]);
});
