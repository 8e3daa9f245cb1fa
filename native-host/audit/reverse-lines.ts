/**
 * Reads a file of `\n`-terminated lines backwards, newest (last) line first, in fixed-size
 * chunks, so the newest entries of a large log are found without reading the rest. Each line
 * comes with the byte offset it starts at, which is stable: the files read here only grow, and
 * rotation renames a file without changing its bytes.
 *
 * Hostile files are expected: a line longer than `maxLineBytes` is reported as `oversized` with
 * only its first `maxLineBytes` bytes kept, so a file with no newline at all costs bounded memory.
 * Empty lines are passed over.
 */

/** The part of `fs.promises.FileHandle` the reader uses. */
export interface PositionalReader {
  read(
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ bytesRead: number }>;
}

export interface RawLine {
  /** Offset of the line's first byte in the file. */
  readonly start: number;
  /** The line without its `\n`; only its first `maxLineBytes` bytes when `oversized`. */
  readonly bytes: Buffer;
  readonly oversized: boolean;
}

export interface ReverseLinesOptions {
  /** Bytes read per step. */
  readonly chunkBytes: number;
  readonly maxLineBytes: number;
  /** Called with the size of every chunk read, before its lines are yielded (a scan budget). */
  readonly onRead?: (bytes: number) => void;
}

const NEWLINE = 0x0a;

/**
 * Yields the lines that end at or before `end` (a file size, or the start of a line), last first.
 * A file that does not end in `\n` yields its unterminated last line too.
 */
export async function* linesBefore(
  file: PositionalReader,
  end: number,
  options: ReverseLinesOptions,
): AsyncGenerator<RawLine> {
  const { chunkBytes, maxLineBytes } = options;
  let position = end;
  // The bytes read so far of the line that began before `position`: from `position` to its end
  // (at most its first `maxLineBytes`: the ones nearest its start are the ones kept).
  let tail = Buffer.alloc(0);
  let tailOversized = false;
  while (position > 0) {
    const size = Math.min(chunkBytes, position);
    position -= size;
    const chunk = await readAt(file, position, size);
    options.onRead?.(size);
    const buffer = tail.length === 0 ? chunk : Buffer.concat([chunk, tail]);
    // Walk the buffer's newlines from the end: each is the byte before a complete line.
    let cut = buffer.length;
    while (cut > 0) {
      const newline = buffer.lastIndexOf(NEWLINE, cut - 1);
      if (newline === -1) break;
      const spansTail = cut === buffer.length;
      const line = buffer.subarray(newline + 1, cut);
      cut = newline;
      if (line.length === 0) continue;
      yield lineAt(position + newline + 1, line, spansTail && tailOversized, maxLineBytes);
    }
    const rest = buffer.subarray(0, cut);
    tailOversized = (cut === buffer.length && tailOversized) || rest.length > maxLineBytes;
    tail = Buffer.from(rest.subarray(0, maxLineBytes));
  }
  if (tail.length > 0) yield lineAt(0, tail, tailOversized, maxLineBytes);
}

function lineAt(start: number, bytes: Buffer, truncated: boolean, maxLineBytes: number): RawLine {
  const oversized = truncated || bytes.length > maxLineBytes;
  return { start, bytes: oversized ? bytes.subarray(0, maxLineBytes) : bytes, oversized };
}

/**
 * Reads `size` bytes at `position`. A file cut short meanwhile leaves zeros, which read as part
 * of a line that is not JSON (skipped by the caller) rather than shift every later offset.
 */
export async function readAt(
  file: PositionalReader,
  position: number,
  size: number,
): Promise<Buffer> {
  const buffer = Buffer.alloc(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await file.read(buffer, filled, size - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer;
}
