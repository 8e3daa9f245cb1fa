import { z } from 'zod';
import { pathGlobMatches } from './path-glob';

/**
 * Per-site workspace profiles (design D10) and per-profile token budgets (D11): the schema the
 * host stores in config.json and both sides send, URL match patterns, and which profile a tab's
 * URL selects. Pure and shared: the extension resolves the active tab to a profile id; the host
 * stores and enforces the profile (a tool it hides does not exist for that call).
 *
 * Error direction for matching: a pattern that matches a URL it should not hands a page the tools
 * of a profile meant for another site. Every doubt here resolves towards "no match".
 */

// protocol/ compiles without DOM and without node types, but both runtimes have the WHATWG URL
// API. Declared for this module only (it shadows nothing outside it), with just what is read.
interface WhatwgUrl {
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly hostname: string;
  readonly port: string;
  readonly pathname: string;
}
declare const URL: new (input: string) => WhatwgUrl;

export const DEFAULT_PROFILE_ID = 'default';
export const MAX_PROFILES = 64;
export const MAX_PATTERNS_PER_PROFILE = 64;
export const MAX_PATTERN_CHARS = 2_048;
export const MAX_PROFILE_NAME_CHARS = 100;
export const MAX_PROFILE_GLOBS = 256;
export const MAX_TOKEN_BUDGET = 10_000_000;
/** Longest URL `profiles/resolve` takes (browsers allow more; no site needs more to be matched). */
export const MAX_RESOLVE_URL_CHARS = 8_192;

/**
 * What a profile lets through, besides its servers and tool filters:
 * - `read-only`: only tools whose server claims `readOnlyHint: true`, and every call is asked
 *   (the claim is the server's word, which grants nothing: design D8), even over an allow rule;
 * - `standard`: every tool except those declaring `destructiveHint: true` (or a malformed hint);
 * - `full`: every tool. Policy still decides each call: `full` grants nothing by itself.
 */
export const ProfileModeSchema = z.enum(['read-only', 'standard', 'full'], {
  error: 'mode must be "read-only", "standard" or "full"',
});
export type ProfileMode = z.infer<typeof ProfileModeSchema>;

/** A profile id: a lower-case slug, `github`, `webshop-dev`. `default` is the default profile. */
export const ProfileIdSchema = z
  .string()
  .regex(
    /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/,
    "a profile id is 1-64 lower-case letters, digits and '-', not starting or ending with '-', e.g. \"github\"",
  );

// Control, format (bidi, zero-width), unassigned and separator characters: a name is shown in
// the side panel, where an invisible character could make two profiles look alike.
const INVISIBLE = /[\p{C}\p{Zl}\p{Zp}]/u;

export const ProfileNameSchema = z
  .string()
  .min(1, 'a profile name cannot be empty')
  .max(MAX_PROFILE_NAME_CHARS, `a profile name has at most ${MAX_PROFILE_NAME_CHARS} characters`)
  .refine((name) => !INVISIBLE.test(name), 'a profile name cannot contain invisible characters');

/** A glob over exposed tool names (`github__*`), in the alphabet of `toolPolicy` globs. */
export const ToolPatternSchema = z
  .string()
  .min(1, 'a tool pattern cannot be empty')
  .max(256, 'a tool pattern has at most 256 characters')
  .regex(
    /^[A-Za-z0-9_*?-]+$/,
    "a tool pattern has only letters, digits, '_', '-', '*' and '?', e.g. \"github__list_*\"",
  );

export const MatchPatternSchema = z.string().superRefine((pattern, ctx) => {
  const parsed = parseMatchPattern(pattern);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.problem });
});

/** An absolute folder on any OS: `/home/alex/src/shop`, `C:\src\shop`, `\\server\share\shop`. */
export function isAbsoluteFolder(folder: string): boolean {
  if (folder.includes('\u0000')) return false;
  return /^\//.test(folder) || /^[A-Za-z]:[\\/]/.test(folder) || /^[\\/]{2}[^\\/]/.test(folder);
}

const WorkspaceFolderSchema = z
  .string()
  .min(1)
  .max(4_096, 'a workspace folder has at most 4096 characters')
  .refine(
    isAbsoluteFolder,
    'the workspace folder must be an absolute path, e.g. "/home/me/src/shop"',
  );

const PolicyOverridesSchema = z
  .unknown()
  // zod's record drops a "__proto__" key without a word, and a dropped deny rule would loosen.
  .superRefine((value, ctx) => {
    if (typeof value === 'object' && value !== null && Object.hasOwn(value, '__proto__')) {
      ctx.addIssue({ code: 'custom', message: '"__proto__" cannot be a tool pattern' });
    }
  })
  .pipe(z.record(ToolPatternSchema, z.enum(['allow', 'ask', 'deny'])));

/**
 * One profile (design D10). Unknown keys are refused: a misspelt `exclude` must not quietly
 * expose what it was meant to hide.
 */
export const ProfileSchema = z
  .strictObject({
    id: ProfileIdSchema,
    name: ProfileNameSchema,
    /** URL match patterns that select this profile; the `default` profile has none. */
    match: z
      .array(MatchPatternSchema)
      .max(MAX_PATTERNS_PER_PROFILE, `a profile has at most ${MAX_PATTERNS_PER_PROFILE} patterns`),
    /** Configured server names this profile enables; omitted: every server (see the host). */
    servers: z.array(z.string().min(1).max(256)).max(256).optional(),
    /** Only tools whose exposed name matches one of these globs; omitted: every tool. */
    include: z.array(ToolPatternSchema).max(MAX_PROFILE_GLOBS).optional(),
    /** Tools whose exposed name matches one of these globs are hidden (wins over `include`). */
    exclude: z.array(ToolPatternSchema).max(MAX_PROFILE_GLOBS).optional(),
    mode: ProfileModeSchema,
    /**
     * Policy rules that apply under this profile, together with `toolPolicy` and with the same
     * precedence (deny, then ask, then allow): they tighten freely, and an `allow` loosens only a
     * tool no `toolPolicy` rule asks about or denies (docs/decisions/0010).
     */
    policy: PolicyOverridesSchema.optional(),
    /** A folder whose `.mcp.json` and `.vscode/mcp.json` join the configuration; MCP roots. */
    workspace: WorkspaceFolderSchema.optional(),
    /** Most tokens the model-facing tool listing of this profile should cost. */
    tokenBudget: z.number().int().positive().max(MAX_TOKEN_BUDGET).optional(),
  })
  .superRefine((profile, ctx) => {
    if (profile.id === DEFAULT_PROFILE_ID && profile.match.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['match'],
        message:
          'the default profile applies to every site no other profile matches: leave "match" empty',
      });
    }
  });
export type Profile = z.infer<typeof ProfileSchema>;

/**
 * The default profile when the user has not written one: every server, every tool, the policy
 * unchanged. That is what the host did before profiles existed; a stricter default is one
 * `profiles/set` with id `default` away. A fresh object each time: callers may keep it.
 */
export function builtinDefaultProfile(): Profile {
  return { id: DEFAULT_PROFILE_ID, name: 'Default', match: [], mode: 'full' };
}

/** One way to get a profile's tool listing under its token budget. */
export const BudgetSuggestionSchema = z.object({
  /** `server`: take the server out of the profile's `servers`; `tool`: add it to `exclude`. */
  kind: z.enum(['server', 'tool']),
  server: z.string(),
  /** For `tool`: the exposed name. */
  tool: z.string().optional(),
  /** Tokens the listing shrinks by. */
  saves: z.number().int().nonnegative(),
});
export type BudgetSuggestion = z.infer<typeof BudgetSuggestionSchema>;

export const TokenBudgetSchema = z.object({
  limit: z.number().int().positive(),
  /** Tokens of the profile's model-facing listing now. */
  used: z.number().int().nonnegative(),
  /** `limit - used`: negative when over. */
  headroom: z.number().int(),
  over: z.boolean(),
  /** When over: the fewest removals found that get under the limit. Empty otherwise. */
  suggestions: z.array(BudgetSuggestionSchema),
});
export type TokenBudget = z.infer<typeof TokenBudgetSchema>;

// ---------------------------------------------------------------------------------------------
// Match patterns.

/**
 * A parsed match pattern, Chrome-style: `<scheme>://<host>[:<port>]<path>` or `file://<path>`.
 * - scheme `*` is `http` or `https`, nothing else (no `file`, `chrome-extension`, `ws`);
 * - host `*` is any host; `*.example.com` is example.com and every subdomain; anything else is
 *   one host, compared as the URL API spells it (lower case, IDN in punycode, IPv4 normalized,
 *   one trailing dot ignored);
 * - no port matches every port; a port matches the URL's port, the scheme's default included;
 * - the path is a glob over the URL's path (`*` any run of characters, `/` included); the query
 *   and the fragment are never looked at.
 */
export interface MatchPattern {
  readonly source: string;
  readonly schemes: ReadonlyArray<'http:' | 'https:' | 'file:'>;
  readonly host:
    | { readonly kind: 'any' }
    | { readonly kind: 'exact'; readonly name: string }
    | { readonly kind: 'subdomains'; readonly name: string };
  readonly port: number | null;
  readonly path: string;
}

export type PatternParse =
  | { readonly ok: true; readonly pattern: MatchPattern }
  | { readonly ok: false; readonly problem: string };

const PATTERN = /^(\*|https?|file):\/\/([^/]*)(\/.*)?$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

function fail(problem: string): PatternParse {
  return { ok: false, problem };
}

/** Parses a match pattern; never throws. Problems say how to write it instead. */
export function parseMatchPattern(source: string): PatternParse {
  if (source.length > MAX_PATTERN_CHARS) {
    return fail(`a match pattern has at most ${MAX_PATTERN_CHARS} characters`);
  }
  const parts = PATTERN.exec(source);
  if (parts === null) {
    return fail(
      `${show(source)} is not a match pattern: write <scheme>://<host>/<path>, e.g. "https://github.com/*" or "http://localhost:5173/*" (scheme http, https, * or file)`,
    );
  }
  const scheme = parts[1] ?? '';
  const hostPort = parts[2] ?? '';
  const rawPath = parts[3];
  if (rawPath === undefined) {
    return fail(`${show(source)} has no path: add one, e.g. "${source}/*"`);
  }
  const path = patternPath(rawPath, scheme === 'file' ? 'file' : 'http');
  if (path === undefined) {
    return fail(
      `the path of ${show(source)} cannot contain '?', '#' or '\\': queries are not matched`,
    );
  }
  if (scheme === 'file') {
    if (hostPort !== '') return fail(`a file pattern has no host: write "file:///path/*"`);
    return {
      ok: true,
      pattern: { source, schemes: ['file:'], host: { kind: 'any' }, port: null, path },
    };
  }
  const schemes: MatchPattern['schemes'] =
    scheme === '*' ? ['http:', 'https:'] : scheme === 'http' ? ['http:'] : ['https:'];
  const split = splitPort(hostPort);
  if (split === undefined) return fail(`the port in ${show(source)} must be a number 1-65535`);
  const host = patternHost(split.host);
  if (typeof host === 'string') return fail(`${show(source)}: ${host}`);
  return { ok: true, pattern: { source, schemes, host, port: split.port, path } };
}

/** Why `pattern` is not a usable match pattern, or undefined when it is. */
export function matchPatternProblem(pattern: string): string | undefined {
  const parsed = parseMatchPattern(pattern);
  return parsed.ok ? undefined : parsed.problem;
}

function splitPort(hostPort: string): { host: string; port: number | null } | undefined {
  const close = hostPort.lastIndexOf(']');
  const colon = hostPort.lastIndexOf(':');
  if (colon < 0 || colon < close) return { host: hostPort, port: null };
  const host = hostPort.slice(0, colon);
  const port = hostPort.slice(colon + 1);
  if (port === '*') return { host, port: null };
  if (!/^\d{1,5}$/.test(port)) return undefined;
  const value = Number(port);
  return value >= 1 && value <= 65_535 ? { host, port: value } : undefined;
}

function patternHost(host: string): MatchPattern['host'] | string {
  if (host === '*') return { kind: 'any' };
  if (host === '') return 'the host is missing: use "*" for any host';
  const wildcard = host.startsWith('*.');
  const rest = wildcard ? host.slice(2) : host;
  if (rest.includes('*')) {
    return 'a host can only start with "*." (any subdomain) or be "*": "*" elsewhere is not a wildcard';
  }
  if (/[@\s\\/?#%]/.test(rest)) return `${show(host)} is not a host name`;
  let name: string;
  try {
    const url = new URL(`http://${rest}/`);
    if (url.username !== '' || url.password !== '' || url.port !== '' || url.pathname !== '/') {
      return `${show(host)} is not a host name`;
    }
    name = canonicalHost(url.hostname);
  } catch {
    return `${show(host)} is not a host name`;
  }
  if (name === '' || name.endsWith('.')) return `${show(host)} is not a host name`;
  if (!wildcard) return { kind: 'exact', name };
  if (IPV4.test(name) || name.startsWith('[')) {
    return '"*." cannot precede an IP address: write the address itself';
  }
  return { kind: 'subdomains', name };
}

/** The pattern's path as the URL API would spell it, `*` kept; undefined for `?`, `#`, `\`. */
function patternPath(path: string, kind: 'file' | 'http'): string | undefined {
  if (/[?#\\]/.test(path)) return undefined;
  try {
    return new URL(`${kind === 'file' ? 'file://' : 'http://h'}${path}`).pathname;
  } catch {
    return undefined;
  }
}

/** One trailing dot (`github.com.`, the DNS root) names the same host. */
function canonicalHost(hostname: string): string {
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}

interface TabUrl {
  readonly scheme: string;
  readonly host: string;
  readonly port: number | null;
  readonly path: string;
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/** A tab's URL as patterns see it, or undefined when it is not a URL. */
function parseTabUrl(url: string): TabUrl | undefined {
  let parsed: WhatwgUrl;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const explicit = parsed.port === '' ? undefined : Number(parsed.port);
  return {
    scheme: parsed.protocol,
    host: canonicalHost(parsed.hostname),
    port: explicit ?? DEFAULT_PORTS[parsed.protocol] ?? null,
    path: parsed.pathname,
  };
}

function matchesParsed(pattern: MatchPattern, url: TabUrl): boolean {
  if (!pattern.schemes.some((scheme) => scheme === url.scheme)) return false;
  // A file pattern names local paths: a file URL with a host is another machine's share.
  if (url.scheme === 'file:' && url.host !== '') return false;
  if (url.scheme !== 'file:') {
    if (pattern.port !== null && pattern.port !== url.port) return false;
    const host = pattern.host;
    switch (host.kind) {
      case 'any':
        if (url.host === '') return false;
        break;
      case 'exact':
        if (url.host !== host.name) return false;
        break;
      case 'subdomains':
        if (url.host !== host.name && !url.host.endsWith(`.${host.name}`)) return false;
        break;
    }
  }
  return pathGlobMatches(pattern.path, url.path);
}

/** Whether `url` is matched by `pattern`; false for a malformed pattern or URL. */
export function matchUrl(pattern: string, url: string): boolean {
  const parsed = cachedPattern(pattern);
  const tab = parseTabUrl(url);
  return parsed !== undefined && tab !== undefined && matchesParsed(parsed, tab);
}

/**
 * How specific a pattern is, compared element by element (larger wins):
 * 1. the host: one exact host, then `*.` with a longer suffix, then any host;
 * 2. the port: an explicit port over none;
 * 3. the scheme: `http` or `https` over `*`;
 * 4. the path: a longer literal prefix (before the first `*`), then a path without `*`.
 * Host and port name the site; the path only narrows within it.
 */
export function patternSpecificity(pattern: MatchPattern): readonly number[] {
  const host = pattern.host;
  const hostRank = host.kind === 'exact' ? 2 : host.kind === 'subdomains' ? 1 : 0;
  const hostLength = host.kind === 'any' ? 0 : host.name.length;
  const star = pattern.path.indexOf('*');
  return [
    hostRank,
    hostLength,
    pattern.port === null ? 0 : 1,
    pattern.schemes.length === 1 ? 1 : 0,
    star < 0 ? pattern.path.length : star,
    star < 0 ? 1 : 0,
  ];
}

function compareSpecificity(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const delta = (a[i] ?? 0) - (b[i] ?? 0);
    if (delta !== 0) return delta;
  }
  return 0;
}

const patternCache = new Map<string, MatchPattern | undefined>();
const MAX_CACHED_PATTERNS = 4_096;

function cachedPattern(source: string): MatchPattern | undefined {
  if (patternCache.has(source)) return patternCache.get(source);
  const parsed = parseMatchPattern(source);
  if (patternCache.size >= MAX_CACHED_PATTERNS) patternCache.clear();
  const value = parsed.ok ? parsed.pattern : undefined;
  patternCache.set(source, value);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Resolution.

/** The default profile of a list: the user's `default` entry if there is one, else the built-in. */
export function defaultProfileOf(profiles: readonly Profile[]): Profile {
  return profiles.find((p) => p.id === DEFAULT_PROFILE_ID) ?? builtinDefaultProfile();
}

export interface ProfileResolution {
  readonly profile: Profile;
  /** The pattern that selected it; null when no pattern matched (the default profile). */
  readonly matchedPattern: string | null;
}

/**
 * The profile for a tab's URL: the one with the most specific matching pattern
 * (patternSpecificity); on a tie the profile listed first, then its pattern listed first. No
 * match, a URL that does not parse, or a scheme no pattern names (`chrome-extension:`, `about:`,
 * `data:`): the default profile. The `default` entry's patterns, if any, are never used.
 */
export function resolveProfile(profiles: readonly Profile[], url: string): ProfileResolution {
  const tab = parseTabUrl(url);
  let best: { profile: Profile; pattern: string; rank: readonly number[] } | undefined;
  if (tab !== undefined) {
    for (const profile of profiles) {
      if (profile.id === DEFAULT_PROFILE_ID) continue;
      for (const source of profile.match) {
        const pattern = cachedPattern(source);
        if (pattern === undefined || !matchesParsed(pattern, tab)) continue;
        const rank = patternSpecificity(pattern);
        if (best === undefined || compareSpecificity(rank, best.rank) > 0) {
          best = { profile, pattern: source, rank };
        }
      }
    }
  }
  return best === undefined
    ? { profile: defaultProfileOf(profiles), matchedPattern: null }
    : { profile: best.profile, matchedPattern: best.pattern };
}

function show(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}...` : text);
}
