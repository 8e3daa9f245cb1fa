import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { ProtocolEra } from '@modelcontextprotocol/client';
import { readFileBounded } from '../shared/bounded-read';
import { withFileLock } from '../shared/file-lock';

/**
 * Which servers answered the `server/discover` probe as 2025-era servers, so that their next
 * start goes straight to `initialize` (decision 0016). Keyed by launch fingerprint
 * (trust/fingerprint.ts): a changed definition is a different key, and probes afresh.
 *
 * `$SWITCHYARD_HOME/negotiation.json`: `{"version": 1, "legacy": {"<fingerprint>": "<ISO date>"}}`.
 * The file is a cache, never a grant: whatever it says, the worst outcome is a server spoken to in
 * 2025-11-25 when it could speak 2026-07-28, which is the revision every server speaks today. So
 * a bad file is read as empty (and replaced by the next write), a bad entry is skipped, and an
 * entry older than `LEGACY_VERDICT_MAX_AGE_MS` (or dated in the future) is ignored: an unpinned
 * `npx -y pkg` can upgrade under the same definition, and a stale legacy verdict would otherwise
 * hide that forever (the SDK's own advice on cached verdicts). A file from a newer Switchyard is
 * read as empty and never overwritten.
 */

export const ERA_VERDICTS_FILE = 'negotiation.json';
export const LEGACY_VERDICT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** Clock skew tolerated on a verdict's date before it counts as bogus. */
const FUTURE_SKEW_MS = 24 * 60 * 60 * 1000;
export const MAX_ERA_VERDICTS = 500;
export const MAX_ERA_FILE_BYTES = 128 * 1024;
const FILE_VERSION = 1;
const FINGERPRINT = /^[0-9a-f]{64}$/;

/** fingerprint -> when it was found to be legacy (ms since the epoch). */
export type LegacyVerdicts = ReadonlyMap<string, number>;

const FileSchema = z.looseObject({ version: z.number(), legacy: z.unknown() });
const EntriesSchema = z.record(z.string(), z.unknown());

export interface ParsedVerdicts {
  readonly verdicts: LegacyVerdicts;
  /** A newer Switchyard wrote the file: read as empty, never overwritten. */
  readonly future: boolean;
}

/**
 * Parses the file's text; never throws. `future` when a newer Switchyard wrote it. Keeps at most
 * `MAX_ERA_VERDICTS` entries, the newest.
 */
export function parseEraVerdicts(text: string, now: number): ParsedVerdicts {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { verdicts: new Map(), future: false };
  }
  const file = FileSchema.safeParse(json);
  if (!file.success) return { verdicts: new Map(), future: false };
  if (file.data.version > FILE_VERSION) return { verdicts: new Map(), future: true };
  const entries = EntriesSchema.safeParse(file.data.legacy);
  if (file.data.version !== FILE_VERSION || !entries.success) {
    return { verdicts: new Map(), future: false };
  }
  const kept: Array<[string, number]> = [];
  for (const [fingerprint, value] of Object.entries(entries.data)) {
    const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
    if (!FINGERPRINT.test(fingerprint) || !Number.isFinite(at)) continue;
    if (at > now + FUTURE_SKEW_MS || now - at > LEGACY_VERDICT_MAX_AGE_MS) continue;
    kept.push([fingerprint, at]);
  }
  return { verdicts: new Map(newest(kept)), future: false };
}

export function serializeEraVerdicts(verdicts: LegacyVerdicts): string {
  const legacy = Object.fromEntries(
    newest([...verdicts]).map(([fingerprint, at]) => [fingerprint, new Date(at).toISOString()]),
  );
  return `${JSON.stringify({ version: FILE_VERSION, legacy }, null, 2)}\n`;
}

function newest(entries: Array<[string, number]>): Array<[string, number]> {
  return entries.sort((a, b) => b[1] - a[1]).slice(0, MAX_ERA_VERDICTS);
}

export interface EraVerdictsOptions {
  readonly now?: () => number;
  /** A write failed (the verdict is still used by this host). */
  readonly onError?: (error: unknown) => void;
}

/**
 * The verdicts of one home, read once when the host starts; each change is written at once in
 * the background (under the file's lock, merged with what other hosts wrote meanwhile), one write
 * at a time. A lost write costs one probe, never a wrong answer.
 */
export class EraVerdicts {
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string | null,
    private readonly verdicts: Map<string, number>,
    private readonly readOnly: boolean,
    private readonly options: EraVerdictsOptions,
  ) {}

  /** The verdicts of `home` (none, kept in memory only, when `home` is null). */
  static async open(home: string | null, options: EraVerdictsOptions = {}): Promise<EraVerdicts> {
    if (home === null) return new EraVerdicts(null, new Map(), true, options);
    const file = path.join(home, ERA_VERDICTS_FILE);
    const read = await readVerdicts(file, (options.now ?? Date.now)());
    return new EraVerdicts(file, new Map(read.verdicts), read.future, options);
  }

  knownLegacy(fingerprint: string): boolean {
    return this.verdicts.has(fingerprint);
  }

  /** Records what a probe settled on: `legacy` is remembered, `modern` forgets a verdict. */
  settle(fingerprint: string, era: ProtocolEra): void {
    const known = this.verdicts.has(fingerprint);
    if ((era === 'legacy') === known) return;
    const at = (this.options.now ?? Date.now)();
    if (era === 'legacy') this.verdicts.set(fingerprint, at);
    else this.verdicts.delete(fingerprint);
    const file = this.file;
    if (file === null || this.readOnly) return;
    this.writes = this.writes
      .then(() => writeVerdict(file, fingerprint, era === 'legacy' ? at : null, at))
      .catch((error: unknown) => this.options.onError?.(error));
  }

  /** Resolves once every change so far is on disk (or failed). */
  flushed(): Promise<void> {
    return this.writes;
  }
}

async function readVerdicts(file: string, now: number): Promise<ParsedVerdicts> {
  try {
    const bytes = await readFileBounded(file, MAX_ERA_FILE_BYTES);
    if (bytes.length > MAX_ERA_FILE_BYTES) return { verdicts: new Map(), future: false };
    return parseEraVerdicts(Buffer.from(bytes).toString('utf8'), now);
  } catch {
    // Missing or unreadable: probe every server, as a host without the file would.
    return { verdicts: new Map(), future: false };
  }
}

/** Sets (`at`) or deletes (`null`) one entry in the file as it is now, under its lock. */
async function writeVerdict(
  file: string,
  fingerprint: string,
  at: number | null,
  now: number,
): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await withFileLock(file, async () => {
    const current = await readVerdicts(file, now);
    if (current.future) return;
    const next = new Map(current.verdicts);
    if (at === null) next.delete(fingerprint);
    else next.set(fingerprint, at);
    const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      // 'wx': never follows a planted symlink; the rename replaces the name, not a link's target.
      await fsp.writeFile(temp, serializeEraVerdicts(next), { flag: 'wx', mode: 0o600 });
      await fsp.rename(temp, file);
    } catch (error) {
      await fsp.unlink(temp).catch(() => undefined);
      throw error;
    }
  });
}
