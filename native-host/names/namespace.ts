import { EXPOSED_TOOL_NAME_PATTERN } from '../../protocol/tool-name';
import { compareCodeUnits } from '../shared/compare';

/**
 * The exposed-name table (design D4): the only map between the tool names the model sees and the
 * (server, raw tool) pairs the host calls. A name the model sends is looked up here, never split on
 * `__`, so server `a__b` + tool `c` and server `a` + tool `b__c` cannot be confused.
 *
 * One illegal name sent to a provider is an HTTP 400 on every later turn (the name is stored in the
 * transcript), and two pairs sharing a name route a call to the wrong server: this module is a
 * correctness gate, so every name it emits is checked against EXPOSED_TOOL_NAME_PATTERN.
 */

/** Longest exposed name; the strictest provider limit (OpenAI-shaped APIs, Gemini). */
export const MAX_EXPOSED_NAME_LENGTH = 64;

/** Between the server part (or prefix) and the tool part. Also used after a per-server prefix. */
export const EXPOSED_NAME_JOINER = '__';

/** One server's tool listing as the table sees it. */
export interface ServerToolListing {
  /** The configured server name (a config key). */
  readonly server: string;
  /** Replaces the server part of every exposed name of this server: `prefix__tool`. */
  readonly prefix?: string | undefined;
  /** Raw tool names as the server listed them, in any order. */
  readonly tools: ReadonlyArray<string>;
}

export interface NameTableInput {
  readonly servers: ReadonlyArray<ServerToolListing>;
  /** Built-in tool names; never handed out, compared case-insensitively. */
  readonly reserved: ReadonlySet<string>;
}

/** What an exposed name routes to. */
export interface ToolRef {
  readonly server: string;
  readonly tool: string;
}

/**
 * Why a tool got no exposed name:
 * - `duplicate-tool`: the server listed the same raw name more than once; no copy is registered,
 *   because either choice (first or last wins) could call a tool whose definition the user was not
 *   shown.
 * - `duplicate-server`: the same server appears more than once in the input, so which listing and
 *   prefix apply is ambiguous; none of its tools is registered.
 * - `empty-name`: the raw tool name is the empty string; there is nothing to call it by.
 */
export type NameRejectionReason = 'duplicate-tool' | 'duplicate-server' | 'empty-name';

export interface RejectedTool {
  readonly server: string;
  readonly tool: string;
  readonly reason: NameRejectionReason;
}

export interface NameTable {
  /**
   * Exposed name -> (server, raw tool), exact case. Iteration order is (server, tool) order by UTF-16
   * code units, independent of input order.
   */
  readonly byExposed: ReadonlyMap<string, ToolRef>;
  /** The exposed name of a registered (server, raw tool) pair; undefined if it has none. */
  exposedOf(server: string, tool: string): string | undefined;
  /** Tools that got no name, one row per distinct (server, tool, reason), in (server, tool) order. */
  readonly rejected: ReadonlyArray<RejectedTool>;
}

// Stands in for a part that kept no legal character ('', '🔥', '...'); such a name always carries
// the hash, because the readable part says nothing about which tool it is.
const SERVER_PLACEHOLDER = 'server';
const TOOL_PLACEHOLDER = 'tool';

// Vertex AI requires a function name to start with a letter or an underscore; EXPOSED_TOOL_NAME_PATTERN
// does not, so a head part starting with a digit or '-' gets this letter in front.
const LEADING_LETTER = 'x';

// 32-bit hash in base36 is at most 7 characters ('1z141z3').
const HASH_CHARS = 7;
const HASH_SUFFIX_LENGTH = 1 + HASH_CHARS;
const HEAD_BUDGET = MAX_EXPOSED_NAME_LENGTH - HASH_SUFFIX_LENGTH;
// When a name must be shortened, the server part keeps at least this much of itself (if it has it),
// so tools of two long-named servers still read differently; the tool part gets the rest.
const MIN_TRUNCATED_HEAD_PART = 20;

/**
 * Build the exposed-name table for a set of servers' tool listings.
 *
 * Contract:
 * - Every exposed name matches EXPOSED_TOOL_NAME_PATTERN and starts with a letter.
 * - Injective: distinct (server, tool) pairs never share a name, not even up to letter case, and no
 *   name equals a reserved name up to case.
 * - Deterministic in the input set: the order of servers and of tools in a listing does not matter,
 *   so the same configuration yields the same names after a restart.
 * - A name is `head__tool`, where head is the prefix if given (and not empty once sanitized), else
 *   the server name. Each part: NFKD, combining marks dropped, every other character outside
 *   `[A-Za-z0-9_-]` mapped to `_`, runs of `_` collapsed, leading/trailing `_` trimmed.
 * - A pair whose plain name is unique (and not reserved) gets it. Otherwise the first contender
 *   keeps the plain name, in this order: pairs whose server (or prefix) and tool names were legal
 *   as written, then the others, each in (server, tool) order; the rest get `_` + a 7-character
 *   base36 hash of the full raw (server, tool) pair, re-salted until unique. Reserved names are
 *   never handed out.
 * - A name longer than 64 characters keeps a readable head of both parts and ends in the hash;
 *   when even the head part had to be cut, the parts are joined by one `_`, so the name matches
 *   no `head__*` rule, which is only ever another server's.
 * - Duplicate raw tool names in one listing, servers listed twice, and empty tool names are
 *   reported in `rejected` and get no name.
 */
export function buildNameTable(input: NameTableInput): NameTable {
  const rejected: RejectedTool[] = [];
  const candidates: Candidate[] = [];

  const listingsByServer = new Map<string, ServerToolListing[]>();
  for (const listing of input.servers) {
    const same = listingsByServer.get(listing.server);
    if (same) same.push(listing);
    else listingsByServer.set(listing.server, [listing]);
  }

  for (const [server, listings] of listingsByServer) {
    if (listings.length > 1) {
      const tools = new Set(listings.flatMap((listing) => listing.tools));
      for (const tool of tools) rejected.push({ server, tool, reason: 'duplicate-server' });
      continue;
    }
    const listing = listings[0];
    if (!listing) continue;
    const head = headPart(listing);
    const counts = new Map<string, number>();
    for (const tool of listing.tools) counts.set(tool, (counts.get(tool) ?? 0) + 1);
    for (const [tool, count] of counts) {
      if (tool === '') rejected.push({ server, tool, reason: 'empty-name' });
      else if (count > 1) rejected.push({ server, tool, reason: 'duplicate-tool' });
      else candidates.push(makeCandidate(server, tool, head));
    }
  }

  candidates.sort((a, b) => compareRefs(a.ref, b.ref));
  rejected.sort((a, b) => compareRefs(a, b) || compareCodeUnits(a.reason, b.reason));

  const assigned = assignNames(candidates, input.reserved);

  const byExposed = new Map<string, ToolRef>();
  const byRef = new Map<string, string>();
  for (const [index, candidate] of candidates.entries()) {
    const name = assigned[index];
    // Unreachable by construction; checked because a bad name here poisons a whole conversation.
    if (name === undefined || !EXPOSED_TOOL_NAME_PATTERN.test(name) || byExposed.has(name)) {
      throw new Error(
        // JSON quoting: raw names are untrusted server text (design D9).
        `internal error: no legal unique name for tool ${JSON.stringify(candidate.ref.tool)} of server ${JSON.stringify(candidate.ref.server)}; please report this`,
      );
    }
    byExposed.set(name, candidate.ref);
    byRef.set(refKey(candidate.ref.server, candidate.ref.tool), name);
  }

  return {
    byExposed,
    exposedOf: (server, tool) => byRef.get(refKey(server, tool)),
    rejected,
  };
}

interface Candidate {
  readonly ref: ToolRef;
  /**
   * Both parts were already legal as written (sanitizing changed nothing): the plain name is the
   * pair's own name, so it wins a collision with a name that sanitizing produced.
   */
  readonly verbatim: boolean;
  /** The sanitized head and tool parts, before truncation. */
  readonly head: SanitizedPart;
  readonly tool: SanitizedPart;
}

interface SanitizedPart {
  readonly text: string;
  /** True when nothing legal survived and `text` is a placeholder. */
  readonly placeholder: boolean;
  /** True when `text` is the raw part exactly as written. */
  readonly verbatim: boolean;
}

/**
 * What every plain exposed name of a server starts with (`head__tool`): its prefix, else its
 * name, sanitized as the name table does. Two servers with the same head, up to case, would
 * compete for the same names and match the same policy rules.
 */
export function exposedHead(server: string, prefix?: string): string {
  return headPart({ server, prefix }).text;
}

function headPart(listing: Pick<ServerToolListing, 'server' | 'prefix'>): SanitizedPart {
  const prefix = listing.prefix === undefined ? '' : sanitizePart(listing.prefix);
  // An empty prefix falls back to the server name: `__tool` would be odd, and a bare tool name
  // would shadow built-ins and hide which server runs the call.
  const text = prefix !== '' ? prefix : sanitizePart(listing.server);
  const part = text === '' ? SERVER_PLACEHOLDER : text;
  const shown = /^[A-Za-z]/.test(part) ? part : LEADING_LETTER + part;
  const raw = prefix !== '' ? (listing.prefix ?? '') : listing.server;
  return { text: shown, placeholder: text === '', verbatim: shown === raw };
}

function makeCandidate(server: string, tool: string, head: SanitizedPart): Candidate {
  const text = sanitizePart(tool);
  return {
    ref: { server, tool },
    verbatim: head.verbatim && text === tool,
    head,
    tool: {
      text: text === '' ? TOOL_PLACEHOLDER : text,
      placeholder: text === '',
      verbatim: text === tool,
    },
  };
}

/** Map one raw name part to `[A-Za-z0-9_-]*` with no `_` runs and no `_` at either end. */
function sanitizePart(raw: string): string {
  // NFKD then dropping marks turns 'café' into 'cafe' and fullwidth letters into ASCII, so common
  // accented names stay readable; whatever is left outside the legal set becomes '_'.
  const decomposed = raw.normalize('NFKD').replace(/\p{M}/gu, '');
  let out = '';
  for (const char of decomposed) out += /^[A-Za-z0-9_-]$/.test(char) ? char : '_';
  // Collapsing and trimming '_' keeps the joiner the only '__' in a plain name, which makes names
  // easier to read; routing never relies on it.
  return out.replace(/_+/g, '_').replace(/^_+|_+$/g, '');
}

/**
 * Two passes, so that a unique plain name is never taken by another pair's hashed name: first
 * every pair whose plain name is free and uncontested gets it; then contested and reserved names
 * are resolved in (server, tool) order.
 */
function assignNames(
  candidates: ReadonlyArray<Candidate>,
  reserved: ReadonlySet<string>,
): Array<string | undefined> {
  const taken = new Set<string>();
  for (const name of reserved) taken.add(name.toLowerCase());

  const plain = candidates.map(plainName);
  const contenders = new Map<string, number>();
  for (const name of plain) {
    const key = name.toLowerCase();
    contenders.set(key, (contenders.get(key) ?? 0) + 1);
  }

  const assigned: Array<string | undefined> = plain.map(() => undefined);
  for (const [index, name] of plain.entries()) {
    const key = name.toLowerCase();
    if (contenders.get(key) === 1 && !taken.has(key)) {
      assigned[index] = name;
      taken.add(key);
    }
  }

  // Contested names: a pair whose name is its own, written legal, goes first, then the rest, each
  // group in (server, tool) order. So `shout_loud` keeps its name against `shout.loud`, and adding
  // a server whose name needed sanitizing never renames a tool that was spelled legally (two
  // legal spellings collide only by letter case, and then order decides).
  const order = [...candidates.keys()].sort(
    (a, b) => Number(candidates[b]?.verbatim) - Number(candidates[a]?.verbatim) || a - b,
  );
  for (const index of order) {
    const candidate = candidates[index];
    if (candidate === undefined || assigned[index] !== undefined) continue;
    const name = plain[index] ?? '';
    const key = name.toLowerCase();
    if (!taken.has(key)) {
      // The first contender in that order keeps the plain name.
      assigned[index] = name;
      taken.add(key);
      continue;
    }
    // Each salt gives a fresh 32-bit hash and only finitely many names are taken, so this ends;
    // in practice the first salt almost always succeeds.
    for (let salt = 1; ; salt++) {
      const hashed = hashedName(candidate, salt);
      const hashedKey = hashed.toLowerCase();
      if (!taken.has(hashedKey)) {
        assigned[index] = hashed;
        taken.add(hashedKey);
        break;
      }
    }
  }
  return assigned;
}

/** The name a pair gets when nothing contests it. */
function plainName(candidate: Candidate): string {
  const full = candidate.head.text + EXPOSED_NAME_JOINER + candidate.tool.text;
  if (
    full.length <= MAX_EXPOSED_NAME_LENGTH &&
    !candidate.head.placeholder &&
    !candidate.tool.placeholder
  ) {
    return full;
  }
  return hashedName(candidate, 0);
}

/** A readable head of both parts, then `_` and a hash of the raw pair (and salt). */
function hashedName(candidate: Candidate, salt: number): string {
  const { server, tool } = candidate.ref;
  const head = truncateHead(candidate.head.text, candidate.tool.text, HEAD_BUDGET);
  const hash = fnv1a32(JSON.stringify(salt === 0 ? [server, tool] : [server, tool, salt]));
  return `${head}_${hash.toString(36).padStart(HASH_CHARS, '0')}`;
}

/**
 * `head__tool` in at most `budget` characters, giving the tool part whatever the head spares.
 * A head that had to be cut is joined with a single `_`: `head__` must only ever start names of
 * the server whose whole head it is, since allow rules and profile filters are written as
 * `head__*`; a cut head may be all of another server's (a server `filesystem-documents-archive`
 * would otherwise have names that `filesystem-documents__*` matches, and which tools it lists
 * decides where the cut falls). Sanitized parts hold no `__`, so such a name has none at all.
 */
function truncateHead(head: string, tool: string, budget: number): string {
  const room = budget - EXPOSED_NAME_JOINER.length;
  // Parts never start with '_', so trimming a cut end cannot empty them.
  const cut = (part: string, keep: number): string => part.slice(0, keep).replace(/_+$/, '');
  const headCut = cut(head, Math.max(MIN_TRUNCATED_HEAD_PART, room - tool.length));
  const joiner = headCut === head ? EXPOSED_NAME_JOINER : '_';
  return headCut + joiner + cut(tool, room - headCut.length);
}

/**
 * 32-bit FNV-1a over the UTF-16 code units (low byte, then high byte). Only for uniqueness of
 * names: collisions are detected and re-salted, and nothing here is a security boundary (launch
 * trust uses SHA-256, design D6). Code units rather than UTF-8, so lone surrogates stay distinct.
 */
function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    hash = Math.imul(hash ^ (unit & 0xff), 0x01000193);
    hash = Math.imul(hash ^ (unit >>> 8), 0x01000193);
  }
  return hash >>> 0;
}

function refKey(server: string, tool: string): string {
  return JSON.stringify([server, tool]);
}

function compareRefs(a: ToolRef, b: ToolRef): number {
  return compareCodeUnits(a.server, b.server) || compareCodeUnits(a.tool, b.tool);
}

// Not localeCompare: its order depends on the ICU version and locale, and the table must not.
