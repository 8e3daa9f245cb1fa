import { seededRandom } from './seeded-random';

/**
 * Shared pieces of the seeded fuzz suites (issue 13; docs/testing.md, "Fuzzing"). Every case is
 * generated from the run's seed and its own index alone, so a failure names both and
 * `FUZZ_SEED=<seed> FUZZ_CASE=<index>` replays exactly that case.
 */

/** The seed every fuzz suite uses unless `FUZZ_SEED` says otherwise (the number). */
export const DEFAULT_FUZZ_SEED = 13;

function envInteger(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, got '${raw}'`);
  }
  return value;
}

/** The seed of this run: `FUZZ_SEED`, or {@link DEFAULT_FUZZ_SEED}. */
export const FUZZ_SEED: number = envInteger('FUZZ_SEED') ?? DEFAULT_FUZZ_SEED;

/**
 * The case indexes a suite of `count` independent cases runs: all of them, or only `FUZZ_CASE`
 * when it is set (to replay one failure).
 */
export function caseIndexes(count: number): number[] {
  const only = envInteger('FUZZ_CASE');
  if (only !== undefined) return only < count ? [only] : [];
  return Array.from({ length: count }, (_, index) => index);
}

/** How a failing case names itself: paste the start of it before `npx vitest run`. */
export function caseLabel(index: number, seed: number = FUZZ_SEED): string {
  return `FUZZ_SEED=${seed} FUZZ_CASE=${index}`;
}

/** A seeded source of choices for one case. */
export interface Rng {
  /** A number in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** An integer in [min, max]. */
  between(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  bytes(count: number): Buffer;
}

/** The generator of case `index` of the run seeded `seed`: independent of every other case. */
export function caseRng(seed: number, index: number): Rng {
  // Spread consecutive indexes over the state space (golden-ratio step), so neighbouring cases
  // do not start from neighbouring states.
  const next = seededRandom((seed ^ Math.imul(index + 1, 0x9e3779b9)) >>> 0);
  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    between: (min, max) => min + int(max - min + 1),
    chance: (probability) => next() < probability,
    pick: <T>(items: readonly T[]): T => {
      const item = items[int(items.length)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
    bytes: (count) => {
      const out = Buffer.alloc(count);
      for (let i = 0; i < count; i += 1) out[i] = int(256);
      return out;
    },
  };
}

/** Strings that have broken parsers, gates and file formats before. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  'a',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '..',
  '../../etc/passwd',
  'C:\\Windows\\System32',
  '\\\\server\\share',
  '~',
  '${HOME}',
  '${env:PATH}',
  '$(id)',
  '`id`',
  '; rm -rf ~',
  '-rf',
  '--',
  '*',
  '**',
  '?',
  '[',
  'a__b',
  '__',
  'null',
  'true',
  '0',
  '-1',
  '1e309',
  'NaN',
  '\u0000',
  'nul\u0000byte',
  '\r\n',
  '\u001b[2J\u001b[31mred',
  '\u202egnp.exe',
  '\u200b\u200c\u200d\ufeff',
  '\udb40\udc41\udb40\udc42',
  '\ud800',
  '\udfff',
  '😀🚂',
  '転轍機',
  'ﷺ',
  'e\u0301\u0301\u0301',
  '<script>alert(1)</script>',
  '</untrusted-data>',
  '{"jsonrpc":"2.0"}',
  'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB',
  'https://user:pass@example.com/',
  'chrome-extension://ddbjoamfefamboaogaeefgfijojophel/',
  'https://github.com/*',
  'file:///etc/passwd',
  'default',
];

/** Numbers that are valid JSON but unusual everywhere else. */
export const HOSTILE_NUMBERS: readonly number[] = [
  0,
  -0,
  1,
  -1,
  0.5,
  2 ** 31,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e308,
  -1e308,
  5e-324,
];

/**
 * A value nested `depth` levels deep (`[[[0]]]` or `{"a":{"a":0}}`), kept as a marker until
 * {@link jsonText} writes it: JSON.stringify overflows the stack a few thousand levels down, and
 * the point is to send what a hostile peer can write, not what this process can serialize.
 */
export class DeepNest {
  constructor(
    readonly depth: number,
    readonly kind: 'array' | 'object',
  ) {}
}

/** JSON text of `value`, with each {@link DeepNest} written out as brackets. */
export function jsonText(value: unknown): string {
  if (value instanceof DeepNest) {
    return value.kind === 'array'
      ? `${'['.repeat(value.depth)}0${']'.repeat(value.depth)}`
      : `${'{"a":'.repeat(value.depth)}0${'}'.repeat(value.depth)}`;
  }
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value).map(
      ([key, child]) => `${JSON.stringify(key)}:${jsonText(child)}`,
    );
    return `{${members.join(',')}}`;
  }
  return leafJson(value) ?? 'null';
}

/** lib.d.ts types JSON.stringify as returning string; it returns undefined for undefined. */
function leafJson(value: unknown): string | undefined {
  return JSON.stringify(value);
}

/**
 * Whether two JSON values are the same (numbers by Object.is, keys in any order), iteratively:
 * values from {@link DeepNest} text are too deep for a recursive comparison.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  const stack: Array<[unknown, unknown]> = [[a, b]];
  for (let pair = stack.pop(); pair !== undefined; pair = stack.pop()) {
    const [x, y] = pair;
    if (typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) {
      if (!Object.is(x, y)) return false;
      continue;
    }
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(y, key)) return false;
      stack.push([Reflect.get(x, key), Reflect.get(y, key)]);
    }
  }
  return true;
}

/** Depths around the limits: the config scanner's 64, and (rarely) past JSON.stringify's stack. */
export const DEEP_DEPTHS: readonly number[] = [64, 65, 1_000];
export const VERY_DEEP_DEPTHS: readonly number[] = [5_000, 20_000];

export interface HostileOptions {
  /**
   * Allow the rare large values: strings of 40,000 characters and nesting past JSON.stringify's
   * stack (5,000 and 20,000 levels). Default true; a suite that only needs bytes turns it off.
   */
  readonly large?: boolean;
}

/** A hostile string: from the list, a long run, random code units, or a mix of those. */
export function hostileString(rng: Rng, options: HostileOptions = {}): string {
  switch (rng.int(6)) {
    case 0:
    case 1:
      return rng.pick(HOSTILE_STRINGS);
    case 2: {
      // Around the limits the schemas use (128, 256, 4096 characters), rarely past 32,767.
      const huge = options.large !== false && rng.chance(0.05);
      const length = huge ? 40_000 : rng.pick([127, 128, 129, 257, 4_097]);
      return rng.pick(['x', 'é', '😀', '\u202e']).repeat(length);
    }
    case 3: {
      let text = '';
      for (let i = rng.int(24); i > 0; i -= 1) text += String.fromCharCode(rng.int(0x10000));
      return text;
    }
    case 4:
      return `${rng.pick(HOSTILE_STRINGS)}${rng.pick(HOSTILE_STRINGS)}`;
    default:
      return `k${rng.int(1_000)}`;
  }
}

/**
 * A hostile JSON value (write it with {@link jsonText}): every type, unusual numbers and strings,
 * odd keys such as `__proto__`, and deep nesting.
 */
export function hostileValue(rng: Rng, options: HostileOptions = {}): unknown {
  return valueAt(rng, 0, options);
}

function valueAt(rng: Rng, depth: number, options: HostileOptions): unknown {
  const leafOnly = depth >= 3;
  switch (rng.int(leafOnly ? 5 : 8)) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
      return rng.pick(HOSTILE_NUMBERS);
    case 3:
    case 4:
      return hostileString(rng, options);
    case 5: {
      const list: unknown[] = [];
      for (let i = rng.int(4); i > 0; i -= 1) list.push(valueAt(rng, depth + 1, options));
      return list;
    }
    case 6: {
      const record: Record<string, unknown> = {};
      for (let i = rng.int(4); i > 0; i -= 1) {
        // defineProperty: a "__proto__" key must stay an own key, as JSON.parse makes it.
        Object.defineProperty(record, hostileString(rng, options), {
          value: valueAt(rng, depth + 1, options),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return record;
    }
    default: {
      const veryDeep = options.large !== false && rng.chance(0.1);
      return new DeepNest(
        rng.pick(veryDeep ? VERY_DEEP_DEPTHS : DEEP_DEPTHS),
        rng.chance(0.5) ? 'array' : 'object',
      );
    }
  }
}

/** Applies 1 to `edits` random byte edits (flip, overwrite, insert, delete, cut) to a copy. */
export function mutateBytes(rng: Rng, input: Buffer, edits = 3): Buffer {
  let bytes = Buffer.from(input);
  for (let n = rng.between(1, edits); n > 0; n -= 1) {
    const at = rng.int(bytes.length + 1);
    switch (rng.int(5)) {
      case 0:
        if (at < bytes.length) bytes[at] = (bytes[at] ?? 0) ^ (1 << rng.int(8));
        break;
      case 1:
        if (at < bytes.length) bytes[at] = rng.pick([0x00, 0x22, 0x5c, 0x7b, 0x80, 0xc0, 0xff]);
        break;
      case 2:
        bytes = Buffer.concat([
          bytes.subarray(0, at),
          rng.bytes(rng.between(1, 4)),
          bytes.subarray(at),
        ]);
        break;
      case 3:
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]);
        break;
      default:
        bytes = bytes.subarray(0, at);
        break;
    }
  }
  return bytes;
}

/** Byte sequences that are not UTF-8: stray continuation bytes, overlongs, surrogates, truncation. */
export const INVALID_UTF8: readonly Buffer[] = [
  Buffer.from([0x80]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xe0, 0x80, 0xaf]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]),
  Buffer.from([0xf0, 0x9f, 0x98]),
  Buffer.from([0xff, 0xfe]),
];
