import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, test, vi } from 'vitest';
import {
  FRAME_HEADER_BYTES,
  MAX_BROWSER_TO_HOST_FRAME_BYTES,
  MAX_HOST_TO_BROWSER_FRAME_BYTES,
} from '../../protocol/limits';
import { FrameDecoder, FrameTooLargeError, decodeFramePayload, encodeFrame } from './frame-codec';

const MIB = 1_048_576;

function header(length: number): Buffer {
  const bytes = Buffer.alloc(FRAME_HEADER_BYTES);
  bytes.writeUInt32LE(length, 0);
  return bytes;
}

function frameOf(value: unknown): Buffer {
  return encodeFrame(value, MAX_BROWSER_TO_HOST_FRAME_BYTES);
}

/** Pushes each chunk in turn and returns every payload, decoded as JSON. */
function decodeAll(decoder: FrameDecoder, chunks: readonly Uint8Array[]): unknown[] {
  return chunks
    .flatMap((chunk) => decoder.push(chunk))
    .map((payload) => decodeFramePayload(payload));
}

function bytesOneAtATime(bytes: Buffer): Buffer[] {
  return Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('encodeFrame', () => {
  it('writes a little-endian payload length, then UTF-8 JSON', () => {
    const frame = encodeFrame({ a: 'é' }, 100);
    const json = '{"a":"é"}';
    expect(frame.readUInt32LE(0)).toBe(Buffer.byteLength(json));
    expect(frame.subarray(FRAME_HEADER_BYTES).toString('utf8')).toBe(json);
  });

  test.each([
    ['an ASCII string', 'hello'],
    ['an emoji', '😀 🚂'],
    ['CJK text', '転轍機の操車場'],
    ['a lone surrogate (JSON.stringify escapes it)', '\ud800'],
    ['null', null],
    ['nested values', { id: 1, params: { list: [1, 'two', { three: 3 }], ok: true } }],
  ])('round-trips %s', (_name, value) => {
    const frame = encodeFrame(value, MAX_HOST_TO_BROWSER_FRAME_BYTES);
    expect(decodeAll(new FrameDecoder({ maxFrameBytes: MIB }), [frame])).toEqual([value]);
  });

  // Chromium drops the whole port one byte over its host -> browser limit (design.md section 4):
  // the dangerous direction is accepting a frame it will refuse.
  test.each([
    ['exactly the cap', MAX_HOST_TO_BROWSER_FRAME_BYTES, true],
    ['one byte over the cap', MAX_HOST_TO_BROWSER_FRAME_BYTES + 1, false],
  ])('a payload of %s', (_name, payloadBytes, accepted) => {
    // A JSON string of n - 2 ASCII characters is n bytes once quoted.
    const value = 'x'.repeat(payloadBytes - 2);
    if (accepted) {
      const frame = encodeFrame(value, MAX_HOST_TO_BROWSER_FRAME_BYTES);
      expect(frame.length).toBe(FRAME_HEADER_BYTES + payloadBytes);
    } else {
      expect(() => encodeFrame(value, MAX_HOST_TO_BROWSER_FRAME_BYTES)).toThrow(FrameTooLargeError);
    }
  });

  it('counts UTF-8 bytes, not UTF-16 units, against the cap', () => {
    // 4 emoji = 8 UTF-16 units but 16 UTF-8 bytes; with quotes the payload is 18 bytes.
    const value = '😀😀😀😀';
    expect(encodeFrame(value, 18).length).toBe(FRAME_HEADER_BYTES + 18);
    expect(() => encodeFrame(value, 17)).toThrow(
      expect.objectContaining({ name: 'FrameTooLargeError', length: 18, max: 17 }),
    );
  });

  it('refuses before allocating the frame', () => {
    const allocUnsafe = vi.spyOn(Buffer, 'allocUnsafe');
    expect(() => encodeFrame('x'.repeat(100), 10)).toThrow(FrameTooLargeError);
    expect(allocUnsafe).not.toHaveBeenCalled();
  });

  test.each([
    ['undefined', undefined],
    ['a function', () => 1],
    ['a symbol', Symbol('s')],
    ['a BigInt', 1n],
  ])('throws a TypeError for %s', (_name, value) => {
    expect(() => encodeFrame(value, MIB)).toThrow(TypeError);
  });

  test.each([-1, 1.5, Number.NaN, 2 ** 32])('rejects a cap of %s', (cap) => {
    expect(() => encodeFrame('x', cap)).toThrow(RangeError);
  });
});

describe('FrameDecoder', () => {
  const chinese = frameOf({ text: '操車場' });
  const emoji = frameOf('😀');
  // The emoji's 4 UTF-8 bytes sit after the header and the opening quote.
  const emojiStart = FRAME_HEADER_BYTES + 1;

  const chunkings: [name: string, chunks: Uint8Array[], values: unknown[]][] = [
    ['a whole frame in one chunk', [chinese], [{ text: '操車場' }]],
    ['the header one byte at a time', [...bytesOneAtATime(chinese)], [{ text: '操車場' }]],
    [
      'several frames merged in one chunk',
      [Buffer.concat([frameOf(1), frameOf('two'), frameOf({ three: 3 })])],
      [1, 'two', { three: 3 }],
    ],
    [
      'a frame plus part of the next, then the rest',
      [
        Buffer.concat([frameOf('first'), frameOf('second').subarray(0, 6)]),
        frameOf('second').subarray(6),
      ],
      ['first', 'second'],
    ],
    [
      'a header split 1 + 3 across chunks',
      [chinese.subarray(0, 1), chinese.subarray(1, 4), chinese.subarray(4)],
      [{ text: '操車場' }],
    ],
    ...[1, 2, 3].map((cut): [string, Uint8Array[], unknown[]] => [
      `an emoji split after its byte ${cut}`,
      [emoji.subarray(0, emojiStart + cut), emoji.subarray(emojiStart + cut)],
      ['😀'],
    ]),
  ];
  test.each(chunkings)('decodes %s', (_name, chunks, expected) => {
    expect(decodeAll(new FrameDecoder({ maxFrameBytes: MIB }), chunks)).toEqual(expected);
  });

  it('returns payloads as soon as they are complete, and holds only the remainder', () => {
    const decoder = new FrameDecoder({ maxFrameBytes: MIB });
    const second = frameOf('second');
    expect(decoder.push(Buffer.concat([frameOf('first'), second.subarray(0, 2)]))).toHaveLength(1);
    expect(decoder.bufferedBytes).toBe(2);
    expect(decoder.push(second.subarray(2, 7))).toEqual([]);
    expect(decoder.bufferedBytes).toBe(7 - FRAME_HEADER_BYTES);
    expect(decoder.push(second.subarray(7)).map((p) => decodeFramePayload(p))).toEqual(['second']);
    expect(decoder.bufferedBytes).toBe(0);
  });

  it('treats a length of 0 as an empty payload', () => {
    const decoder = new FrameDecoder({ maxFrameBytes: MIB });
    const payloads = decoder.push(Buffer.concat([header(0), header(0), frameOf('next')]));
    expect(payloads.map((p) => p.length)).toEqual([0, 0, 6]);
    // An empty payload is not JSON; the caller reports it and reads on.
    expect(() => decodeFramePayload(payloads[0]!)).toThrow(/not valid JSON/);
  });

  it('ignores an empty chunk', () => {
    const decoder = new FrameDecoder({ maxFrameBytes: MIB });
    expect(decoder.push(new Uint8Array(0))).toEqual([]);
    expect(decoder.bufferedBytes).toBe(0);
  });

  it('accepts a plain Uint8Array that is a view into a larger buffer', () => {
    const frame = frameOf('view');
    const backing = new Uint8Array(frame.length + 10);
    backing.set(frame, 5);
    const view = new Uint8Array(backing.buffer, 5, frame.length);
    expect(decodeAll(new FrameDecoder({ maxFrameBytes: MIB }), [view])).toEqual(['view']);
  });

  // The dangerous direction is accepting a length over the cap: the host would allocate (or wait
  // for) up to 4 GiB on the word of one corrupted header.
  describe('length cap', () => {
    test.each([
      ['exactly the cap', MIB, true],
      ['one byte over', MIB + 1, false],
      ['0xFFFFFFFF', 0xffff_ffff, false],
    ])('a length prefix of %s with a 1 MiB cap', (_name, length, accepted) => {
      const decoder = new FrameDecoder({ maxFrameBytes: MIB });
      if (accepted) {
        expect(decoder.push(header(length))).toEqual([]);
        const payloads = decoder.push(Buffer.alloc(length, 0x20));
        expect(payloads).toHaveLength(1);
        // Buffer#equals, not toEqual: a deep comparison of 1 MiB takes seconds.
        expect(payloads[0]!.equals(Buffer.alloc(length, 0x20))).toBe(true);
      } else {
        expect(() => decoder.push(header(length))).toThrow(
          expect.objectContaining({ name: 'FrameTooLargeError', length, max: MIB }),
        );
      }
    });

    it('refuses at the header, before allocating anything for the payload', () => {
      const allocations = [
        vi.spyOn(Buffer, 'alloc'),
        vi.spyOn(Buffer, 'allocUnsafe'),
        vi.spyOn(Buffer, 'allocUnsafeSlow'),
        vi.spyOn(Buffer, 'concat'),
      ];
      const decoder = new FrameDecoder({ maxFrameBytes: MIB });
      // Split, so the refusal happens on the push that completes the header.
      expect(decoder.push(Uint8Array.of(0xff, 0xff))).toEqual([]);
      expect(() => decoder.push(Uint8Array.of(0xff, 0xff, 0x7b))).toThrow(FrameTooLargeError);
      const largest = Math.max(
        0,
        ...allocations.flatMap((spy) =>
          spy.mock.results.map((r) => (Buffer.isBuffer(r.value) ? r.value.length : 0)),
        ),
      );
      expect(largest).toBeLessThanOrEqual(FRAME_HEADER_BYTES);
      expect(decoder.bufferedBytes).toBe(0);
    });

    it('stays poisoned after a refusal, even for well-formed frames', () => {
      const decoder = new FrameDecoder({ maxFrameBytes: 16 });
      const thrownBy = (chunk: Uint8Array): unknown => {
        try {
          decoder.push(chunk);
        } catch (error) {
          return error;
        }
        return undefined;
      };
      const refusal = thrownBy(Buffer.concat([frameOf('ok'), header(17), frameOf('later')]));
      expect(refusal).toBeInstanceOf(FrameTooLargeError);
      expect(thrownBy(frameOf('ok'))).toBe(refusal);
      expect(thrownBy(new Uint8Array(0))).toBe(refusal);
    });

    test.each([-1, 0.5, 2 ** 32])('rejects a cap of %s', (cap) => {
      expect(() => new FrameDecoder({ maxFrameBytes: cap })).toThrow(RangeError);
    });
  });

  describe('cost', () => {
    it('lets go of chunks once their frames are returned', async () => {
      // A long-lived host pushes millions of chunks: holding consumed ones would leak them all.
      setFlagsFromString('--expose-gc');
      const exposed: unknown = runInNewContext('gc');
      if (typeof exposed !== 'function') throw new Error('could not expose the garbage collector');
      const gc = (): void => {
        Reflect.apply(exposed, undefined, []);
      };
      const decoder = new FrameDecoder({ maxFrameBytes: MIB });
      const pushOwned = (bytes: Buffer): WeakRef<ArrayBuffer> => {
        const owned = new Uint8Array(new ArrayBuffer(bytes.length));
        owned.set(bytes);
        decoder.push(owned);
        return new WeakRef(owned.buffer);
      };
      const frame = frameOf('spread over chunks');
      const consumed = [pushOwned(frame.subarray(0, 3)), pushOwned(frame.subarray(3, 9))];
      pushOwned(frame.subarray(9));
      // Keep a partial frame buffered, so the decoder is not simply empty.
      const held = pushOwned(frameOf('pending').subarray(0, 6));
      // WeakRef targets stay alive until the current job ends.
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      expect(consumed.map((ref) => ref.deref())).toEqual([undefined, undefined]);
      expect(held.deref()).toBeDefined();
      expect(decoder.bufferedBytes).toBe(2);
    });

    it('decodes 10,000 frames in one chunk without copying any of them', () => {
      const count = 10_000;
      const chunk = Buffer.concat(Array.from({ length: count }, (_, i) => frameOf({ i })));
      const concat = vi.spyOn(Buffer, 'concat');
      const values = decodeAll(new FrameDecoder({ maxFrameBytes: MIB }), [chunk]);
      expect(values).toEqual(Array.from({ length: count }, (_, i) => ({ i })));
      // Each payload is a view of the chunk: the work per frame does not grow with the chunk.
      expect(concat).not.toHaveBeenCalled();
    });

    it('joins a 60 MB frame from 64 KiB chunks once, when it completes', () => {
      const payloadBytes = 60_000_000;
      const chunkBytes = 64 * 1024;
      const frame = Buffer.alloc(FRAME_HEADER_BYTES + payloadBytes, 0x61);
      frame.writeUInt32LE(payloadBytes, 0);
      const decoder = new FrameDecoder({ maxFrameBytes: MAX_BROWSER_TO_HOST_FRAME_BYTES });
      const concat = vi.spyOn(Buffer, 'concat');
      const payloads: Buffer[] = [];
      for (let start = 0; start < frame.length; start += chunkBytes) {
        const chunk = frame.subarray(start, start + chunkBytes);
        const completed = decoder.push(chunk);
        if (start + chunkBytes < frame.length) {
          expect(completed).toEqual([]);
          expect(decoder.bufferedBytes).toBe(start + chunk.length - FRAME_HEADER_BYTES);
        }
        payloads.push(...completed);
      }
      expect(payloads).toHaveLength(1);
      expect(payloads[0]!.length).toBe(payloadBytes);
      expect(payloads[0]!.equals(frame.subarray(FRAME_HEADER_BYTES))).toBe(true);
      expect(concat).toHaveBeenCalledTimes(1);
      expect(decoder.bufferedBytes).toBe(0);
    });
  });
});

describe('decodeFramePayload', () => {
  test.each([
    ['invalid UTF-8', Buffer.from([0x22, 0xff, 0xfe, 0x22]), /not valid UTF-8/],
    ['a truncated multi-byte character', Buffer.from([0x22, 0xe6, 0x93, 0x22]), /not valid UTF-8/],
    ['text that is not JSON', Buffer.from('{"unterminated":'), /not valid JSON/],
    ['an empty payload', Buffer.alloc(0), /not valid JSON/],
  ])('refuses %s', (_name, payload, message) => {
    expect(() => decodeFramePayload(payload)).toThrow(message);
  });

  it('parses any JSON value, unvalidated', () => {
    expect(decodeFramePayload(Buffer.from('[1,"二",{"x":null}]'))).toEqual([1, '二', { x: null }]);
  });
});
