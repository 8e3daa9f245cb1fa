import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../protocol/hello';
import { decodeFramePayload, encodeFrame, FrameDecoder } from '../transport/frame-codec';
import type { ChannelCloseReason } from '../transport/native-messaging-channel';
import { FirstFrames } from './first-frames';

const MIB = 1_048_576;
const FACTS = {
  version: '9.9.9',
  home: '/home/me/.config/switchyard',
  configWarnings: ['w1'],
  runtime: { node: '20.20.2', endOfLife: '2026-04-30', ended: true, suggested: 24 },
};
const client = { name: 'test', version: '1' };
const hello = (id: number, protocolVersion = PROTOCOL_VERSION) => ({
  jsonrpc: '2.0',
  id,
  method: 'host/hello',
  params: { protocolVersion, client },
});

function harness(facts: typeof FACTS = FACTS) {
  const input = new PassThrough();
  const output = new PassThrough();
  const decoder = new FrameDecoder({ maxFrameBytes: MIB });
  const replies: unknown[] = [];
  output.on('data', (chunk: Buffer) => {
    for (const payload of decoder.push(chunk)) replies.push(decodeFramePayload(payload));
  });
  const frames = FirstFrames.open(input, output, facts);
  const send = (value: unknown): void => {
    input.write(encodeFrame(value, MIB));
  };
  const seen: Array<{ message: unknown } | { parseError: string } | { close: string }> = [];
  const target = {
    onmessage: (value: unknown) => {
      seen.push({ message: value });
    },
    onparseerror: (error: Error) => {
      seen.push({ parseError: error.message });
    },
    onclose: (reason: ChannelCloseReason) => {
      seen.push({ close: reason.kind });
    },
  };
  return { input, frames, replies, send, seen, target };
}

const settle = (): Promise<void> =>
  new Promise((resolve) => {
    setImmediate(resolve);
  });

describe('FirstFrames', () => {
  it('answers the first hello itself, with what the handler would say', async () => {
    const { frames, replies, send, seen, target } = harness();
    send(hello(1));
    await settle();
    expect(replies).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        result: {
          protocolVersion: PROTOCOL_VERSION,
          host: { name: 'switchyard', version: '9.9.9' },
          home: FACTS.home,
          configWarnings: ['w1'],
          runtime: FACTS.runtime,
        },
      },
    ]);
    expect(frames.helloAnswered).toBe(true);
    frames.handOver(target);
    expect(seen).toEqual([]);
  });

  it('answers a first hello whose warnings would not fit one frame, with as many as fit', async () => {
    // 30,000 warnings of 100 characters: 3 MB, three times what the browser takes in one frame.
    const configWarnings = Array.from({ length: 30_000 }, (_, i) => `w${String(i)}`.padEnd(100));
    const { replies, send } = harness({ ...FACTS, configWarnings });
    send(hello(1));
    await settle();
    expect(replies).toHaveLength(1);
    const { result } = replies[0] as { result: { configWarnings: string[] } };
    expect(result.configWarnings).toHaveLength(200);
    expect(result.configWarnings.at(-1)).toBe(
      "...and 29801 more configuration warnings; 'switchyard doctor' shows them.",
    );
  });

  it('keeps everything else, in order, for the dispatcher, and a later hello too', async () => {
    const { frames, replies, send, seen, target, input } = harness();
    const list = { jsonrpc: '2.0', id: 2, method: 'servers/list' };
    send(hello(1));
    send(list);
    send(hello(3));
    input.write(Buffer.from([3, 0, 0, 0, 0x7b, 0x7b, 0x7b]));
    input.end();
    await settle();
    expect(replies).toHaveLength(1);
    frames.handOver(target);
    expect(seen).toEqual([
      { message: list },
      { message: hello(3) },
      { parseError: expect.any(String) as unknown as string },
      { close: 'eof' },
    ]);
    // From now on frames go straight to the second stage.
    expect(() => {
      frames.handOver(target);
    }).toThrow(/already/);
  });

  it.each([
    ['a wrong protocol version', hello(1, PROTOCOL_VERSION + 1)],
    ['malformed params', { jsonrpc: '2.0', id: 1, method: 'host/hello', params: { client } }],
    ['a notification', { jsonrpc: '2.0', method: 'host/hello', params: hello(1).params }],
    ['not JSON-RPC', { id: 1, method: 'host/hello', params: hello(1).params }],
  ])('leaves a hello it would refuse (%s) to the dispatcher', async (_case, message) => {
    const { frames, replies, send, seen, target } = harness();
    send(message);
    await settle();
    expect(replies).toEqual([]);
    expect(frames.helloAnswered).toBe(false);
    frames.handOver(target);
    expect(seen).toEqual([{ message }]);
  });

  it('does not answer a hello that arrives behind another request', async () => {
    const { frames, replies, send, seen, target } = harness();
    const list = { jsonrpc: '2.0', id: 1, method: 'servers/list' };
    send(list);
    send(hello(2));
    await settle();
    expect(replies).toEqual([]);
    expect(frames.helloAnswered).toBe(false);
    frames.handOver(target);
    expect(seen).toEqual([{ message: list }, { message: hello(2) }]);
  });
});
