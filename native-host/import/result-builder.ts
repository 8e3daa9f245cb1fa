import { MAX_SERVERS, MAX_SERVER_NAME_CHARS, serverNameProblem } from '../config/schema';
import type { EntryOutcome } from './convert-entry';
import { shownValue } from './text';
import {
  isRemoteImport,
  type ConvertProblem,
  type ConvertResult,
  type ConvertedServer,
  type ImportedEntry,
} from './types';
import type { Dialect } from './variables';

// Controls, format characters (bidi, zero-width), unassigned and line separators: what
// serverNameProblem refuses.
const INVISIBLE = /[\p{C}\p{Zl}\p{Zp}]/gu;

/**
 * A name from a foreign file made into a Switchyard server name: invisible characters removed,
 * surrounding spaces trimmed, at most MAX_SERVER_NAME_CHARS code points. Undefined when nothing
 * usable is left.
 */
export function sanitizeServerName(raw: string): string | undefined {
  const cleaned = Array.from(raw.replace(INVISIBLE, '').trim())
    .slice(0, MAX_SERVER_NAME_CHARS)
    .join('')
    .trim();
  return serverNameProblem(cleaned) === undefined ? cleaned : undefined;
}

/**
 * Collects a converter's results: names sanitized and kept unique, at most MAX_SERVERS entries,
 * problems in file order.
 */
export class ResultBuilder {
  private readonly entries: ConvertedServer[] = [];
  private readonly problems: ConvertProblem[] = [];
  private readonly byName = new Map<string, ConvertedServer>();
  private readonly dialect: Dialect;
  private dropped = 0;

  constructor(dialect: Dialect) {
    this.dialect = dialect;
  }

  /**
   * Adds the outcome of the entry named `rawName`. `scope` says where it was found when a file
   * has several places for servers (a Claude Code project); an identical entry found again
   * under the same name is skipped silently.
   */
  add(rawName: string, outcome: EntryOutcome, scope?: string): void {
    const name = sanitizeServerName(rawName);
    if (name === undefined) {
      const why = serverNameProblem(rawName) ?? 'it has no usable characters';
      this.problem(
        undefined,
        `the server named ${shownValue(rawName)} cannot be imported (${why}); rename it in ${this.dialect.label}`,
      );
      return;
    }
    if (!outcome.ok) {
      this.problem(name, outcome.reason);
      return;
    }
    const notes = [...outcome.notes];
    if (name !== rawName) notes.unshift(`named ${shownValue(rawName)} in ${this.dialect.label}`);
    const previous = this.byName.get(name);
    if (previous !== undefined) {
      if (sameEntry(previous.entry, outcome.entry)) return;
      this.problem(
        name,
        `cannot convert: another server named "${name}" in this file${scope === undefined ? '' : ` (${scope})`} runs something else; rename one of them in ${this.dialect.label} to import both`,
      );
      return;
    }
    if (this.entries.length >= MAX_SERVERS) {
      this.dropped += 1;
      return;
    }
    const server: ConvertedServer = { name, entry: outcome.entry, notes };
    this.entries.push(server);
    this.byName.set(name, server);
  }

  problem(name: string | undefined, reason: string): void {
    this.problems.push(name === undefined ? { reason } : { name, reason });
  }

  result(): ConvertResult {
    const problems = [...this.problems];
    if (this.dropped > 0) {
      problems.push({
        reason: `only the first ${MAX_SERVERS} servers were read; ${this.dropped} more were left out`,
      });
    }
    return { entries: [...this.entries], problems };
  }
}

/** Whether two entries run (or connect to) the same thing: command, args, env and cwd, or
 * transport, url and headers (switched off or not). */
export function sameLaunch(a: ImportedEntry, b: ImportedEntry): boolean {
  if (isRemoteImport(a) || isRemoteImport(b)) {
    if (!isRemoteImport(a) || !isRemoteImport(b)) return false;
    return (
      a.remote.transport === b.remote.transport &&
      a.remote.url === b.remote.url &&
      sameStrings(a.remote.headers, b.remote.headers)
    );
  }
  return (
    a.command === b.command &&
    a.args.length === b.args.length &&
    a.args.every((arg, i) => arg === b.args[i]) &&
    sameStrings(a.env, b.env) &&
    (a.cwd ?? null) === (b.cwd ?? null)
  );
}

function sameStrings(
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>,
): boolean {
  const entries = Object.entries(a);
  return (
    entries.length === Object.keys(b).length &&
    entries.every(([key, value]) => Object.hasOwn(b, key) && b[key] === value)
  );
}

/** Whether two entries would write the same thing (key order aside). */
function sameEntry(a: ImportedEntry, b: ImportedEntry): boolean {
  return sameLaunch(a, b) && (a.disabled === true) === (b.disabled === true);
}
