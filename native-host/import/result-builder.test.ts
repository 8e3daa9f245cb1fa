import { describe, expect, it, test } from 'vitest';
import { convertStdio, type EntryOutcome } from './convert-entry';
import { ResultBuilder, sanitizeServerName } from './result-builder';
import type { Dialect } from './variables';

/**
 * Server names from foreign files, and one entry per name. Dangerous direction: two different
 * servers merged under one name, or a name whose invisible characters make it look like another.
 */

const literal: Dialect = { label: 'Claude Desktop', launchVariables: 'literal', predefined: [] };
const linux = { homedir: '/home/alex', platform: 'linux' as const };

function ok(outcome: EntryOutcome) {
  if (!outcome.ok) throw new Error(`expected a conversion, got: ${outcome.reason}`);
  return outcome.entry;
}

describe('names', () => {
  test.each<[string, string | undefined]>([
    ['github', 'github'],
    ['  padded  ', 'padded'],
    ['zero\u200bwidth', 'zerowidth'],
    ['\u202eevil', 'evil'],
    ['x'.repeat(70), 'x'.repeat(64)],
    ['\u200b', undefined],
    ['', undefined],
    ['__proto__', undefined],
    ['日本語のサーバー', '日本語のサーバー'],
  ])('%j -> %j', (raw, expected) => {
    expect(sanitizeServerName(raw)).toBe(expected);
  });

  it('keeps one entry per name: an identical repeat is dropped, a different one reported', () => {
    const builder = new ResultBuilder(literal);
    const a = ok(convertStdio({ command: 'a' }, literal, linux));
    builder.add('s', { ok: true, entry: a, notes: [] });
    builder.add('s', { ok: true, entry: a, notes: [] }, 'project "/p"');
    builder.add('s\u200b', { ok: true, entry: { ...a, command: 'b' }, notes: [] }, 'project "/q"');
    const result = builder.result();
    expect(result.entries).toHaveLength(1);
    expect(result.problems).toEqual([
      {
        name: 's',
        reason:
          'cannot convert: another server named "s" in this file (project "/q") runs something else; rename one of them in Claude Desktop to import both',
      },
    ]);
  });

  it('reads at most 256 servers from one file', () => {
    const builder = new ResultBuilder(literal);
    const a = ok(convertStdio({ command: 'a' }, literal, linux));
    for (let i = 0; i < 300; i++) builder.add(`s${i}`, { ok: true, entry: a, notes: [] });
    const result = builder.result();
    expect(result.entries).toHaveLength(256);
    expect(result.problems).toEqual([
      { reason: 'only the first 256 servers were read; 44 more were left out' },
    ]);
  });
});
