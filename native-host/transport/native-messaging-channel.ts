import type { Readable, Writable } from 'node:stream';
import { stageClock } from '../shared/stage-clock';
import {
  FrameDecoder,
  FrameTooLargeError,
  assertFrameCap,
  decodeFramePayload,
  encodeFrame,
} from './frame-codec';

/** Why a {@link NativeMessagingChannel} closed. Delivered once, through `onclose`. */
export type ChannelCloseReason =
  /** The input ended (the browser closed the port), dropping `unconsumedBytes` of a cut frame. */
  | { kind: 'eof'; unconsumedBytes: number }
  /** A length prefix exceeded the incoming cap: the stream is out of sync from here on. */
  | { kind: 'desync'; error: FrameTooLargeError }
  /** The input stream failed, or delivered something other than bytes. */
  | { kind: 'input-error'; error: Error }
  /** The output stream failed (EPIPE when the browser is gone) or closed under us. */
  | { kind: 'output-error'; error: Error }
  /** `close()` was called. */
  | { kind: 'local' };

/** Construction options. Both caps count payload bytes, without the 4-byte header. */
export interface NativeMessagingChannelOptions {
  /** Frames from the browser; process.stdin in production. Must not have an encoding set. */
  input: Readable;
  /** Frames to the browser; process.stdout in production. Nothing else may write to it. */
  output: Writable;
  /** Largest incoming payload; a longer length prefix closes the channel with `desync`. */
  maxIncomingFrameBytes: number;
  /** Largest outgoing payload; `send` refuses longer messages without writing. */
  maxOutgoingFrameBytes: number;
}

interface PendingWrite {
  resolve: () => void;
  reject: (error: Error) => void;
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/**
 * Native messaging over a byte stream pair: one JSON value per frame in each direction.
 *
 * Handlers are called synchronously from stream events and must not throw. `onclose` fires
 * exactly once, whatever the cause; afterwards no handler is called and `send` rejects. Stream
 * errors (EPIPE included) become a close reason, never an uncaught exception. Closing does not end
 * or destroy the output: frames already passed to `send` keep flushing, and `drain()` waits for
 * them.
 */
export class NativeMessagingChannel {
  /** One parsed, unvalidated message. */
  onmessage?: (value: unknown) => void;
  /** A frame that is not UTF-8 JSON. Frame boundaries are intact, so the channel stays open. */
  onparseerror?: (error: Error) => void;
  /** Called once, with the first reason the channel stopped (including `close()` itself). */
  onclose?: (reason: ChannelCloseReason) => void;

  readonly #input: Readable;
  readonly #output: Writable;
  readonly #maxOutgoingFrameBytes: number;
  readonly #decoder: FrameDecoder;
  readonly #pending = new Set<PendingWrite>();
  #drainWaiters: (() => void)[] = [];
  #started = false;
  #closeReason: ChannelCloseReason | undefined;

  /** Throws a RangeError if either cap is not a whole number from 0 to 2^32 - 1. */
  constructor(options: NativeMessagingChannelOptions) {
    assertFrameCap(options.maxOutgoingFrameBytes);
    this.#input = options.input;
    this.#output = options.output;
    this.#maxOutgoingFrameBytes = options.maxOutgoingFrameBytes;
    this.#decoder = new FrameDecoder({ maxFrameBytes: options.maxIncomingFrameBytes });
  }

  /** Starts reading input and watching output. Call once, after setting the handlers. */
  start(): void {
    if (this.#started) throw new Error('NativeMessagingChannel.start() was already called');
    this.#started = true;
    if (this.#closeReason) return;
    this.#input.on('data', this.#onData);
    this.#input.on('end', this.#onEnd);
    // 'close' without 'end': the input was destroyed; treat it as the end of the stream.
    this.#input.on('close', this.#onEnd);
    this.#input.on('error', this.#onInputError);
    this.#output.on('error', this.#onOutputError);
    this.#output.on('close', this.#onOutputClose);
  }

  /**
   * Frames `value` and writes it. Writes happen in call order, at once, so concurrent sends
   * pipeline; the promise resolves when the output has consumed the frame (its write callback ran),
   * so a producer that awaits each send follows the output's backpressure. Rejects without writing
   * anything with {@link FrameTooLargeError} when the payload exceeds the outgoing cap (the
   * channel stays usable: send a smaller error instead), with a TypeError when `value` has no JSON
   * form, and with an Error before start() or after close. Rejects with the stream error if the
   * write fails, which also closes the channel with `output-error`.
   */
  async send(value: unknown): Promise<void> {
    if (!this.#started) throw new Error('call NativeMessagingChannel.start() before send()');
    if (this.#closeReason) {
      throw new Error(`native-messaging channel is closed (${this.#closeReason.kind})`);
    }
    // The frame and its write, synchronous on a pipe on Linux: both are the call's frame-out.
    stageClock?.enter('frame-out');
    let written: Promise<void>;
    try {
      const frame = encodeFrame(value, this.#maxOutgoingFrameBytes);
      written = new Promise<void>((resolve, reject) => {
        const write: PendingWrite = { resolve, reject };
        this.#pending.add(write);
        this.#output.write(frame, (error) => {
          // Already settled if the output failed first.
          if (!this.#pending.delete(write)) return;
          if (error) reject(error);
          else resolve();
          this.#notifyIfDrained();
        });
      });
    } finally {
      stageClock?.leave();
    }
    await written;
  }

  /**
   * Resolves once every frame passed to `send` so far has been consumed by the output, or has
   * failed. Never rejects, so a host can always `await drain()` before exiting.
   */
  drain(): Promise<void> {
    if (this.#pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  /** Stops reading and closes with `local` (if not already closed). Idempotent. */
  close(): void {
    this.#finish({ kind: 'local' });
  }

  readonly #onData = (chunk: unknown): void => {
    if (this.#closeReason) return;
    if (!(chunk instanceof Uint8Array)) {
      // A string chunk means someone set an encoding: bytes were already reinterpreted.
      this.#finish({
        kind: 'input-error',
        error: new TypeError('native-messaging input delivered text; do not set an encoding on it'),
      });
      return;
    }
    stageClock?.enter('frame-in');
    try {
      this.#deliver(chunk);
    } finally {
      stageClock?.leave();
    }
  };

  #deliver(chunk: Uint8Array): void {
    let payloads: Buffer[];
    try {
      payloads = this.#decoder.push(chunk);
    } catch (error) {
      this.#finish(
        error instanceof FrameTooLargeError
          ? { kind: 'desync', error }
          : { kind: 'input-error', error: toError(error) },
      );
      return;
    }
    for (const payload of payloads) {
      // A handler may have closed the channel part-way through this chunk.
      if (this.#isClosed()) return;
      let value: unknown;
      try {
        value = decodeFramePayload(payload);
      } catch (error) {
        this.onparseerror?.(toError(error));
        continue;
      }
      this.onmessage?.(value);
    }
  }

  readonly #onEnd = (): void => {
    this.#finish({ kind: 'eof', unconsumedBytes: this.#decoder.bufferedBytes });
  };

  readonly #onInputError = (error: unknown): void => {
    this.#finish({ kind: 'input-error', error: toError(error) });
  };

  readonly #onOutputError = (error: unknown): void => {
    this.#failPendingWrites(toError(error));
    this.#finish({ kind: 'output-error', error: toError(error) });
  };

  readonly #onOutputClose = (): void => {
    const error = new Error('native-messaging output closed; nothing more can be sent');
    this.#failPendingWrites(error);
    this.#finish({ kind: 'output-error', error });
  };

  /** A method, not a field read, so narrowing does not hide a close made by a handler. */
  #isClosed(): boolean {
    return this.#closeReason !== undefined;
  }

  #failPendingWrites(error: Error): void {
    for (const write of this.#pending) write.reject(error);
    this.#pending.clear();
    this.#notifyIfDrained();
  }

  #notifyIfDrained(): void {
    if (this.#pending.size > 0) return;
    const waiters = this.#drainWaiters;
    this.#drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  #finish(reason: ChannelCloseReason): void {
    if (this.#closeReason) return;
    this.#closeReason = reason;
    this.#input.off('data', this.#onData);
    // Removing the listener does not stop a flowing stream; pausing lets the process exit.
    this.#input.pause();
    // The 'error' listeners stay, as no-ops after close: a later stream error must not go uncaught.
    this.onclose?.(reason);
  }
}
