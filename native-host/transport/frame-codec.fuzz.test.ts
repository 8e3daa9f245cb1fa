import { describe, expect, it } from 'vitest';
import { FRAME_HEADER_BYTES, MAX_BROWSER_TO_HOST_FRAME_BYTES } from '../../protocol/limits';
import {
  FUZZ_SEED,
  INVALID_UTF8,
  caseIndexes,
  caseLabel,
  caseRng,
  hostileValue,
  jsonText,
  mutateBytes,
  sameJson,
  type Rng,
} from '../../test/support/fuzz';
import { FrameDecoder, FrameTooLargeError, decodeFramePayload } from './frame-codec';

// Seeded fuzzing of the browser -> host frame decoder (issue 13). The dangerous direction is a
// decoder that reads a frame the browser did not send: a payload cut or joined differently from
// the stream, bytes allocated for a length over the cap, or a stream read on past a bad length.
// Each case is checked against a reference splitter written here from docs/protocol.md alone.

const CASES = 10_000;
const MIB = 1_048_576;
/** A bound on the whole run (about 3 s alone), not a measurement: a shared 2-core machine is slow. */
const RUN_TIMEOUT_MS = 60_000;

function header(length: number): Buffer {
  const bytes = Buffer.alloc(FRAME_HEADER_BYTES);
  bytes.writeUInt32LE(length, 0);
  return bytes;
}

function frame(payload: Buffer): Buffer {
  return Buffer.concat([header(payload.length), payload]);
}

/** One segment of a stream: what a browser, a bug or an attacker might write. */
function segment(rng: Rng, cap: number): Buffer {
  const value = (): Buffer => Buffer.from(jsonText(hostileValue(rng, { large: false })), 'utf8');
  switch (rng.int(10)) {
    case 0:
    case 1:
      return frame(value());
    case 2:
      return frame(Buffer.alloc(0));
    case 3:
      // A valid frame with its payload mutated: invalid UTF-8, broken JSON, or still fine.
      return frame(mutateBytes(rng, value()));
    case 4:
      return frame(Buffer.concat([value(), rng.pick(INVALID_UTF8)]));
    case 5:
      // A frame whose header was mutated: the payload no longer lines up.
      return mutateBytes(rng, frame(value()), 1);
    case 6: {
      // A length around the cap; only the header and a little of the payload are written.
      const length = rng.pick([cap, cap + 1, 0xffff_ffff, 0x8000_0000, MIB + 1, cap - 1]);
      return Buffer.concat([
        header(Math.max(0, Math.min(length, 0xffff_ffff))),
        rng.bytes(rng.int(8)),
      ]);
    }
    case 7:
      // Truncated: a header announcing more than follows.
      return frame(value()).subarray(0, rng.int(FRAME_HEADER_BYTES + 8));
    case 8:
      return rng.bytes(rng.int(12));
    default:
      return frame(Buffer.from(`{"jsonrpc":"2.0","id":${rng.int(100)},"method":"host/hello"}`));
  }
}

interface Reference {
  /** Complete payloads in order, each with the offset of the byte that completed it. */
  payloads: Array<{ bytes: Buffer; completedAt: number }>;
  /** Offset of the last header byte of the first length over the cap, if any. */
  poisonedAt: number | undefined;
  announced: number | undefined;
  /** Bytes of a cut frame left at the end: a partial header, or the payload after a whole one. */
  leftover: number;
}

/** The framing rule of docs/protocol.md, read over the whole stream at once. */
function referenceSplit(stream: Buffer, cap: number): Reference {
  const payloads: Reference['payloads'] = [];
  let offset = 0;
  for (;;) {
    if (stream.length - offset < FRAME_HEADER_BYTES) {
      return {
        payloads,
        poisonedAt: undefined,
        announced: undefined,
        leftover: stream.length - offset,
      };
    }
    const length = stream.readUInt32LE(offset);
    const headerEnd = offset + FRAME_HEADER_BYTES;
    if (length > cap)
      return { payloads, poisonedAt: headerEnd - 1, announced: length, leftover: 0 };
    if (stream.length - headerEnd < length) {
      // A header once read is consumed: what is left is the part of the payload that came.
      return {
        payloads,
        poisonedAt: undefined,
        announced: undefined,
        leftover: stream.length - headerEnd,
      };
    }
    payloads.push({
      bytes: stream.subarray(headerEnd, headerEnd + length),
      completedAt: length === 0 ? headerEnd - 1 : headerEnd + length - 1,
    });
    offset = headerEnd + length;
  }
}

/** Cut points: one chunk, single bytes, or random splits of a few sizes. */
function chunksOf(rng: Rng, stream: Buffer): Buffer[] {
  const mode = rng.int(4);
  if (mode === 0 || stream.length === 0) return [stream];
  if (mode === 1 && stream.length < 256) {
    return Array.from({ length: stream.length }, (_, i) => stream.subarray(i, i + 1));
  }
  // Small pieces for small streams; a long stream in pieces of a few KiB, as a pipe delivers it.
  const largest = stream.length < 4_096 ? rng.pick([3, 16, 256]) : rng.pick([4_096, 65_536]);
  const chunks: Buffer[] = [];
  let at = 0;
  while (at < stream.length) {
    const size = rng.between(1, Math.min(stream.length - at, largest));
    chunks.push(stream.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

/** What a strict UTF-8 + JSON reader makes of a payload: the value, or that it has none. */
function referenceDecode(bytes: Buffer): { ok: true; value: unknown } | { ok: false } {
  let text: string;
  try {
    // ignoreBOM keeps a leading U+FEFF, which is not JSON whitespace: the host must refuse it.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { ok: false };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

interface Outcome {
  payloads: Buffer[];
  error: unknown;
  /** Index of the chunk whose push threw first. */
  thrownAt: number | undefined;
  later: unknown[];
}

function run(decoder: FrameDecoder, chunks: readonly Buffer[]): Outcome {
  const payloads: Buffer[] = [];
  const later: unknown[] = [];
  let error: unknown;
  let thrownAt: number | undefined;
  chunks.forEach((chunk, index) => {
    try {
      const out = decoder.push(chunk);
      if (thrownAt === undefined) payloads.push(...out);
    } catch (caught) {
      if (thrownAt === undefined) {
        error = caught;
        thrownAt = index;
      } else later.push(caught);
    }
  });
  return { payloads, error, thrownAt, later };
}

function caseOf(index: number): { cap: number; stream: Buffer; chunks: Buffer[] } {
  const rng = caseRng(FUZZ_SEED, index);
  // Mostly a small cap, so lengths over it are common and cheap; sometimes the real one.
  const cap = rng.chance(0.25) ? MAX_BROWSER_TO_HOST_FRAME_BYTES : rng.pick([0, 1, 16, 200, 4_096]);
  const parts: Buffer[] = [];
  for (let n = rng.between(1, 6); n > 0; n -= 1) parts.push(segment(rng, cap));
  // A few cases carry a real frame of 1 MiB + 1 bytes: over the host -> browser limit, under
  // the browser -> host one, so it must decode whole.
  if (index % 2_500 === 0) parts.push(frame(Buffer.from(`"${'x'.repeat(MIB - 1)}"`)));
  let stream: Buffer = Buffer.concat(parts);
  if (rng.chance(0.2)) stream = mutateBytes(rng, stream);
  return { cap, stream, chunks: chunksOf(rng, stream) };
}

describe(`frame decoder fuzz (FUZZ_SEED=${FUZZ_SEED}, ${CASES} cases)`, () => {
  it(
    'splits every stream as the framing rule does, however it is chunked',
    () => {
      let poisoned = 0;
      let decoded = 0;
      for (const index of caseIndexes(CASES)) {
        const label = caseLabel(index);
        const { cap, stream, chunks } = caseOf(index);
        const reference = referenceSplit(stream, cap);
        const decoder = new FrameDecoder({ maxFrameBytes: cap });
        const outcome = run(decoder, chunks);

        // The chunk each stream offset arrived in.
        const chunkEnds: number[] = [];
        let end = 0;
        for (const chunk of chunks) chunkEnds.push((end += chunk.length) - 1);
        const chunkOf = (offset: number): number => chunkEnds.findIndex((last) => last >= offset);

        let expected = reference.payloads;
        if (reference.poisonedAt === undefined) {
          expect(outcome.error, label).toBeUndefined();
          expect(decoder.bufferedBytes, label).toBe(reference.leftover);
        } else {
          poisoned += 1;
          const poisonChunk = chunkOf(reference.poisonedAt);
          // Refused as soon as the length is read, with what it announced; payloads completed in
          // the same chunk go with it, earlier ones were already delivered.
          expect(outcome.thrownAt, label).toBe(poisonChunk);
          expect(outcome.error, label).toBeInstanceOf(FrameTooLargeError);
          expect(outcome.error, label).toMatchObject({
            length: reference.announced,
            max: cap,
            direction: 'incoming',
          });
          expected = expected.filter((p) => chunkOf(p.completedAt) < poisonChunk);
          // Poisoned for good: every later push throws the same error, even an empty one.
          expect(
            outcome.later.every((e) => e === outcome.error),
            label,
          ).toBe(true);
          expect(() => decoder.push(new Uint8Array(0)), label).toThrow(FrameTooLargeError);
          expect(decoder.bufferedBytes, label).toBe(0);
        }
        expect(outcome.payloads.length, label).toBe(expected.length);
        outcome.payloads.forEach((payload, at) => {
          expect(
            payload.equals(expected[at]?.bytes ?? Buffer.alloc(0)),
            `${label}: payload ${at}`,
          ).toBe(true);
        });

        for (const payload of outcome.payloads) {
          const want = referenceDecode(payload);
          if (want.ok) {
            expect(sameJson(decodeFramePayload(payload), want.value), label).toBe(true);
            decoded += 1;
          } else {
            expect(() => decodeFramePayload(payload), label).toThrow(/not valid (UTF-8|JSON)/);
          }
        }
      }
      // The generator reaches both sides of every rule, or the run proves little.
      if (caseIndexes(CASES).length === CASES) {
        expect(poisoned).toBeGreaterThan(CASES / 20);
        expect(decoded).toBeGreaterThan(CASES / 5);
      }
    },
    RUN_TIMEOUT_MS,
  );
});
