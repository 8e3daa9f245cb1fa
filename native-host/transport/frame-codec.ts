import { isUtf8 } from 'node:buffer';
import { FRAME_HEADER_BYTES } from '../../protocol/limits';
import { messageOf } from '../../protocol/guards';

/** The largest value the 32-bit length prefix can carry. */
const MAX_LENGTH_FIELD = 0xffff_ffff;

/** Which way the refused frame was travelling, so the message can say what to do about it. */
export type FrameDirection = 'incoming' | 'outgoing';

/**
 * A frame longer than the channel's cap. Incoming: the length prefix announced it, nothing was
 * allocated for it, and the stream is out of sync for good. Outgoing: nothing was written, so the
 * caller can still send a smaller message (e.g. a `result-too-large` error) on the same channel.
 */
export class FrameTooLargeError extends Error {
  override readonly name = 'FrameTooLargeError';
  /** Payload bytes of the refused frame (announced by the prefix, or encoded), header excluded. */
  readonly length: number;
  /** The cap it exceeded, in payload bytes. */
  readonly max: number;
  readonly direction: FrameDirection;

  constructor(length: number, max: number, direction: FrameDirection) {
    super(
      direction === 'incoming'
        ? `native-messaging frame announces ${length} bytes, over the ${max}-byte limit; ` +
            'the input stream is out of sync and cannot be read further'
        : `message encodes to ${length} bytes, over the ${max}-byte frame limit; ` +
            'cap the payload before sending it, or send an error in its place',
    );
    this.length = length;
    this.max = max;
    this.direction = direction;
  }
}

/** Throws a RangeError unless `maxFrameBytes` is an integer a 32-bit length can carry. */
export function assertFrameCap(maxFrameBytes: number): void {
  if (!Number.isInteger(maxFrameBytes) || maxFrameBytes < 0 || maxFrameBytes > MAX_LENGTH_FIELD) {
    throw new RangeError(
      `maxFrameBytes must be an integer from 0 to ${MAX_LENGTH_FIELD}, got ${maxFrameBytes}`,
    );
  }
}

/**
 * Splits a native-messaging byte stream (32-bit little-endian length, then that many payload bytes)
 * into payloads. Chunks are kept as a list and copied once, when a frame spanning several of them
 * completes, so decoding is linear in the bytes pushed however the stream is chunked.
 *
 * Returned payloads may share memory with the pushed chunks: do not modify a chunk once pushed.
 */
export class FrameDecoder {
  readonly #maxFrameBytes: number;
  #chunks: Buffer[] = [];
  /** First chunk not fully consumed; consumed ones are dropped at the end of push(). */
  #head = 0;
  /** Bytes of #chunks[#head] already consumed. */
  #offset = 0;
  #buffered = 0;
  /** Payload length announced by the header just read, until that payload is complete. */
  #pendingLength: number | undefined;
  #poisonedBy: FrameTooLargeError | undefined;

  /** @param options.maxFrameBytes largest payload accepted, header excluded. */
  constructor(options: { maxFrameBytes: number }) {
    assertFrameCap(options.maxFrameBytes);
    this.#maxFrameBytes = options.maxFrameBytes;
  }

  /**
   * Adds bytes and returns every payload they complete, in stream order (possibly none). A length
   * of 0 yields an empty payload. Throws {@link FrameTooLargeError} as soon as a length prefix over
   * the cap is read, before allocating for it; payloads completed earlier in the same chunk are
   * discarded with it. From then on the decoder is poisoned: every push throws the same error,
   * because no later byte can be trusted to start a frame.
   */
  push(chunk: Uint8Array): Buffer[] {
    if (this.#poisonedBy) throw this.#poisonedBy;
    if (chunk.byteLength === 0) return [];
    this.#chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.#buffered += chunk.byteLength;

    const payloads: Buffer[] = [];
    for (;;) {
      if (this.#pendingLength === undefined) {
        if (this.#buffered < FRAME_HEADER_BYTES) break;
        const length = this.#readHeader();
        if (length > this.#maxFrameBytes) {
          this.#poison(new FrameTooLargeError(length, this.#maxFrameBytes, 'incoming'));
        }
        this.#pendingLength = length;
      }
      if (this.#buffered < this.#pendingLength) break;
      payloads.push(this.#take(this.#pendingLength));
      this.#pendingLength = undefined;
    }
    // Bytes consumed by this push always reach into the newest chunk, so only that chunk survives
    // the splice: it costs no more than the consumption it follows, and nothing consumed is kept.
    if (this.#head > 0) {
      this.#chunks.splice(0, this.#head);
      this.#head = 0;
    }
    return payloads;
  }

  /** Bytes received but not yet returned: a partial header and/or a partial payload. */
  get bufferedBytes(): number {
    return this.#buffered;
  }

  #poison(error: FrameTooLargeError): never {
    this.#poisonedBy = error;
    this.#chunks = [];
    this.#head = 0;
    this.#offset = 0;
    this.#buffered = 0;
    this.#pendingLength = undefined;
    throw error;
  }

  #readHeader(): number {
    const first = this.#chunkAtHead();
    if (first.length - this.#offset >= FRAME_HEADER_BYTES) {
      const length = first.readUInt32LE(this.#offset);
      this.#advance(first, FRAME_HEADER_BYTES);
      this.#buffered -= FRAME_HEADER_BYTES;
      return length;
    }
    // A header split across chunks costs one 4-byte copy.
    return this.#take(FRAME_HEADER_BYTES).readUInt32LE(0);
  }

  /** Removes `count` buffered bytes; callers check #buffered first. */
  #take(count: number): Buffer {
    if (count === 0) return Buffer.alloc(0);
    const first = this.#chunkAtHead();
    if (first.length - this.#offset >= count) {
      const view = first.subarray(this.#offset, this.#offset + count);
      this.#advance(first, count);
      this.#buffered -= count;
      return view;
    }
    const parts: Buffer[] = [];
    let remaining = count;
    while (remaining > 0) {
      const chunk = this.#chunkAtHead();
      const used = Math.min(chunk.length - this.#offset, remaining);
      parts.push(chunk.subarray(this.#offset, this.#offset + used));
      remaining -= used;
      this.#advance(chunk, used);
    }
    this.#buffered -= count;
    return Buffer.concat(parts, count);
  }

  #advance(chunk: Buffer, used: number): void {
    this.#offset += used;
    if (this.#offset === chunk.length) {
      this.#head += 1;
      this.#offset = 0;
    }
  }

  #chunkAtHead(): Buffer {
    const chunk = this.#chunks[this.#head];
    // Unreachable while #buffered is kept in step with #chunks; fail loudly rather than loop.
    if (chunk === undefined) throw new Error('FrameDecoder: buffered byte count is out of step');
    return chunk;
  }
}

/** lib.d.ts types JSON.stringify as returning string; it returns undefined for undefined,
 * functions and symbols. The declared return type keeps that case visible to the caller. */
function toJson(value: unknown): string | undefined {
  return JSON.stringify(value);
}

/**
 * Encodes `value` as one frame: 4-byte little-endian payload length, then UTF-8 JSON. Throws
 * {@link FrameTooLargeError} when the payload would exceed `maxFrameBytes` (header excluded, as
 * Chromium counts it), and a TypeError when `value` has no JSON form (undefined, a function,
 * a cycle, a BigInt). Measures before allocating the frame.
 */
export function encodeFrame(value: unknown, maxFrameBytes: number): Buffer {
  assertFrameCap(maxFrameBytes);
  const json = toJson(value);
  if (json === undefined) {
    throw new TypeError(`a ${typeof value} has no JSON form and cannot be sent as a frame`);
  }
  // Well-formed UTF-8 is guaranteed: JSON.stringify escapes lone surrogates (ES2019).
  const length = Buffer.byteLength(json, 'utf8');
  if (length > maxFrameBytes) throw new FrameTooLargeError(length, maxFrameBytes, 'outgoing');
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + length);
  frame.writeUInt32LE(length, 0);
  frame.write(json, FRAME_HEADER_BYTES, 'utf8');
  return frame;
}

/**
 * Parses one payload as UTF-8 JSON and returns the value, unvalidated. Throws an Error naming the
 * problem when the bytes are not valid UTF-8 or not JSON (an empty payload is not JSON); the
 * stream itself is still in sync, so the caller may keep reading.
 */
export function decodeFramePayload(payload: Uint8Array): unknown {
  // Buffer#toString would silently turn invalid bytes into U+FFFD and accept the frame.
  if (!isUtf8(payload)) throw new Error('frame payload is not valid UTF-8');
  const text = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const detail = messageOf(error);
    throw new Error(`frame payload is not valid JSON (${payload.byteLength} bytes): ${detail}`, {
      cause: error,
    });
  }
}
