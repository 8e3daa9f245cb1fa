import { describe, expect, test } from 'vitest';
import { HelloResultSchema, PROTOCOL_VERSION, type HostRuntime } from '../../protocol/hello';
import { helloAnswer, type HelloFacts } from './hello';

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
