import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { SERVER_LOG_MAX_BYTES, ServerLogs, readServerLog, serverLogFile } from './server-logs';

const home = (): string => mkdtempSync(path.join(tmpdir(), 'switchyard-logs-'));
const at = (): Date => new Date('2026-12-01T10:00:00.000Z');

describe('serverLogFile', () => {
  // The dangerous direction: a server name that reaches outside logs/ or shares another's file.
  test.each([
    ['memory', /^memory-[0-9a-f]{8}\.log$/],
    ['../../etc/passwd', /^__\.\._etc_passwd-[0-9a-f]{8}\.log$/],
    ['a/b', /^a_b-[0-9a-f]{8}\.log$/],
    ['..', /^_-[0-9a-f]{8}\.log$/],
    ['日本語', /^___-[0-9a-f]{8}\.log$/],
  ])('%j stays in logs/', (name, expected) => {
    const file = serverLogFile('/h', name);
    expect(path.dirname(file)).toBe(path.join('/h', 'logs'));
    expect(path.basename(file)).toMatch(expected);
  });

  test('names that slug alike get files of their own', () => {
    expect(serverLogFile('/h', 'a/b')).not.toBe(serverLogFile('/h', 'a:b'));
  });
});

describe('ServerLogs', () => {
  test('keeps each server apart, timestamped, one line per line, 0600', async () => {
    const dir = home();
    const logs = new ServerLogs({ home: dir, now: at });
    logs.append('memory', 'listening on stdio');
    logs.append('files', 'allowed: /tmp');
    logs.append('memory', 'two\nlines');
    await logs.flush();
    expect(await readServerLog(dir, 'memory', 10)).toEqual([
      '2026-12-01T10:00:00.000Z listening on stdio',
      '2026-12-01T10:00:00.000Z two lines',
    ]);
    expect(await readServerLog(dir, 'files', 10)).toEqual([
      '2026-12-01T10:00:00.000Z allowed: /tmp',
    ]);
    expect(await readServerLog(dir, 'nobody', 10)).toBeUndefined();
    const file = serverLogFile(dir, 'memory');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test('a flood rotates: the tail spans both generations and disk stays bounded', async () => {
    const dir = home();
    const logs = new ServerLogs({ home: dir, now: at });
    const line = 'x'.repeat(1_000);
    const count = Math.ceil((3 * SERVER_LOG_MAX_BYTES) / line.length);
    for (let i = 0; i < count; i += 1) logs.append('loud', `${i} ${line}`);
    await logs.flush();
    const folder = path.join(dir, 'logs');
    const sizes = readdirSync(folder).map((f) => statSync(path.join(folder, f)).size);
    expect(sizes).toHaveLength(2);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(SERVER_LOG_MAX_BYTES);
    const tail = await readServerLog(dir, 'loud', 3);
    expect(tail?.map((l) => l.split(' ')[1])).toEqual([
      String(count - 3),
      String(count - 2),
      String(count - 1),
    ]);
    expect(await readServerLog(dir, 'loud', 0)).toEqual([]);
  });
});
