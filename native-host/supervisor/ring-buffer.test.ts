import { describe, expect, it } from 'vitest';
import { RingBuffer } from './ring-buffer';

/** Feeds `input` split at every position in `cuts`, then ends the stream. */
function feed(buffer: RingBuffer, input: Buffer, cuts: number[]): string[] {
  const out: string[] = [];
  let start = 0;
  for (const cut of [...cuts, input.length]) {
    out.push(...buffer.write(input.subarray(start, cut)));
    start = cut;
  }
  out.push(...buffer.end());
  return out;
}

describe('RingBuffer: splitting and decoding', () => {
  it('splits on newlines and carries a partial last line to the next chunk', () => {
    const buffer = new RingBuffer();
    expect(buffer.write('one\ntw')).toEqual(['one']);
    expect(buffer.write('o\nthr')).toEqual(['two']);
    expect(buffer.write('ee')).toEqual([]);
    expect(buffer.lines()).toEqual(['one', 'two']);
    expect(buffer.end()).toEqual(['three']);
    expect(buffer.end()).toEqual([]);
    expect(buffer.lines()).toEqual(['one', 'two', 'three']);
  });

  it('keeps blank lines and strips a CR before the newline', () => {
    const buffer = new RingBuffer();
    expect(buffer.write('a\r\n\nb\r\n')).toEqual(['a', '', 'b']);
  });

  it('decodes a multi-byte character cut at every possible chunk boundary', () => {
    const text = 'héllo wörld ✓ 😀\nnext ✓\n';
    const bytes = Buffer.from(text, 'utf8');
    for (let cut = 1; cut < bytes.length; cut++) {
      const buffer = new RingBuffer();
      expect(feed(buffer, bytes, [cut])).toEqual(['héllo wörld ✓ 😀', 'next ✓']);
    }
  });

  it('decodes a character delivered one byte at a time', () => {
    const bytes = Buffer.from('😀✓\n', 'utf8');
    const buffer = new RingBuffer();
    expect(feed(buffer, bytes, [1, 2, 3, 4, 5, 6])).toEqual(['😀✓']);
  });

  it('replaces invalid UTF-8 instead of throwing', () => {
    const buffer = new RingBuffer();
    expect(buffer.write(Buffer.from([0x61, 0xff, 0x62, 0x0a]))).toEqual(['a\ufffdb']);
  });
});

describe('RingBuffer: bounds', () => {
  it('keeps the last maxLines lines and counts the evicted ones', () => {
    const buffer = new RingBuffer({ maxLines: 3 });
    buffer.write('1\n2\n3\n4\n5\n');
    expect(buffer.lines()).toEqual(['3', '4', '5']);
    expect(buffer.droppedLines).toBe(2);
  });

  it('truncates a long line with a marker giving the omitted size', () => {
    const buffer = new RingBuffer({ maxLineBytes: 8 });
    expect(buffer.write('ab cd ef gh ij\nok\n')).toEqual(['ab cd [… 8 more bytes]', 'ok']);
    expect(buffer.truncatedLines).toBe(1);
  });

  it('drops the cut run of token characters whole: no prefix of a secret is kept', () => {
    // Redaction needs a whole token: "ghp_" and 36 more characters. A cap inside one must not
    // keep its first 30, which no rule recognises and which leave only a few characters to guess.
    const token = `ghp_${'a1B2'.repeat(9)}`;
    const buffer = new RingBuffer({ maxLineBytes: 30 });
    expect(buffer.write(`token=${token}\n`)).toEqual(['[… 46 more bytes]']);
    expect(buffer.write(`Authorization: Bearer ${token}\n`)).toEqual([
      'Authorization: Bearer [… 40 more bytes]',
    ]);
  });

  it('truncates across chunks without buffering the excess', () => {
    const buffer = new RingBuffer({ maxLineBytes: 5, maxTotalBytes: 1000 });
    for (let i = 0; i < 1000; i++) buffer.write('x '.repeat(500));
    expect(buffer.write('\n')).toEqual([`x x [… ${1_000_000 - 4} more bytes]`]);
  });

  it('never cuts inside a character when truncating', () => {
    // 'é' is 2 bytes: a 4-byte cap falls inside the second one.
    const buffer = new RingBuffer({ maxLineBytes: 4 });
    expect(buffer.write('aéé\n')).toEqual(['aé [… 2 more bytes]']);
  });

  it('applies its transform to each finished line, in order, before keeping it', () => {
    let seen = 0;
    const buffer = new RingBuffer({ transform: (line) => `${String((seen += 1))}:${line}` });
    expect(buffer.write('a\nb\n')).toEqual(['1:a', '2:b']);
    expect(buffer.lines()).toEqual(['1:a', '2:b']);
  });

  it('never cuts inside a character split across chunks', () => {
    const bytes = Buffer.from('aé€z\n', 'utf8'); // a(1) é(2) €(3) z(1)
    for (let cap = 1; cap <= 7; cap++) {
      for (let cut = 1; cut < bytes.length; cut++) {
        const [line] = feed(new RingBuffer({ maxLineBytes: cap }), bytes, [cut]);
        expect(line).toBeDefined();
        expect(line).not.toContain('\ufffd');
      }
    }
  });

  it('evicts the oldest lines to stay under maxTotalBytes', () => {
    const buffer = new RingBuffer({ maxLines: 100, maxLineBytes: 4, maxTotalBytes: 10 });
    buffer.write('aaaa\nbbbb\ncccc\n');
    expect(buffer.lines()).toEqual(['bbbb', 'cccc']);
    expect(buffer.byteLength).toBe(8);
    expect(buffer.droppedLines).toBe(1);
  });

  it('stays within both caps whatever it is fed', () => {
    const buffer = new RingBuffer({ maxLines: 7, maxLineBytes: 50, maxTotalBytes: 200 });
    let seed = 1;
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 48271) % 2147483647;
      const length = seed % 120;
      buffer.write('é'.repeat(length) + (seed % 3 === 0 ? '' : '\n'));
      expect(buffer.lines().length).toBeLessThanOrEqual(7);
      expect(buffer.byteLength).toBeLessThanOrEqual(200);
    }
    const bytes = buffer.lines().reduce((sum, line) => sum + Buffer.byteLength(line), 0);
    expect(bytes).toBe(buffer.byteLength);
  });

  it('rejects caps that cannot hold', () => {
    expect(() => new RingBuffer({ maxLines: 0 })).toThrow(RangeError);
    expect(() => new RingBuffer({ maxLineBytes: 100, maxTotalBytes: 10 })).toThrow(RangeError);
  });
});
