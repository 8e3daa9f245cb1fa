import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { isJsonRpcMessage } from './jsonrpc-envelope';

/**
 * Longest stdout line accepted from an MCP server, in bytes (excluding the newline). The SDK's
 * own reader drops the whole connection past 10 MB (design D1); we discard just the line.
 */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

const NEWLINE = 0x0a;

export interface LineSplitterOptions {
  /** Longest line delivered, in bytes; longer lines are discarded whole. */
  maxLineBytes?: number;
  /** A complete line, without its `\n`. The buffer may share memory with a pushed chunk. */
  onLine: (line: Buffer) => void;
  /** A line longer than `maxLineBytes` was discarded; `byteLength` is its full length. */
  onOversizedLine: (byteLength: number) => void;
}

/**
 * Splits a byte stream on `\n` with a per-line cap.
 *
 * Contract: lines are delivered in order, each exactly once, via `onLine` or (if longer than
 * `maxLineBytes`) `onOversizedLine`, which is called when the oversized line ends. The bytes of
 * an oversized line are counted, never buffered: memory stays within the cap however long the
 * line. The pieces of a line are kept as they arrive and joined once, at its end, so the cost is
 * linear in the input. A callback that throws does not lose or merge lines: the rest of the chunk
 * is still split, then `push` rethrows the first error.
 */
export class LineSplitter {
  readonly maxLineBytes: number;
  readonly #onLine: (line: Buffer) => void;
  readonly #onOversizedLine: (byteLength: number) => void;
  #pieces: Buffer[] = [];
  #size = 0;
  #discarding = false;

  constructor(options: LineSplitterOptions) {
    const max = options.maxLineBytes ?? MAX_LINE_BYTES;
    if (!Number.isSafeInteger(max) || max <= 0) {
      throw new RangeError(`LineSplitter: maxLineBytes must be a positive integer, got ${max}`);
    }
    this.maxLineBytes = max;
    this.#onLine = options.onLine;
    this.#onOversizedLine = options.onOversizedLine;
  }

  /** Feeds a chunk cut anywhere; calls back once per line the chunk completes. */
  push(chunk: Uint8Array): void {
    const bytes = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    let failure: { error: unknown } | undefined;
    while (start < bytes.length) {
      const newline = bytes.indexOf(NEWLINE, start);
      const end = newline === -1 ? bytes.length : newline;
      this.#take(bytes.subarray(start, end));
      if (newline === -1) break;
      try {
        this.#emit();
      } catch (error) {
        // Finish the chunk first: the lines after it must not be lost or run together.
        failure ??= { error };
      }
      start = newline + 1;
    }
    if (failure) throw failure.error;
  }

  /** Delivers an unterminated last line, if any (call at end of stream). */
  end(): void {
    if (this.#size > 0) this.#emit();
  }

  #take(piece: Buffer): void {
    if (piece.length === 0) return;
    this.#size += piece.length;
    if (this.#discarding) return;
    if (this.#size > this.maxLineBytes) {
      this.#discarding = true;
      this.#pieces = [];
      return;
    }
    this.#pieces.push(piece);
  }

  #emit(): void {
    const discarding = this.#discarding;
    const size = this.#size;
    const pieces = this.#pieces;
    // Reset before calling out, so a throwing callback leaves a clean splitter.
    this.#pieces = [];
    this.#size = 0;
    this.#discarding = false;
    if (discarding) {
      this.#onOversizedLine(size);
      return;
    }
    const line = pieces.length === 1 && pieces[0] ? pieces[0] : Buffer.concat(pieces, size);
    this.#onLine(line);
  }
}

/** One stdout line, classified. Never carries the line's text when it is not a message (D9). */
export type ParsedLine =
  | { kind: 'message'; message: JSONRPCMessage }
  | { kind: 'blank' }
  | { kind: 'invalid-json'; byteLength: number }
  | { kind: 'invalid-message'; byteLength: number };

/**
 * Parses one line as a JSON-RPC 2.0 message by the SDK's definition (jsonrpc-envelope.ts; the
 * SDK's Protocol validates each message again with its schemas). The message is the parsed value
 * itself, not a copy. Whitespace-only lines are `blank`; a trailing `\r` is ignored. Total: never
 * throws.
 */
export function parseJsonRpcLine(line: Buffer | string): ParsedLine {
  const text = typeof line === 'string' ? line : line.toString('utf8');
  if (text.trim() === '') return { kind: 'blank' };
  const byteLength = typeof line === 'string' ? Buffer.byteLength(line, 'utf8') : line.length;
  let value: unknown;
  try {
    value = JSON.parse(text.endsWith('\r') ? text.slice(0, -1) : text);
  } catch {
    return { kind: 'invalid-json', byteLength };
  }
  return isJsonRpcMessage(value)
    ? { kind: 'message', message: value }
    : { kind: 'invalid-message', byteLength };
}

/** Something on a server's stdout that is not a message: reported, skipped, never fatal. */
export type StdoutNoise =
  | { kind: 'oversized-line'; byteLength: number; maxLineBytes: number }
  | { kind: 'invalid-json'; byteLength: number }
  | { kind: 'invalid-message'; byteLength: number };

/**
 * A one-line description of `noise` for logs and the server's status. Sizes only: the line's
 * content is untrusted and may hold secrets, so it is never quoted (design D9).
 */
export function describeNoise(noise: StdoutNoise): string {
  switch (noise.kind) {
    case 'oversized-line':
      return (
        `discarded a stdout line of ${noise.byteLength} bytes, over the ${noise.maxLineBytes}-byte ` +
        'line cap; the connection continues at the next line'
      );
    case 'invalid-json':
      return (
        `skipped a stdout line of ${noise.byteLength} bytes that is not JSON ` +
        '(an MCP server must log to stderr; stdout carries only JSON-RPC)'
      );
    case 'invalid-message':
      return `skipped a stdout line of ${noise.byteLength} bytes that is JSON but not a JSON-RPC 2.0 message`;
  }
}

export interface JsonRpcLineReaderOptions {
  /** Longest line accepted, in bytes; default `MAX_LINE_BYTES`. */
  maxLineBytes?: number;
  onMessage: (message: JSONRPCMessage) => void;
  onNoise: (noise: StdoutNoise) => void;
}

/**
 * Newline-delimited JSON-RPC reader for a server's stdout (the pure codec under
 * `ProcessTransport`). Contract: each valid message goes to `onMessage` in order; blank lines are
 * ignored; oversized, non-JSON and non-JSON-RPC lines go to `onNoise` and are skipped. Nothing
 * the server writes stops the reader (design D1: the SDK's reader drops the connection instead).
 */
export class JsonRpcLineReader {
  readonly #splitter: LineSplitter;

  constructor(options: JsonRpcLineReaderOptions) {
    const { onMessage, onNoise } = options;
    this.#splitter = new LineSplitter({
      ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
      onLine: (line) => {
        const parsed = parseJsonRpcLine(line);
        switch (parsed.kind) {
          case 'message':
            onMessage(parsed.message);
            return;
          case 'blank':
            return;
          case 'invalid-json':
          case 'invalid-message':
            onNoise(parsed);
            return;
        }
      },
      onOversizedLine: (byteLength) => {
        onNoise({ kind: 'oversized-line', byteLength, maxLineBytes: this.#splitter.maxLineBytes });
      },
    });
  }

  /** Feeds a chunk of stdout. */
  push(chunk: Uint8Array): void {
    this.#splitter.push(chunk);
  }

  /** Handles an unterminated last line at end of stream. */
  end(): void {
    this.#splitter.end();
  }
}
