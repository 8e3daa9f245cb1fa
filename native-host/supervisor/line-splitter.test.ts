import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import {
  JsonRpcLineReader,
  LineSplitter,
  describeNoise,
  parseJsonRpcLine,
  type StdoutNoise,
} from './line-splitter';

type Event = { line: string } | { oversized: number };

function splitter(maxLineBytes?: number): { s: LineSplitter; events: Event[] } {
  const events: Event[] = [];
  const s = new LineSplitter({
    ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
    onLine: (line) => events.push({ line: line.toString('utf8') }),
    onOversizedLine: (bytes) => events.push({ oversized: bytes }),
  });
  return { s, events };
}

describe('LineSplitter', () => {
  it('delivers lines cut at every chunk boundary, in order', () => {
    const input = Buffer.from('alpha\nbeta\n\ngamma ✓\n', 'utf8');
    for (let cut = 0; cut <= input.length; cut++) {
      const { s, events } = splitter();
      s.push(input.subarray(0, cut));
      s.push(input.subarray(cut));
      expect(events).toEqual([
        { line: 'alpha' },
        { line: 'beta' },
        { line: '' },
        { line: 'gamma ✓' },
      ]);
    }
  });

  it('delivers an unterminated last line at end()', () => {
    const { s, events } = splitter();
    s.push(Buffer.from('one\ntwo'));
    expect(events).toEqual([{ line: 'one' }]);
    s.end();
    s.end();
    expect(events).toEqual([{ line: 'one' }, { line: 'two' }]);
  });

  // The dangerous direction: accepting more than the cap lets a server grow host memory.
  it.each([
    { length: 7, expected: [{ line: 'x'.repeat(7) }] },
    { length: 8, expected: [{ line: 'x'.repeat(8) }] },
    { length: 9, expected: [{ oversized: 9 }] },
  ])('caps a line at 8 bytes: $length bytes', ({ length, expected }) => {
    const { s, events } = splitter(8);
    s.push(Buffer.from('x'.repeat(length) + '\n'));
    expect(events).toEqual(expected);
  });

  it('discards an oversized line fed in many chunks and resumes at the next line', () => {
    const { s, events } = splitter(1024);
    s.push(Buffer.from('before\n'));
    for (let i = 0; i < 5000; i++) s.push(Buffer.alloc(1000, 0x78));
    s.push(Buffer.from('tail\nafter\n'));
    expect(events).toEqual([{ line: 'before' }, { oversized: 5_000_004 }, { line: 'after' }]);
  });

  it('reports an oversized unterminated line at end()', () => {
    const { s, events } = splitter(4);
    s.push(Buffer.from('ok\nlonger'));
    s.end();
    expect(events).toEqual([{ line: 'ok' }, { oversized: 6 }]);
  });

  it('joins a line delivered one byte at a time', () => {
    const { s, events } = splitter();
    const line = 'y'.repeat(100_000);
    for (const byte of Buffer.from(line + '\n')) s.push(Uint8Array.of(byte));
    expect(events).toEqual([{ line }]);
  });

  it('stays consistent when a callback throws', () => {
    let calls = 0;
    const lines: string[] = [];
    const s = new LineSplitter({
      onLine: (line) => {
        calls++;
        if (calls === 1) throw new Error('boom');
        lines.push(line.toString());
      },
      onOversizedLine: () => undefined,
    });
    expect(() => {
      s.push(Buffer.from('first\nsec'));
    }).toThrow('boom');
    s.push(Buffer.from('ond\n'));
    expect(lines).toEqual(['second']);
  });

  it('rejects a cap that is not a positive integer', () => {
    expect(() => splitter(0)).toThrow(RangeError);
    expect(() => splitter(1.5)).toThrow(RangeError);
  });
});

describe('parseJsonRpcLine', () => {
  it.each([
    ['request', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'],
    ['notification', '{"jsonrpc":"2.0","method":"notifications/initialized"}'],
    ['result', '{"jsonrpc":"2.0","id":"a","result":{}}'],
    ['error', '{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"nope"}}'],
    ['CRLF-terminated', '{"jsonrpc":"2.0","id":1,"result":{}}\r'],
  ])('accepts a %s', (_name, line) => {
    expect(parseJsonRpcLine(line).kind).toBe('message');
  });

  it.each([
    ['empty', '', 'blank'],
    ['spaces', '   \t', 'blank'],
    ['CR only', '\r', 'blank'],
    ['a log line', 'Server listening on stdio', 'invalid-json'],
    ['truncated JSON', '{"jsonrpc":"2.0","id":1', 'invalid-json'],
    ['JSON string', '"hello"', 'invalid-message'],
    ['JSON number', '42', 'invalid-message'],
    ['object without jsonrpc', '{"id":1,"method":"x"}', 'invalid-message'],
    ['wrong version', '{"jsonrpc":"1.0","id":1,"method":"x"}', 'invalid-message'],
    ['batch array', '[{"jsonrpc":"2.0","method":"x"}]', 'invalid-message'],
  ])('classifies %s', (_name, line, kind) => {
    expect(parseJsonRpcLine(line).kind).toBe(kind);
  });

  it('reports the byte length of a skipped line', () => {
    expect(parseJsonRpcLine(Buffer.from('héllo'))).toEqual({ kind: 'invalid-json', byteLength: 6 });
  });
});

describe('describeNoise', () => {
  it.each<StdoutNoise>([
    { kind: 'oversized-line', byteLength: 20_000_000, maxLineBytes: 16_777_216 },
    { kind: 'invalid-json', byteLength: 12 },
    { kind: 'invalid-message', byteLength: 3 },
  ])('describes $kind with its size', (noise) => {
    expect(describeNoise(noise)).toContain(String(noise.byteLength));
  });
});

describe('JsonRpcLineReader', () => {
  it('delivers messages around garbage, blank and oversized lines, and reports only sizes', () => {
    const messages: JSONRPCMessage[] = [];
    const noise: StdoutNoise[] = [];
    const reader = new JsonRpcLineReader({
      maxLineBytes: 100,
      onMessage: (m) => messages.push(m),
      onNoise: (n) => noise.push(n),
    });
    const secret = 'sk-live-DO-NOT-LOG';
    reader.push(Buffer.from(`${secret}\n\n{"jsonrpc":"2.0","id":1,"result":{}}\n`));
    reader.push(Buffer.from('z'.repeat(500)));
    reader.push(Buffer.from(`\n{"token":"${secret}"}\n{"jsonrpc":"2.0","method":"ping"}`));
    reader.end();
    expect(messages).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', method: 'ping' },
    ]);
    expect(noise.map((n) => n.kind)).toEqual(['invalid-json', 'oversized-line', 'invalid-message']);
    expect(noise.map(describeNoise).join('\n')).not.toContain(secret);
  });
});
