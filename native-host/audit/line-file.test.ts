import { promises as fsPromises, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LineFile } from './line-file';

// A disk that stops answering (a hung network mount) must cost lines, never unbounded memory:
// the host keeps writing the audit log and every server's log while the first write hangs.

function stalledDisk() {
  let open: () => void = () => undefined;
  const wait = new Promise<void>((resolve) => (open = resolve));
  let appends = 0;
  const fs = {
    ...fsPromises,
    appendFile: async (...args: Parameters<typeof fsPromises.appendFile>): Promise<void> => {
      appends += 1;
      await wait;
      return fsPromises.appendFile(...args);
    },
  };
  return { fs, open, appends: () => appends };
}

describe('LineFile under a stalled disk', () => {
  it('holds at most maxPendingBytes, drops and counts the rest, and marks the gap', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sy-lines-')), 'log.txt');
    const disk = stalledDisk();
    const errors: unknown[] = [];
    const lines = new LineFile({
      file,
      maxBytes: 1024 * 1024,
      fs: disk.fs,
      maxBatchBytes: 1,
      maxPendingBytes: 30,
      gapLine: (dropped) => `[${String(dropped)} dropped]\n`,
      onError: (error) => errors.push(error),
    });
    lines.push(['first\n']); // taken by the first write, which hangs
    await vi.waitFor(() => {
      expect(disk.appends()).toBe(1);
    });
    for (let i = 0; i < 1_000; i += 1) lines.push([`line-${String(i).padStart(4, '0')}\n`]);
    // Three lines of 10 characters fit in 30; the other 997 are dropped, reported once.
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/disk is not keeping up/);
    disk.open();
    await lines.flush();
    lines.push(['after\n']);
    await lines.flush();
    expect(readFileSync(file, 'utf8').split('\n')).toEqual([
      'first',
      'line-0000',
      'line-0001',
      'line-0002',
      '[997 dropped]',
      'after',
      '',
    ]);
    expect(errors).toHaveLength(1);
  });
});
