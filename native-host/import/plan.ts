import type { ImportClient, ImportSelection } from '../../protocol/import';
import type { ConfigError } from '../config/load';
import { MAX_SERVER_NAME_CHARS, serverNameProblem } from '../config/schema';
import { canonicalHash } from '../shared/canonical-json';
import { CLIENTS } from './clients';
import { sameLaunch } from './result-builder';
import type { SourceOutcome } from './read-source';
import { isRemoteImport, type ConvertResult, type ImportedEntry } from './types';

/**
 * The dry run of an import (issue 5): for every entry found, whether it would be added, is
 * already configured the same, conflicts with a different server of the same name, or cannot be
 * converted. Pure. Nothing is ever overwritten: a conflict is written only under another name
 * the user chose (`suggestedName` is offered), and applying re-checks each chosen entry against
 * the digest the preview showed, so what is written is exactly what was shown.
 */

/** config.json's user-tier servers by name; undefined for an entry present but not loadable. */
export type CurrentServers = ReadonlyMap<string, ImportedEntry | undefined>;

export type PlanItem =
  | {
      readonly action: 'add';
      readonly name: string;
      readonly entry: ImportedEntry;
      readonly notes: readonly string[];
      readonly digest: string;
    }
  | {
      readonly action: 'same';
      readonly name: string;
      readonly entry: ImportedEntry;
      readonly existing: ImportedEntry;
      /** Where the same server is already: config.json, or another client imported first. */
      readonly reason: string;
      readonly notes: readonly string[];
    }
  | {
      readonly action: 'conflict';
      readonly name: string;
      readonly entry: ImportedEntry;
      readonly existing: ImportedEntry | undefined;
      readonly reason: string;
      readonly suggestedName: string;
      readonly notes: readonly string[];
      readonly digest: string;
    }
  | { readonly action: 'cannot-convert'; readonly name: string; readonly reason: string };

export interface PlanSource {
  readonly client: ImportClient;
  readonly label: string;
  readonly file: string;
  readonly state: 'found' | 'missing' | 'error';
  readonly error: ConfigError | undefined;
  readonly items: readonly PlanItem[];
  /** Problems not tied to one entry. */
  readonly warnings: readonly string[];
}

export interface SourceInput {
  readonly client: ImportClient;
  readonly file: string;
  readonly outcome: SourceOutcome;
}

/** SHA-256 of exactly what importing `entry` writes (key order aside). */
export function entryDigest(entry: ImportedEntry): string {
  if (isRemoteImport(entry)) {
    return canonicalHash({
      transport: entry.remote.transport,
      url: entry.remote.url,
      headers: entry.remote.headers,
      disabled: entry.disabled === true,
    });
  }
  return canonicalHash({
    command: entry.command,
    args: entry.args,
    env: entry.env,
    cwd: entry.cwd ?? null,
    disabled: entry.disabled === true,
  });
}

/** Plans every source in order against `current`; earlier sources' additions count as taken. */
export function planImport(current: CurrentServers, sources: readonly SourceInput[]): PlanSource[] {
  const taken = new Map<string, { entry: ImportedEntry | undefined; by: string }>();
  for (const [name, entry] of current) taken.set(name, { entry, by: 'config.json' });
  const reserved = new Set<string>();
  return sources.map((source) => {
    const label = CLIENTS[source.client].label;
    const base = { client: source.client, label, file: source.file };
    const { outcome } = source;
    switch (outcome.state) {
      case 'missing':
        return { ...base, state: 'missing', error: undefined, items: [], warnings: [] };
      case 'error':
        return { ...base, state: 'error', error: outcome.error, items: [], warnings: [] };
      case 'found':
        return {
          ...base,
          state: 'found',
          error: undefined,
          items: planResult(outcome.result, source.client, label, taken, reserved),
          warnings: outcome.result.problems.flatMap((p) =>
            p.name === undefined ? [p.reason] : [],
          ),
        };
    }
  });
}

function planResult(
  result: ConvertResult,
  client: ImportClient,
  label: string,
  taken: Map<string, { entry: ImportedEntry | undefined; by: string }>,
  reserved: Set<string>,
): PlanItem[] {
  const items: PlanItem[] = [];
  for (const { name, entry, notes } of result.entries) {
    const holder = taken.get(name);
    if (holder === undefined) {
      taken.set(name, { entry, by: label });
      items.push({ action: 'add', name, entry, notes, digest: entryDigest(entry) });
      continue;
    }
    if (holder.entry !== undefined && sameLaunch(holder.entry, entry)) {
      const reason =
        holder.by === 'config.json'
          ? 'already in config.json'
          : `the same server is imported from ${holder.by}`;
      items.push({ action: 'same', name, entry, existing: holder.entry, reason, notes });
      continue;
    }
    const suggestedName = freeName(name, client, (candidate) => {
      return taken.has(candidate) || reserved.has(candidate);
    });
    reserved.add(suggestedName);
    const reason =
      holder.by === 'config.json'
        ? holder.entry === undefined
          ? `config.json already has an entry named "${name}" (one Switchyard cannot load; fix or remove it)`
          : `a different server named "${name}" is already in config.json`
        : `a different server named "${name}" is imported from ${holder.by}`;
    items.push({
      action: 'conflict',
      name,
      entry,
      existing: holder.entry,
      reason,
      suggestedName,
      notes,
      digest: entryDigest(entry),
    });
  }
  for (const problem of result.problems) {
    if (problem.name !== undefined) {
      items.push({ action: 'cannot-convert', name: problem.name, reason: problem.reason });
    }
  }
  return items;
}

/**
 * `name-client` (`github-cursor`), then `name-client-2`, ... : the first that is a valid name
 * and not `isTaken`. The base is shortened when the result would be too long.
 */
export function freeName(
  name: string,
  client: ImportClient,
  isTaken: (candidate: string) => boolean,
): string {
  for (let attempt = 1; ; attempt++) {
    const suffix = attempt === 1 ? `-${client}` : `-${client}-${attempt}`;
    const room = MAX_SERVER_NAME_CHARS - suffix.length;
    const stem = Array.from(name).slice(0, room).join('').trimEnd();
    const candidate = `${stem}${suffix}`;
    if (serverNameProblem(candidate) === undefined && !isTaken(candidate)) return candidate;
  }
}

// ---------------------------------------------------------------------------------------------
// Applying.

/** One entry to write: where it came from, the name it is written under, what is written. */
export interface ImportWrite {
  readonly client: ImportClient;
  /** The name in the source. */
  readonly name: string;
  /** The name in config.json. */
  readonly server: string;
  readonly entry: ImportedEntry;
}

/**
 * Why a selection cannot be applied: `stale` when the source changed since the preview (preview
 * again), `invalid` when the request itself cannot be honoured (a name taken, a bad name).
 */
export class ImportRefusal extends Error {
  override readonly name = 'ImportRefusal';
  readonly kind: 'stale' | 'invalid';
  readonly client: ImportClient;
  readonly entryName: string;

  constructor(kind: 'stale' | 'invalid', client: ImportClient, entryName: string, message: string) {
    super(message);
    this.kind = kind;
    this.client = client;
    this.entryName = entryName;
  }
}

/**
 * Checks every selection against the sources as read now and `current`, before anything is
 * written: the entry must still be there with the digest the preview showed, and its target name
 * must be free (or hold the same server already: then it is `unchanged`). Throws ImportRefusal
 * at the first selection that cannot be applied, so a request is applied whole or not at all.
 */
export function resolveSelections(
  current: CurrentServers,
  converted: ReadonlyMap<ImportClient, { readonly file: string; readonly result: ConvertResult }>,
  selections: readonly ImportSelection[],
): { writes: ImportWrite[]; unchanged: ImportWrite[] } {
  const writes: ImportWrite[] = [];
  const unchanged: ImportWrite[] = [];
  const chosen = new Set<string>();
  for (const selection of selections) {
    const { source: client, name } = selection;
    const label = CLIENTS[client].label;
    const source = converted.get(client);
    const found = source?.result.entries.find((e) => e.name === name);
    if (source === undefined || found === undefined) {
      throw new ImportRefusal(
        'stale',
        client,
        name,
        `'${name}' is no longer in ${label}'s configuration${source === undefined ? '' : ` (${source.file})`}, or can no longer be converted; preview the import again.`,
      );
    }
    if (entryDigest(found.entry) !== selection.digest) {
      throw new ImportRefusal(
        'stale',
        client,
        name,
        `'${name}' changed in ${source.file} since the preview; preview the import again and check what it runs.`,
      );
    }
    const server = selection.as ?? name;
    const problem = serverNameProblem(server);
    if (problem !== undefined) {
      throw new ImportRefusal(
        'invalid',
        client,
        name,
        `Cannot import '${name}' as that name: ${problem}.`,
      );
    }
    if (chosen.has(server)) {
      throw new ImportRefusal(
        'invalid',
        client,
        name,
        `Two entries would both be written as '${server}'; import one of them under another name.`,
      );
    }
    chosen.add(server);
    const write: ImportWrite = { client, name, server, entry: found.entry };
    if (current.has(server)) {
      const existing = current.get(server);
      if (existing !== undefined && sameLaunch(existing, found.entry)) {
        unchanged.push(write);
        continue;
      }
      throw new ImportRefusal(
        'invalid',
        client,
        name,
        `config.json already has a different server named '${server}'; it is never overwritten. Import '${name}' under another name.`,
      );
    }
    writes.push(write);
  }
  return { writes, unchanged };
}
