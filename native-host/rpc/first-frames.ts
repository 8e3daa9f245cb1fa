import type { Readable, Writable } from 'node:stream';
import { HelloParamsSchema, type HostRuntime } from '../../protocol/hello';
import { JsonRpcRequestSchema } from '../../protocol/jsonrpc';
import {
  MAX_BROWSER_TO_HOST_FRAME_BYTES,
  MAX_HOST_TO_BROWSER_FRAME_BYTES,
} from '../../protocol/limits';
import {
  NativeMessagingChannel,
  type ChannelCloseReason,
} from '../transport/native-messaging-channel';
import { helloAnswer, type HelloFacts } from './hello';

/**
 * The browser's side of the host from the first stage on (decision 0030). The first stage opens
 * the channel as soon as it has read the configuration and accepted the caller, and answers the
 * connection's first `host/hello` itself, while the servers spawn and the rest of the host loads.
 * Everything else (any other request, a notification, a hello it would refuse, a frame that is not
 * JSON, the channel closing) waits, in order, until the second stage's dispatcher takes over with
 * {@link FirstFrames.handOver}. Only the happy path is answered here: every refusal and error is
 * the dispatcher's, so the two stages cannot disagree on one.
 */

export interface FrameHandlers {
  onmessage(value: unknown): void;
  onparseerror(error: Error): void;
  onclose(reason: ChannelCloseReason): void;
}

type Waiting =
  | { readonly kind: 'message'; readonly value: unknown }
  | { readonly kind: 'parse-error'; readonly error: Error };

export class FirstFrames {
  readonly channel: NativeMessagingChannel;
  readonly #facts: HelloFacts;
  readonly #waiting: Waiting[] = [];
  #closed: ChannelCloseReason | undefined;
  #helloAnswered = false;
  #target: FrameHandlers | undefined;

  private constructor(channel: NativeMessagingChannel, facts: HelloFacts) {
    this.channel = channel;
    this.#facts = facts;
  }

  /** Opens the channel on the browser's pipes and starts reading. */
  static open(input: Readable, output: Writable, facts: HelloFacts): FirstFrames {
    const channel = new NativeMessagingChannel({
      input,
      output,
      maxIncomingFrameBytes: MAX_BROWSER_TO_HOST_FRAME_BYTES,
      maxOutgoingFrameBytes: MAX_HOST_TO_BROWSER_FRAME_BYTES,
    });
    const frames = new FirstFrames(channel, facts);
    channel.onmessage = (value) => {
      if (frames.#target) frames.#target.onmessage(value);
      else if (!frames.#answerHello(value)) frames.#waiting.push({ kind: 'message', value });
    };
    channel.onparseerror = (error) => {
      if (frames.#target) frames.#target.onparseerror(error);
      else frames.#waiting.push({ kind: 'parse-error', error });
    };
    channel.onclose = (reason) => {
      if (frames.#target) frames.#target.onclose(reason);
      else frames.#closed = reason;
    };
    channel.start();
    return frames;
  }

  /** The Node that runs the host, as the first hello told it; the dispatcher's hellos tell the same. */
  get runtime(): HostRuntime | null {
    return this.#facts.runtime;
  }

  /** Whether the first stage answered a `host/hello` (the dispatcher then accepts requests). */
  get helloAnswered(): boolean {
    return this.#helloAnswered;
  }

  /** Delivers what waited, in arrival order, then every later frame, to `target`. Once. */
  handOver(target: FrameHandlers): void {
    if (this.#target) throw new Error('FirstFrames.handOver() was already called');
    this.#target = target;
    for (const item of this.#waiting.splice(0)) {
      if (item.kind === 'message') target.onmessage(item.value);
      else target.onparseerror(item.error);
    }
    if (this.#closed) target.onclose(this.#closed);
  }

  /**
   * Answers a valid first hello for a supported protocol version, while nothing waits before it
   * (so replies never overtake the requests sent ahead of them). False: left for the dispatcher.
   */
  #answerHello(value: unknown): boolean {
    if (this.#helloAnswered || this.#waiting.length > 0) return false;
    const request = JsonRpcRequestSchema.safeParse(value);
    if (!request.success || request.data.method !== 'host/hello') return false;
    const params = HelloParamsSchema.safeParse(request.data.params);
    if (!params.success) return false;
    const answer = helloAnswer(params.data, this.#facts);
    if (!answer.ok) return false;
    this.#helloAnswered = true;
    this.channel.send({ jsonrpc: '2.0', id: request.data.id, result: answer.result }).catch(() => {
      // The channel closed under the reply: the close reason reaches the second stage.
    });
    return true;
  }
}
