import path from 'node:path';
import { z } from 'zod';
import { canonicalJson } from '../shared/canonical-json';
import { launchFingerprint } from './fingerprint';
import { JWT_ALGORITHMS, type LaunchDefinition } from '../shared/server-spec';
import { copyClient } from '../shared/remote-endpoint';
import { toolDefinitionHash } from './tool-pin';
import type { PinnableTool } from './tool-pin';
import { messageOf } from '../../protocol/guards';

/**
 * The format of `trust.json`, pure: text <-> state. The file holds arrays of entries, not maps
 * keyed by server or tool name: names are repository- or server-chosen text, and a key such as
 * `__proto__` is silently lost by zod's record parsing (and by plain objects). Env is stored as
 * `[key, value]` pairs for the same reason, and because that is what the fingerprint hashes.
 *
 *     { "version": 1,
 *       "launches": [{ "scope", "server", "fingerprint", "approvedAt", "definition": {...} }],
 *       "pins": [{ "scope", "server", "hash", "pinnedAt", "tool": {...} }] }
 */

export const TRUST_FILE_VERSION = 1;
/** Largest file read or written. A real one holds a few hundred entries. */
export const MAX_TRUST_FILE_BYTES = 8 * 1024 * 1024;
/** Most launch approvals, and separately most tool pins, one file may hold. */
export const MAX_TRUST_ENTRIES = 10_000;

// Sanity caps per field, generous next to the config's own caps (config/schema.ts): the byte cap
// bounds the whole file anyway.
const MAX_TEXT_CHARS = 65_536;
const MAX_NAME_CHARS = 1_024;
const MAX_LIST_ITEMS = 4_096;

/** `'user'`, or the absolute path of a workspace folder exactly as the caller spells it. */
export type TrustScope = string;

/** True for a valid scope: `'user'` or an absolute path. */
export function isTrustScope(scope: string): boolean {
  return scope === 'user' || (scope.length <= MAX_TEXT_CHARS && path.isAbsolute(scope));
}

/** A user's approval of one server's launch definition. */
export interface LaunchApproval {
  /** `launchFingerprint(definition)`, checked when the file is read. */
  readonly fingerprint: string;
  readonly definition: LaunchDefinition;
  /** ISO 8601, UTC. */
  readonly approvedAt: string;
}

/** The definition of one tool as it was when the user approved or allow-listed it. */
export interface ToolPin {
  /** `toolDefinitionHash(tool)`, checked when the file is read. */
  readonly hash: string;
  readonly tool: PinnableTool;
  /** ISO 8601, UTC. */
  readonly pinnedAt: string;
}

export interface LaunchRecord extends LaunchApproval {
  readonly scope: TrustScope;
  readonly server: string;
}

export interface PinRecord extends ToolPin {
  readonly scope: TrustScope;
  readonly server: string;
}

/** The file's content in memory, keyed by `launchKey` and `pinKey`. */
export interface TrustState {
  readonly launches: Map<string, LaunchRecord>;
  readonly pins: Map<string, PinRecord>;
}

export function emptyTrustState(): TrustState {
  return { launches: new Map(), pins: new Map() };
}

// JSON arrays are injective where joining with a separator is not ("a/b" + "c" vs "a" + "b/c").
export function launchKey(scope: TrustScope, server: string): string {
  return JSON.stringify([scope, server]);
}

export function pinKey(scope: TrustScope, server: string, tool: string): string {
  return JSON.stringify([scope, server, tool]);
}

const HashSchema = z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lower-case hex characters');
const TextSchema = z.string().max(MAX_TEXT_CHARS);
const NameSchema = z.string().min(1).max(MAX_NAME_CHARS);
const ScopeSchema = z.string().refine(isTrustScope, "expected 'user' or an absolute path");
const TimeSchema = z.iso.datetime();

const StoredDefinitionSchema = z.object({
  executable: TextSchema.min(1),
  args: z.array(TextSchema).max(MAX_LIST_ITEMS),
  env: z.array(z.tuple([NameSchema, TextSchema])).max(MAX_LIST_ITEMS),
  cwd: TextSchema.nullable(),
  provenance: z.enum(['user', 'workspace']),
  workspaceRoot: TextSchema.nullable(),
  /** A remote server's endpoint (issue 11); absent for a local one. */
  remote: z
    .object({
      transport: z.enum(['streamable-http', 'sse', 'auto']),
      url: TextSchema.min(1),
      headers: z.array(z.tuple([NameSchema, TextSchema])).max(MAX_LIST_ITEMS),
      /** A pre-registered OAuth client: its id and secret reference (never a secret). */
      oauth: z
        .object({
          clientId: TextSchema.min(1),
          clientSecret: TextSchema.optional(),
          scopes: z.array(TextSchema).max(MAX_LIST_ITEMS),
          /** A machine-to-machine client (decision 0024): its grant, key reference, issuer. */
          grant: z.enum(['client_credentials', 'cross-app-access']).optional(),
          privateKey: TextSchema.optional(),
          algorithm: z.enum(JWT_ALGORITHMS).optional(),
          issuer: TextSchema.optional(),
          /** A cross-app access client's company IdP (decision 0032): references, no token. */
          idp: z
            .object({
              issuer: TextSchema.min(1),
              tokenEndpoint: TextSchema.optional(),
              clientId: TextSchema.min(1),
              clientSecret: TextSchema.optional(),
              idToken: TextSchema.min(1),
            })
            .optional(),
        })
        .optional(),
    })
    .optional(),
  /** The tool prefix of a server only a workspace file defines, as merged; absent otherwise. */
  toolPrefix: TextSchema.optional(),
});

const StoredToolSchema = z.object({
  name: NameSchema,
  title: z.string().optional(),
  description: z.string(),
  inputSchema: z.unknown(),
  annotations: z.unknown().optional(),
});

const LaunchEntrySchema = z.object({
  scope: ScopeSchema,
  server: NameSchema,
  fingerprint: HashSchema,
  approvedAt: TimeSchema,
  definition: StoredDefinitionSchema,
});

const PinEntrySchema = z.object({
  scope: ScopeSchema,
  server: NameSchema,
  hash: HashSchema,
  pinnedAt: TimeSchema,
  tool: StoredToolSchema,
});

type LaunchEntry = z.infer<typeof LaunchEntrySchema>;
type PinEntry = z.infer<typeof PinEntrySchema>;

const VersionSchema = z.looseObject({ version: z.number().int().positive() });

function fileSchema(maxEntries: number) {
  return z.object({
    version: z.literal(TRUST_FILE_VERSION),
    launches: z.array(LaunchEntrySchema).max(maxEntries),
    pins: z.array(PinEntrySchema).max(maxEntries),
  });
}

export type TrustFileParse =
  /** `dropped` says why each inconsistent entry was left out. */
  | { kind: 'ok'; state: TrustState; dropped: string[] }
  /** Not JSON, the wrong shape, or over a cap: nothing in it may be used. */
  | { kind: 'invalid'; reason: string }
  /** Written by a newer Switchyard: its meaning is unknown, so nothing in it may be used. */
  | { kind: 'future'; version: number };

/**
 * Parses the text of trust.json. Never throws. A file that is not JSON, has the wrong shape or
 * more than `maxEntries` launches or pins is `invalid` as a whole. An entry whose stored
 * fingerprint or hash does not match its definition (edited by hand, or written by a buggy
 * version), or that repeats another's key, is dropped and named in `dropped`: it grants nothing.
 */
export function parseTrustFile(text: string, maxEntries = MAX_TRUST_ENTRIES): TrustFileParse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', reason: `not JSON (${messageOf(error)})` };
  }
  const versioned = VersionSchema.safeParse(json);
  if (!versioned.success) return { kind: 'invalid', reason: firstIssue(versioned.error) };
  if (versioned.data.version > TRUST_FILE_VERSION) {
    return { kind: 'future', version: versioned.data.version };
  }
  const parsed = fileSchema(maxEntries).safeParse(json);
  if (!parsed.success) return { kind: 'invalid', reason: firstIssue(parsed.error) };

  const state = emptyTrustState();
  const dropped: string[] = [];
  const seen = new Set<string>();
  const keep = <T>(map: Map<string, T>, key: string, label: string, record: T, valid: boolean) => {
    if (!valid) dropped.push(`${label}: its hash does not match its definition`);
    else if (seen.has(key)) dropped.push(`${label}: it appears twice`);
    if (!valid || seen.has(key)) {
      map.delete(key); // a duplicate drops every copy: none of them is known to be the real one
      seen.add(key);
      return;
    }
    seen.add(key);
    map.set(key, record);
  };
  for (const entry of parsed.data.launches) {
    const record = launchRecord(entry);
    const valid = safeEquals(() => launchFingerprint(record.definition), entry.fingerprint);
    const label = `launch approval of ${JSON.stringify(entry.server)} in ${entry.scope}`;
    keep(state.launches, launchKey(entry.scope, entry.server), label, record, valid);
  }
  for (const entry of parsed.data.pins) {
    const record = pinRecord(entry);
    const valid = safeEquals(() => toolDefinitionHash(record.tool), entry.hash);
    const label = `pin of tool ${JSON.stringify(entry.tool.name)} of ${JSON.stringify(entry.server)} in ${entry.scope}`;
    keep(state.pins, pinKey(entry.scope, entry.server, entry.tool.name), label, record, valid);
  }
  return { kind: 'ok', state, dropped };
}

/**
 * The file text for `state`: entries sorted by scope, server and tool so the file diffs well,
 * indented by two spaces, with a final newline.
 */
export function serializeTrustFile(state: TrustState): string {
  const launches: LaunchEntry[] = [...state.launches.values()].map((record) => ({
    scope: record.scope,
    server: record.server,
    fingerprint: record.fingerprint,
    approvedAt: record.approvedAt,
    definition: storedDefinition(record.definition),
  }));
  const pins: PinEntry[] = [...state.pins.values()].map((record) => ({
    scope: record.scope,
    server: record.server,
    hash: record.hash,
    pinnedAt: record.pinnedAt,
    tool: record.tool,
  }));
  launches.sort((a, b) => compareKeys([a.scope, a.server], [b.scope, b.server]));
  pins.sort((a, b) =>
    compareKeys([a.scope, a.server, a.tool.name], [b.scope, b.server, b.tool.name]),
  );
  return `${JSON.stringify({ version: TRUST_FILE_VERSION, launches, pins }, null, 2)}\n`;
}

/**
 * Checks that `definition` can be stored and read back (strings within the caps, an absolute
 * scope aside); returns what is wrong, or undefined.
 */
export function definitionProblem(definition: LaunchDefinition): string | undefined {
  const parsed = StoredDefinitionSchema.safeParse(storedDefinition(definition));
  return parsed.success ? undefined : firstIssue(parsed.error);
}

/**
 * The pinned parts of `tool` as plain JSON (extra properties and `undefined` members dropped),
 * or a description of why it cannot be stored.
 */
export function storableTool(
  tool: PinnableTool,
): { ok: true; tool: PinnableTool } | { ok: false; problem: string } {
  let plain: unknown;
  try {
    const { name, title, description, inputSchema, annotations } = tool;
    plain = JSON.parse(canonicalJson({ name, title, description, inputSchema, annotations }));
  } catch (error) {
    return { ok: false, problem: messageOf(error) };
  }
  const parsed = StoredToolSchema.safeParse(plain);
  return parsed.success
    ? { ok: true, tool: parsed.data }
    : { ok: false, problem: firstIssue(parsed.error) };
}

function storedDefinition(definition: LaunchDefinition): z.input<typeof StoredDefinitionSchema> {
  return {
    executable: definition.executable,
    args: [...definition.args],
    env: Object.entries(definition.env).sort(([a], [b]) => compareKeys([a], [b])),
    cwd: definition.cwd,
    provenance: definition.provenance,
    workspaceRoot: definition.workspaceRoot,
    ...(definition.remote === undefined
      ? {}
      : {
          remote: {
            transport: definition.remote.transport,
            url: definition.remote.url,
            headers: Object.entries(definition.remote.headers).sort(([a], [b]) =>
              compareKeys([a], [b]),
            ),
            ...(definition.remote.oauth === undefined
              ? {}
              : {
                  oauth: {
                    ...copyClient(definition.remote.oauth),
                    scopes: [...definition.remote.oauth.scopes],
                  },
                }),
          },
        }),
    ...(definition.toolPrefix === undefined ? {} : { toolPrefix: definition.toolPrefix }),
  };
}

function launchRecord(entry: LaunchEntry): LaunchRecord {
  const { definition } = entry;
  return {
    scope: entry.scope,
    server: entry.server,
    fingerprint: entry.fingerprint,
    approvedAt: entry.approvedAt,
    // fromEntries defines own properties, so a `__proto__` key stays a key.
    definition: {
      executable: definition.executable,
      args: definition.args,
      env: Object.fromEntries(definition.env),
      cwd: definition.cwd,
      provenance: definition.provenance,
      workspaceRoot: definition.workspaceRoot,
      ...(definition.remote === undefined
        ? {}
        : {
            remote: {
              transport: definition.remote.transport,
              url: definition.remote.url,
              headers: Object.fromEntries(definition.remote.headers),
              ...(definition.remote.oauth === undefined
                ? {}
                : {
                    oauth: copyClient(definition.remote.oauth),
                  }),
            },
          }),
      ...(definition.toolPrefix === undefined ? {} : { toolPrefix: definition.toolPrefix }),
    },
  };
}

function pinRecord(entry: PinEntry): PinRecord {
  return {
    scope: entry.scope,
    server: entry.server,
    hash: entry.hash,
    pinnedAt: entry.pinnedAt,
    tool: entry.tool,
  };
}

/** `compute() === expected`, false when compute throws (a schema nested too deep to hash). */
function safeEquals(compute: () => string, expected: string): boolean {
  try {
    return compute() === expected;
  } catch {
    return false;
  }
}

function compareKeys(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'wrong shape';
  const where = issue.path.length === 0 ? '' : `${issue.path.map(String).join('.')}: `;
  return `${where}${issue.message}`;
}
