import { describe, expect, it } from 'vitest';
import type { CallToolResult, ContentBlock } from '../../protocol/tools';
import { HostError } from '../shared/host-error';
import { gateCallResult, jsonBytesUpperBound } from './result-gate';

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');
const text = (t: string): ContentBlock => ({ type: 'text', text: t });

// Dangerous direction: a bound below the exact size lets a result over the frame budget skip the
// fitting. A bound far above it only costs one serialization.
describe('jsonBytesUpperBound', () => {
  it.each<[string, unknown]>([
    ['plain text', text('hello')],
    ['empty text', text('')],
    ['quotes and backslashes', text('"\\"\\\\'.repeat(50))],
    ['control characters', text('\u0001\u001f\n\t'.repeat(50))],
    ['line separators', text('\u2028\u2029'.repeat(50))],
    ['three-byte characters', text('漢字'.repeat(50))],
    ['astral characters', text('😀'.repeat(50))],
    ['lone surrogates', text('\ud800x\udfff'.repeat(50))],
    ['escapes in keys', { '"\u0000': 'x' }],
    [
      'an embedded resource',
      {
        type: 'resource',
        resource: { uri: 'file:///"é"', mimeType: 'text/plain', text: '\u0007' },
      },
    ],
    ['an image', { type: 'image', data: 'QUJD'.repeat(100), mimeType: 'image/png' }],
  ])('is never below the exact size: %s', (_name, value) => {
    const bound = jsonBytesUpperBound(value);
    expect(bound).toBeDefined();
    expect(bound).toBeGreaterThanOrEqual(bytes(value));
  });

  it.each<[string, unknown]>([
    ['a number', { n: 1 }],
    ['an array', { a: ['x'] }],
    ['an undefined member', { u: undefined }],
    ['null', null],
  ])('gives up on anything but strings and objects: %s', (_name, value) => {
    expect(jsonBytesUpperBound(value)).toBeUndefined();
  });
});

describe('gateCallResult', () => {
  it('sanitizes and redacts every text block, and keeps isError', () => {
    const result: CallToolResult = {
      content: [text('\u001b[31mred\u001b[0m token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB')],
      isError: true,
    };
    const gated = gateCallResult(result);
    const out = gated.content[0];
    expect(out?.type).toBe('text');
    const body = out?.type === 'text' ? out.text : '';
    expect(body).not.toContain('\u001b');
    expect(body).not.toContain('ghp_0123456789abcdefghijklmnopqrstuvwxyzAB');
    expect(gated.isError).toBe(true);
  });

  it('fits a result whose escapes make it exceed the budget, though its length does not', () => {
    // 900 characters, each written as 2 bytes of JSON: the length fits 1,500, the bytes do not.
    const budget = 1_500;
    const gated = gateCallResult({ content: [text('"'.repeat(900))] }, budget);
    expect(bytes(gated)).toBeLessThanOrEqual(budget);
    const out = gated.content[0];
    expect(out?.type === 'text' && out.text.length < 900).toBe(true);
  });

  it('leaves a result that fits exactly as it is', () => {
    const budget = 1_500;
    const body = '漢'.repeat(400); // 1,200 bytes: over a length-times-six bound, under the budget
    const gated = gateCallResult({ content: [text(body)] }, budget);
    expect(gated).toEqual({ content: [text(body)] });
  });

  it('fails with result-too-large when even capped text cannot fit', () => {
    const blocks = Array.from({ length: 50 }, () => text('x'.repeat(500)));
    expect(() => gateCallResult({ content: blocks }, 1_000)).toThrow(HostError);
  });

  it('wraps each text block after fitting, so no cap cuts a closing line', () => {
    const gated = gateCallResult(
      { content: [text('x'.repeat(5_000))] },
      3_000,
      (t) => `<open>${t}<close>`,
    );
    const first = gated.content[0];
    expect(first?.type === 'text' && first.text.startsWith('<open>x')).toBe(true);
    expect(first?.type === 'text' && first.text.endsWith('<close>')).toBe(true);
    expect(bytes(gated)).toBeLessThanOrEqual(3_000);
  });
});

describe('gateCallResult, text in embedded resources and the wrapper of every note', () => {
  const BUDGET = 1_048_576 - 1_024;

  it("caps an embedded text resource's text as it caps a text block's, with the marker", () => {
    const result: CallToolResult = {
      content: [
        { type: 'resource', resource: { uri: 'file:///big.txt', text: 'a'.repeat(2_000_000) } },
      ],
    };
    const fitted = gateCallResult(result, BUDGET);
    expect(bytes(fitted)).toBeLessThanOrEqual(BUDGET);
    const block = fitted.content[0];
    expect(block?.type === 'resource' && 'text' in block.resource && block.resource.text).toMatch(
      /truncated/i,
    );
  });

  it('keeps room for the wrapper of the notes that stand in for images, not only for text', () => {
    // Twenty images too large to keep become twenty notes, each wrapped like text.
    const image = { type: 'image' as const, mimeType: 'image/png', data: 'A'.repeat(600_000) };
    const result: CallToolResult = {
      content: [text('x'.repeat(1_040_000)), ...Array.from({ length: 20 }, () => image)],
    };
    const wrap = (t: string): string =>
      `<untrusted id="0123456789abcdef">\n${t}\n</untrusted id="0123456789abcdef">`.padEnd(
        t.length + 330,
        ' ',
      );
    const fitted = gateCallResult(result, BUDGET, wrap);
    expect(bytes(fitted)).toBeLessThanOrEqual(BUDGET);
  });
});
