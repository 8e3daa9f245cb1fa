import { StringDecoder } from 'node:string_decoder';

/** Lines kept by default: enough for a stack trace, small enough to show in a crash report. */
export const DEFAULT_MAX_LINES = 200;
/** Per-line cap by default, in UTF-8 bytes (before the truncation marker). */
export const DEFAULT_MAX_LINE_BYTES = 4 * 1024;
/** Cap on the bytes of all kept lines by default. */
export const DEFAULT_MAX_TOTAL_BYTES = 64 * 1024;

export interface RingBufferOptions {
  /** Most lines kept; older lines are evicted and counted in `droppedLines`. */
  maxLines?: number;
  /** Longest line kept, in UTF-8 bytes; the rest of a longer line is discarded and counted. */
  maxLineBytes?: number;
  /** Most UTF-8 bytes over all kept lines; must be at least `maxLineBytes`. */
  maxTotalBytes?: number;
  /**
   * Applied to each finished line before it is kept and returned (the host's redaction of
   * secrets, which may carry state from line to line: a private key's body). Default: none.
   */
  transform?: (line: string) => string;
}

/**
 * What may be part of a credential (a token's alphabet, base64, a URL's query value): a line cut
 * inside such a run loses the whole run, so no prefix of a token is kept that redaction, which
 * needs the whole token, would miss.
 */
const TOKEN_TAIL = /[A-Za-z0-9_\-+/=.~%]+$/;

const NEWLINE = 0x0a;

/**
 * A bounded ring of the last lines of a byte stream (a server's stderr).
 *
 * Contract: `write` accepts chunks cut anywhere (inside a line or a UTF-8 sequence) and returns
 * the lines those chunks completed; `end` completes the last unterminated line. A line is split
 * on `\n` (a trailing `\r` is removed), capped at `maxLineBytes` with a visible
 * `[… N more bytes]` marker, then kept; the oldest lines are evicted to stay within `maxLines`
 * and `maxTotalBytes`. Memory is bounded by the caps whatever the child writes: the part of a
 * line over the cap is never buffered. Text is kept raw: stderr is untrusted (design D9) and is
 * sanitized where it is shown, not here.
 */
export class RingBuffer {
  readonly maxLines: number;
  readonly maxLineBytes: number;
  readonly maxTotalBytes: number;

  readonly #slots: string[];
  readonly #slotBytes: number[];
  #head = 0;
  #count = 0;
  #totalBytes = 0;
  #droppedLines = 0;
  #truncatedLines = 0;

  // The line being assembled. Splitting on the 0x0a byte is safe before decoding (no UTF-8
  // sequence contains it); the decoder carries a character cut between two chunks.
  readonly #decoder = new StringDecoder('utf8');
  #parts: string[] = [];
  #keptBytes = 0;
  #seenBytes = 0;
  #truncating = false;

  readonly #transform: ((line: string) => string) | undefined;

  constructor(options: RingBufferOptions = {}) {
    this.#transform = options.transform;
    this.maxLines = positiveInteger('maxLines', options.maxLines ?? DEFAULT_MAX_LINES);
    this.maxLineBytes = positiveInteger(
      'maxLineBytes',
      options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    );
    this.maxTotalBytes = positiveInteger(
      'maxTotalBytes',
      options.maxTotalBytes ?? Math.max(DEFAULT_MAX_TOTAL_BYTES, this.maxLineBytes),
    );
    if (this.maxTotalBytes < this.maxLineBytes) {
      throw new RangeError(
        `RingBuffer: maxTotalBytes (${this.maxTotalBytes}) must be at least maxLineBytes (${this.maxLineBytes})`,
      );
    }
    this.#slots = new Array<string>(this.maxLines).fill('');
    this.#slotBytes = new Array<number>(this.maxLines).fill(0);
  }

  /** Lines evicted (by `maxLines` or `maxTotalBytes`) since construction. */
  get droppedLines(): number {
    return this.#droppedLines;
  }

  /** Lines that were cut at `maxLineBytes` since construction. */
  get truncatedLines(): number {
    return this.#truncatedLines;
  }

  /** UTF-8 bytes of the lines currently kept. */
  get byteLength(): number {
    return this.#totalBytes;
  }

  /** Appends a chunk; returns the lines it completed, already capped, oldest first. */
  write(chunk: Uint8Array | string): string[] {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : toBuffer(chunk);
    const completed: string[] = [];
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(NEWLINE, start);
      const end = newline === -1 ? bytes.length : newline;
      this.#append(bytes.subarray(start, end));
      if (newline === -1) break;
      completed.push(this.#finishLine());
      start = newline + 1;
    }
    return completed;
  }

  /** Completes the unterminated last line, if any (call at end of stream); returns it. */
  end(): string[] {
    return this.#seenBytes > 0 ? [this.#finishLine()] : [];
  }

  /** The kept lines, oldest first. */
  lines(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.#count; i++) {
      out.push(this.#slots[(this.#head + i) % this.maxLines] ?? '');
    }
    return out;
  }

  #append(segment: Buffer): void {
    this.#seenBytes += segment.length;
    if (this.#truncating || segment.length === 0) return;
    const room = this.maxLineBytes - this.#keptBytes;
    if (segment.length <= room) {
      this.#parts.push(this.#decoder.write(segment));
      this.#keptBytes += segment.length;
      return;
    }
    // Cut before the lead byte of a character so the kept text does not end in U+FFFD.
    const cut = utf8Boundary(segment, room);
    if (cut > 0) this.#parts.push(this.#decoder.write(segment.subarray(0, cut)));
    this.#keptBytes += cut;
    this.#truncating = true;
  }

  #finishLine(): string {
    // When truncating, whatever the decoder still holds is the head of a character we cut.
    const tail = this.#decoder.end();
    let line = this.#parts.join('') + (this.#truncating ? '' : tail);
    if (this.#truncating) {
      line = line.replace(TOKEN_TAIL, '');
      const marker = `[… ${this.#seenBytes - Buffer.byteLength(line, 'utf8')} more bytes]`;
      line = line === '' ? marker : `${line.trimEnd()} ${marker}`;
      this.#truncatedLines++;
    } else if (line.endsWith('\r')) {
      line = line.slice(0, -1);
    }
    if (this.#transform !== undefined) line = this.#transform(line);
    this.#parts = [];
    this.#keptBytes = 0;
    this.#seenBytes = 0;
    this.#truncating = false;
    this.#store(line);
    return line;
  }

  #store(line: string): void {
    const bytes = Buffer.byteLength(line, 'utf8');
    if (bytes > this.maxTotalBytes) {
      // Only possible when the truncation marker pushes a capped line over a total equal to
      // maxLineBytes; keeping it would break the byte bound.
      this.#droppedLines++;
      return;
    }
    while (
      this.#count > 0 &&
      (this.#count === this.maxLines || this.#totalBytes + bytes > this.maxTotalBytes)
    ) {
      this.#evictOldest();
    }
    const slot = (this.#head + this.#count) % this.maxLines;
    this.#slots[slot] = line;
    this.#slotBytes[slot] = bytes;
    this.#count++;
    this.#totalBytes += bytes;
  }

  #evictOldest(): void {
    this.#totalBytes -= this.#slotBytes[this.#head] ?? 0;
    this.#slots[this.#head] = '';
    this.#slotBytes[this.#head] = 0;
    this.#head = (this.#head + 1) % this.maxLines;
    this.#count--;
    this.#droppedLines++;
  }
}

/** The largest index <= `limit` that does not fall inside a UTF-8 sequence of `bytes`. */
function utf8Boundary(bytes: Buffer, limit: number): number {
  let cut = Math.min(limit, bytes.length);
  // 0b10xxxxxx is a continuation byte: the character started before it.
  while (cut > 0 && cut < bytes.length && ((bytes[cut] ?? 0) & 0xc0) === 0x80) cut--;
  return cut;
}

function toBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk)
    ? chunk
    : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`RingBuffer: ${name} must be a positive integer, got ${value}`);
  }
  return value;
}
