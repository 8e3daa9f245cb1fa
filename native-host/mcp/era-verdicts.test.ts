import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ERA_VERDICTS_FILE,
  EraVerdicts,
  LEGACY_VERDICT_MAX_AGE_MS,
  MAX_ERA_VERDICTS,
  parseEraVerdicts,
  serializeEraVerdicts,
} from './era-verdicts';

// negotiation.json is written by the host but lives in a folder other programs can write to. A
// wrong entry can only make the host skip the probe (speak 2025-11-25 to a server that could
// speak 2026-07-28), never grant anything; the dangerous direction here is a file that makes the
// host throw, hang or hold unbounded data, and a stale verdict kept forever.

const NOW = Date.parse('2026-09-01T12:00:00.000Z');
const FP = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);
const iso = (ms: number) => new Date(ms).toISOString();
const file = (legacy: unknown, version: unknown = 1) => JSON.stringify({ version, legacy });

describe('parseEraVerdicts', () => {
  it.each<readonly [string, string, readonly string[]]>([
    ['a fresh verdict', file({ [FP]: iso(NOW - 1000) }), [FP]],
    ['not JSON', '{"version": 1, "legacy": {', []],
    ['JSON but not an object', '[1, 2]', []],
    ['no version', JSON.stringify({ legacy: { [FP]: iso(NOW) } }), []],
    ['an older version', file({ [FP]: iso(NOW) }, 0), []],
    ['legacy is not an object', file([FP]), []],
    ['a key that is not a fingerprint', file({ ['A'.repeat(64)]: iso(NOW), x: iso(NOW) }), []],
    ['a date that is not a date', file({ [FP]: 'yesterday', [OTHER]: 12 }), []],
    ['a verdict past the horizon', file({ [FP]: iso(NOW - LEGACY_VERDICT_MAX_AGE_MS - 1) }), []],
    ['a verdict dated days ahead', file({ [FP]: iso(NOW + 3 * 86_400_000) }), []],
    ['a bad entry beside a good one', file({ [FP]: iso(NOW), [OTHER]: 'no' }), [FP]],
    ['a key __proto__', `{"version":1,"legacy":{"__proto__":"${iso(NOW)}"}}`, []],
  ])('%s', (_label, text, expected) => {
    const parsed = parseEraVerdicts(text, NOW);
    expect([...parsed.verdicts.keys()]).toEqual(expected);
    expect(parsed.future).toBe(false);
  });

  it('reads a newer version as empty and says so', () => {
    expect(parseEraVerdicts(file({ [FP]: iso(NOW) }, 2), NOW)).toEqual({
      verdicts: new Map(),
      future: true,
    });
  });

  it(`keeps the newest ${MAX_ERA_VERDICTS} of a flood`, () => {
    const legacy = Object.fromEntries(
      Array.from({ length: MAX_ERA_VERDICTS + 50 }, (_, i) => [
        i.toString(16).padStart(64, '0'),
        iso(NOW - i * 1000),
      ]),
    );
    const { verdicts } = parseEraVerdicts(file(legacy), NOW);
    expect(verdicts.size).toBe(MAX_ERA_VERDICTS);
    expect(verdicts.has('0'.repeat(64))).toBe(true);
    expect(verdicts.has((MAX_ERA_VERDICTS + 49).toString(16).padStart(64, '0'))).toBe(false);
  });

  it('round-trips what it writes', () => {
    const verdicts = new Map([
      [FP, NOW - 5000],
      [OTHER, NOW],
    ]);
    expect(parseEraVerdicts(serializeEraVerdicts(verdicts), NOW).verdicts).toEqual(verdicts);
  });
});

describe('EraVerdicts', () => {
  const homes: string[] = [];
  const home = (): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-eras-'));
    homes.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of homes.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const read = (dir: string): unknown =>
    JSON.parse(fs.readFileSync(path.join(dir, ERA_VERDICTS_FILE), 'utf8'));

  it('remembers a legacy verdict across hosts, and a modern one forgets it', async () => {
    const dir = home();
    const first = await EraVerdicts.open(dir, { now: () => NOW });
    expect(first.knownLegacy(FP)).toBe(false);
    first.settle(FP, 'legacy');
    expect(first.knownLegacy(FP)).toBe(true);
    await first.flushed();
    expect(read(dir)).toEqual({ version: 1, legacy: { [FP]: iso(NOW) } });
    expect(fs.statSync(path.join(dir, ERA_VERDICTS_FILE)).mode & 0o777).toBe(0o600);

    const second = await EraVerdicts.open(dir, { now: () => NOW + 1000 });
    expect(second.knownLegacy(FP)).toBe(true);
    second.settle(FP, 'modern');
    await second.flushed();
    expect(second.knownLegacy(FP)).toBe(false);
    expect(read(dir)).toEqual({ version: 1, legacy: {} });
  });

  it('merges with what another host wrote meanwhile', async () => {
    const dir = home();
    const a = await EraVerdicts.open(dir, { now: () => NOW });
    const b = await EraVerdicts.open(dir, { now: () => NOW });
    a.settle(FP, 'legacy');
    await a.flushed();
    b.settle(OTHER, 'legacy');
    await b.flushed();
    expect(Object.keys((read(dir) as { legacy: object }).legacy).sort()).toEqual([FP, OTHER]);
  });

  it('replaces a corrupt file, but never one from a newer Switchyard', async () => {
    const dir = home();
    const target = path.join(dir, ERA_VERDICTS_FILE);
    fs.writeFileSync(target, 'garbage');
    const verdicts = await EraVerdicts.open(dir, { now: () => NOW });
    verdicts.settle(FP, 'legacy');
    await verdicts.flushed();
    expect(read(dir)).toEqual({ version: 1, legacy: { [FP]: iso(NOW) } });

    const newer = file({}, 2);
    fs.writeFileSync(target, newer);
    const reader = await EraVerdicts.open(dir, { now: () => NOW });
    reader.settle(OTHER, 'legacy');
    await reader.flushed();
    expect(reader.knownLegacy(OTHER)).toBe(true);
    expect(fs.readFileSync(target, 'utf8')).toBe(newer);
  });

  it('reads an oversized file as empty without holding it', async () => {
    const dir = home();
    fs.writeFileSync(path.join(dir, ERA_VERDICTS_FILE), ' '.repeat(1024 * 1024));
    expect((await EraVerdicts.open(dir)).knownLegacy(FP)).toBe(false);
  });

  it('keeps verdicts in memory only without a home', async () => {
    const verdicts = await EraVerdicts.open(null);
    verdicts.settle(FP, 'legacy');
    await verdicts.flushed();
    expect(verdicts.knownLegacy(FP)).toBe(true);
  });

  it('reports a write it could not make, and still uses the verdict', async () => {
    const dir = home();
    const errors: unknown[] = [];
    const verdicts = await EraVerdicts.open(path.join(dir, 'file-not-folder'), {
      onError: (error) => errors.push(error),
    });
    fs.writeFileSync(path.join(dir, 'file-not-folder'), 'x');
    verdicts.settle(FP, 'legacy');
    await verdicts.flushed();
    expect(errors).toHaveLength(1);
    expect(verdicts.knownLegacy(FP)).toBe(true);
  });
});
