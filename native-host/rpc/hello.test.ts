import { describe, expect, test } from 'vitest';
import { HelloResultSchema, PROTOCOL_VERSION, type HostRuntime } from '../../protocol/hello';
import {
  MAX_HELLO_WARNING_CHARS,
  MAX_HELLO_WARNINGS,
  helloAnswer,
  helloWarnings,
  type HelloFacts,
} from './hello';

const client = { name: 'test', version: '1' };
const ended: HostRuntime = { node: '20.20.2', endOfLife: '2026-04-30', ended: true, suggested: 24 };
const facts = (runtime: HostRuntime | null): HelloFacts => ({
  version: '1.2.3',
  home: '/home/me/.config/switchyard',
  configWarnings: ['config.json: "x": command is missing'],
  runtime,
});

describe('helloAnswer', () => {
  test.each<[string, HostRuntime | null, Record<string, unknown>]>([
    ['an ended Node is told as it is', ended, { runtime: ended }],
    [
      'a maintained Node too',
      { node: '26.10.0', endOfLife: '2029-04-30', ended: false, suggested: 22 },
      { runtime: { node: '26.10.0', endOfLife: '2029-04-30', ended: false, suggested: 22 } },
    ],
    ['an unreadable version leaves the field out', null, {}],
  ])('%s', (_name, runtime, expected) => {
    const answer = helloAnswer({ protocolVersion: PROTOCOL_VERSION, client }, facts(runtime));
    if (!answer.ok) throw answer.error;
    // What the extension parses: the answer passes the result schema as sent.
    expect(HelloResultSchema.parse(answer.result)).toEqual({
      protocolVersion: PROTOCOL_VERSION,
      host: { name: 'switchyard', version: '1.2.3' },
      home: '/home/me/.config/switchyard',
      configWarnings: ['config.json: "x": command is missing'],
      ...expected,
    });
    expect('runtime' in answer.result).toBe(runtime !== null);
  });

  test('refuses another protocol version, whatever the runtime', () => {
    const answer = helloAnswer({ protocolVersion: PROTOCOL_VERSION + 1, client }, facts(ended));
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.reason).toBe('protocol-mismatch');
    expect(answer.error.details).toEqual({ supported: [PROTOCOL_VERSION] });
  });
});

describe('helloWarnings', () => {
  const lines = (count: number, length = 10): string[] =>
    Array.from({ length: count }, (_, i) => `w${String(i)}`.padEnd(length, '.'));
  test.each<[string, string[], number, string | undefined]>([
    ['none', [], 0, undefined],
    [
      'as many as the count allows, all of them',
      lines(MAX_HELLO_WARNINGS),
      MAX_HELLO_WARNINGS,
      undefined,
    ],
    [
      'one more than the count: the last line says two were left out',
      lines(MAX_HELLO_WARNINGS + 1),
      MAX_HELLO_WARNINGS,
      "...and 2 more configuration warnings; 'switchyard doctor' shows them.",
    ],
    [
      'over the characters: cut where they run out',
      lines(10, MAX_HELLO_WARNING_CHARS / 4),
      5,
      "...and 6 more configuration warnings; 'switchyard doctor' shows them.",
    ],
    [
      'one line over the characters alone',
      lines(1, MAX_HELLO_WARNING_CHARS + 1),
      1,
      "...and 1 more configuration warning; 'switchyard doctor' shows them.",
    ],
  ])('%s', (_name, warnings, length, last) => {
    const shown = helloWarnings(warnings);
    expect(shown).toHaveLength(length);
    if (last !== undefined) expect(shown.at(-1)).toBe(last);
    else expect(shown).toEqual(warnings);
  });
});
