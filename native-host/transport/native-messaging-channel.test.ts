import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it, test } from 'vitest';
import { FRAME_HEADER_BYTES, MAX_HOST_TO_BROWSER_FRAME_BYTES } from '../../protocol/limits';
import { FrameDecoder, FrameTooLargeError, decodeFramePayload, encodeFrame } from './frame-codec';
import {
  type ChannelCloseReason,
  NativeMessagingChannel,
  type NativeMessagingChannelOptions,
} from './native-messaging-channel';

const MIB = 1_048_576;

function frameOf(value: unknown): Buffer {
  return encodeFrame(value, MIB);
}

function rawFrame(payload: Buffer): Buffer {
  const header = Buffer.alloc(FRAME_HEADER_BYTES);
  header.writeUInt32LE(payload.length, 0);
  return Buffer.concat([header, payload]);
}

function header(length: number): Buffer {
  const bytes = Buffer.alloc(FRAME_HEADER_BYTES);
  bytes.writeUInt32LE(length, 0);
  return bytes;
}

/** Lets stream events queued by the last writes run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function errorOf(reason: ChannelCloseReason | undefined): Error | undefined {
  return reason !== undefined && 'error' in reason ? reason.error : undefined;
}

function decodeFrames(chunks: readonly Buffer[]): unknown[] {
  const decoder = new FrameDecoder({ maxFrameBytes: MIB });
  return chunks.flatMap((chunk) => decoder.push(chunk)).map((p) => decodeFramePayload(p));
}

/** A writable that consumes one chunk per macrotask, so writes queue up behind a small mark. */
function slowWritable(received: Buffer[]): Writable {
  return new Writable({
    highWaterMark: 16,
    write(chunk: unknown, _encoding, callback) {
      if (Buffer.isBuffer(chunk)) received.push(chunk);
      setImmediate(callback);
    },
  });
}

function harness(options: Partial<NativeMessagingChannelOptions> = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const written: Buffer[] = [];
  output.on('data', (chunk: Buffer) => written.push(chunk));
  const channel = new NativeMessagingChannel({
    input,
    output,
    maxIncomingFrameBytes: MIB,
    maxOutgoingFrameBytes: MAX_HOST_TO_BROWSER_FRAME_BYTES,
    ...options,
  });
  const messages: unknown[] = [];
  const parseErrors: Error[] = [];
  const closes: ChannelCloseReason[] = [];
  channel.onmessage = (value) => messages.push(value);
  channel.onparseerror = (error) => parseErrors.push(error);
  channel.onclose = (reason) => closes.push(reason);
  channel.start();
  return { input, output, written, channel, messages, parseErrors, closes };
}

describe('NativeMessagingChannel input', () => {
  it('delivers each frame as its JSON value, in order, however the input is chunked', async () => {
    const { input, messages, closes } = harness();
    input.write(Buffer.concat([frameOf({ id: 1 }), frameOf('二')]));
    const third = frameOf([3, '😀']);
    input.write(third.subarray(0, 2));
    input.write(third.subarray(2, 9));
    input.write(third.subarray(9));
    await settle();
    expect(messages).toEqual([{ id: 1 }, '二', [3, '😀']]);
    expect(closes).toEqual([]);
  });

  it('reports frames that are not UTF-8 JSON and keeps reading', async () => {
    const { input, messages, parseErrors, closes } = harness();
    input.write(rawFrame(Buffer.from('{"jsonrpc":')));
    input.write(rawFrame(Buffer.from([0x22, 0xff, 0x22])));
    input.write(header(0));
    input.write(frameOf({ ok: true }));
    await settle();
    expect(parseErrors.map((e) => e.message)).toEqual([
      expect.stringMatching(/not valid JSON/),
      expect.stringMatching(/not valid UTF-8/),
      expect.stringMatching(/not valid JSON/),
    ]);
    expect(messages).toEqual([{ ok: true }]);
    expect(closes).toEqual([]);
  });

  it('closes with desync on a length prefix over the cap, and reads nothing after it', async () => {
    const { input, messages, closes } = harness({ maxIncomingFrameBytes: 16 });
    input.write(frameOf('before'));
    input.write(header(17));
    input.write(frameOf('after'));
    await settle();
    input.end();
    await settle();
    expect(messages).toEqual(['before']);
    expect(closes).toMatchObject([{ kind: 'desync', error: { length: 17, max: 16 } }]);
    expect(errorOf(closes[0])).toBeInstanceOf(FrameTooLargeError);
  });

  it('closes with eof exactly once when the input ends', async () => {
    const { input, channel, closes } = harness();
    input.end();
    await settle();
    input.destroy();
    channel.close();
    await settle();
    expect(closes).toEqual([{ kind: 'eof', unconsumedBytes: 0 }]);
  });

  it('reports the bytes of a frame cut short by eof', async () => {
    const { input, messages, closes } = harness();
    input.end(frameOf('truncated').subarray(0, 7));
    await settle();
    expect(messages).toEqual([]);
    expect(closes).toEqual([{ kind: 'eof', unconsumedBytes: 7 - FRAME_HEADER_BYTES }]);
  });

  it('closes with input-error when the input fails', async () => {
    const { input, closes } = harness();
    input.destroy(new Error('read EIO'));
    await settle();
    expect(closes).toEqual([{ kind: 'input-error', error: new Error('read EIO') }]);
  });

  it('closes with input-error when the input has an encoding set', async () => {
    const { input, messages, closes } = harness();
    input.setEncoding('utf8');
    input.write(frameOf('text'));
    await settle();
    expect(messages).toEqual([]);
    expect(closes).toMatchObject([{ kind: 'input-error' }]);
    expect(errorOf(closes[0])).toBeInstanceOf(TypeError);
  });

  it('stops delivering the rest of a chunk when a handler closes the channel', async () => {
    const { input, channel, messages, closes } = harness();
    channel.onmessage = (value) => {
      messages.push(value);
      channel.close();
    };
    input.write(Buffer.concat([frameOf(1), frameOf(2)]));
    input.write(frameOf(3));
    await settle();
    expect(messages).toEqual([1]);
    expect(closes).toEqual([{ kind: 'local' }]);
  });
});

describe('NativeMessagingChannel output', () => {
  it('writes each value as one frame', async () => {
    const { channel, written } = harness();
    await channel.send({ jsonrpc: '2.0', id: 1, result: { text: '操車場' } });
    await channel.send(null);
    await settle();
    expect(decodeFrames(written)).toEqual([
      { jsonrpc: '2.0', id: 1, result: { text: '操車場' } },
      null,
    ]);
  });

  it('refuses a value over the outgoing cap without writing, and stays usable', async () => {
    const { channel, output, written, closes } = harness({ maxOutgoingFrameBytes: 8 });
    await expect(channel.send('x'.repeat(7))).rejects.toBeInstanceOf(FrameTooLargeError);
    expect(output.writableLength).toBe(0);
    await settle();
    expect(written).toEqual([]);
    await channel.send('small');
    await settle();
    expect(decodeFrames(written)).toEqual(['small']);
    expect(closes).toEqual([]);
  });

  it('rejects a value with no JSON form', async () => {
    const { channel } = harness();
    await expect(channel.send(undefined)).rejects.toBeInstanceOf(TypeError);
  });

  it('orders concurrent sends behind a slow output, each resolving once consumed', async () => {
    const received: Buffer[] = [];
    const output = slowWritable(received);
    const channel = new NativeMessagingChannel({
      input: new PassThrough(),
      output,
      maxIncomingFrameBytes: MIB,
      maxOutgoingFrameBytes: MIB,
    });
    channel.start();
    const count = 200;
    const consumedWhenResolved: number[] = [];
    const sends = Array.from({ length: count }, (_, i) =>
      channel.send({ i }).then(() => {
        consumedWhenResolved.push(received.length);
        expect(received.length).toBeGreaterThan(i);
      }),
    );
    // The writable is past its mark: the excess waits in its buffer rather than being dropped.
    expect(output.writableNeedDrain).toBe(true);
    await Promise.all(sends);
    expect(decodeFrames(received)).toEqual(Array.from({ length: count }, (_, i) => ({ i })));
    expect(consumedWhenResolved).toHaveLength(count);
  });

  it('lets an awaiting producer follow backpressure one frame at a time', async () => {
    const received: Buffer[] = [];
    const output = slowWritable(received);
    const channel = new NativeMessagingChannel({
      input: new PassThrough(),
      output,
      maxIncomingFrameBytes: MIB,
      maxOutgoingFrameBytes: MIB,
    });
    channel.start();
    for (let i = 0; i < 50; i += 1) {
      expect(output.writableLength).toBe(0);
      await channel.send('x'.repeat(100));
    }
    expect(received).toHaveLength(50);
  });

  it('drains every queued frame, even after close', async () => {
    const received: Buffer[] = [];
    const channel = new NativeMessagingChannel({
      input: new PassThrough(),
      output: slowWritable(received),
      maxIncomingFrameBytes: MIB,
      maxOutgoingFrameBytes: MIB,
    });
    await channel.drain();
    channel.start();
    const sends = Array.from({ length: 30 }, (_, i) => channel.send(i));
    channel.close();
    await expect(channel.send('late')).rejects.toThrow(/closed \(local\)/);
    expect(received.length).toBeLessThan(30);
    await channel.drain();
    expect(decodeFrames(received)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    await Promise.all(sends);
  });

  it('turns a failed write into one output-error close and a rejected send', async () => {
    const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    const output = new Writable({
      write(_chunk, _encoding, callback) {
        callback(epipe);
      },
    });
    const closes: ChannelCloseReason[] = [];
    const channel = new NativeMessagingChannel({
      input: new PassThrough(),
      output,
      maxIncomingFrameBytes: MIB,
      maxOutgoingFrameBytes: MIB,
    });
    channel.onclose = (reason) => closes.push(reason);
    channel.start();
    const first = channel.send('one');
    const second = channel.send('two');
    await expect(first).rejects.toBe(epipe);
    await expect(second).rejects.toThrow();
    await channel.drain();
    await settle();
    expect(closes).toEqual([{ kind: 'output-error', error: epipe }]);
    await expect(channel.send('three')).rejects.toThrow(/closed \(output-error\)/);
  });

  it('closes with output-error when the output is destroyed under it', async () => {
    const { channel, output, closes } = harness();
    output.destroy();
    await settle();
    expect(closes).toMatchObject([{ kind: 'output-error' }]);
    await expect(channel.send('x')).rejects.toThrow(/closed/);
  });
});

describe('NativeMessagingChannel over a real pipe', () => {
  const children: ReturnType<typeof spawn>[] = [];
  afterEach(() => {
    for (const child of children) child.kill('SIGKILL');
    children.length = 0;
  });

  it('survives EPIPE when the reader has closed its end', async () => {
    // The reader closes stdin but stays alive, as a browser that dropped the port might.
    const child = spawn(
      process.execPath,
      [
        '-e',
        'require("fs").closeSync(0); process.stdout.write("closed"); setTimeout(() => {}, 30000)',
      ],
      { stdio: ['pipe', 'pipe', 'ignore'] },
    );
    children.push(child);
    const { stdin, stdout } = child;
    await once(stdout, 'data');

    const closes: ChannelCloseReason[] = [];
    const channel = new NativeMessagingChannel({
      input: new PassThrough(),
      output: stdin,
      maxIncomingFrameBytes: MIB,
      maxOutgoingFrameBytes: MIB,
    });
    channel.onclose = (reason) => closes.push(reason);
    channel.start();
    await expect(channel.send('x'.repeat(1000))).rejects.toMatchObject({ code: 'EPIPE' });
    await channel.drain();
    await settle();
    expect(closes).toMatchObject([{ kind: 'output-error', error: { code: 'EPIPE' } }]);
  });
});

describe('NativeMessagingChannel lifecycle', () => {
  it('closes locally exactly once, and ignores input afterwards', async () => {
    const { input, channel, messages, closes } = harness();
    channel.close();
    channel.close();
    input.write(frameOf('ignored'));
    input.end();
    await settle();
    expect(messages).toEqual([]);
    expect(closes).toEqual([{ kind: 'local' }]);
  });

  test.each([
    ['incoming', { maxIncomingFrameBytes: -1, maxOutgoingFrameBytes: MIB }],
    ['outgoing', { maxIncomingFrameBytes: MIB, maxOutgoingFrameBytes: 2 ** 32 }],
  ])('refuses an impossible %s cap at construction', (_name, caps) => {
    expect(
      () =>
        new NativeMessagingChannel({
          input: new PassThrough(),
          output: new PassThrough(),
          ...caps,
        }),
    ).toThrow(RangeError);
  });

  it('refuses a second start and a send before start', async () => {
    const channel = new NativeMessagingChannel({
      input: new PassThrough(),
      output: new PassThrough(),
      maxIncomingFrameBytes: MIB,
      maxOutgoingFrameBytes: MIB,
    });
    await expect(channel.send('early')).rejects.toThrow(/start\(\)/);
    channel.start();
    expect(() => {
      channel.start();
    }).toThrow(/already/);
  });
});
