import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditLog } from './audit-log';

const fixedNow = () => new Date('2026-11-29T12:00:00.000Z');

describe('AuditLog', () => {
  it('appends one JSON line per entry, user-readable only', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sy-audit-')), 'nested', 'audit.jsonl');
    const log = new AuditLog({ file, now: fixedNow });
    log.append({ event: 'call', server: 's', tool: 't', outcome: 'ok', argumentsBytes: 2 });
    log.append({ event: 'call', server: 's', tool: 'u', outcome: 'timeout' });
    await log.flush();
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    expect(lines).toEqual([
      {
        ts: '2026-11-29T12:00:00.000Z',
        event: 'call',
        server: 's',
        tool: 't',
        outcome: 'ok',
        argumentsBytes: 2,
      },
      { ts: '2026-11-29T12:00:00.000Z', event: 'call', server: 's', tool: 'u', outcome: 'timeout' },
    ]);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('rotates to one previous generation at the size cap', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sy-audit-')), 'audit.jsonl');
    const log = new AuditLog({ file, now: fixedNow, maxBytes: 300 });
    for (let i = 0; i < 10; i += 1) log.append({ event: 'call', tool: `tool-${i}` });
    await log.flush();
    expect(statSync(file).size).toBeLessThanOrEqual(300);
    expect(readFileSync(`${file}.1`, 'utf8')).toContain('tool-');
    expect(readFileSync(file, 'utf8')).toContain('tool-9');
  });

  it('never throws when the disk fails, and reports the error', async () => {
    const errors: unknown[] = [];
    const log = new AuditLog({
      file: '/dev/null/cannot/audit.jsonl',
      onError: (e) => errors.push(e),
    });
    log.append({ event: 'call' });
    await log.flush();
    expect(errors.length).toBe(1);
  });
});
