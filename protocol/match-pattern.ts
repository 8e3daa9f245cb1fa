import { globMatches } from './glob-match';

/**
 * Chrome-style URL match patterns (design D10): parsing with problems that say how to write the
 * pattern instead, matching a tab's URL, and which of several matching patterns is the most
 * specific. Pure and shared by the host (profiles in config.json) and the extension.
 *
 * Error direction: a pattern that matches a URL it should not hands a page the tools of a profile
 * meant for another site. Every doubt here resolves towards "no match".
 */

/** Longest match pattern accepted. */
export const MAX_PATTERN_CHARS = 2_048;

// protocol/ compiles without DOM and without node types, but both runtimes have the WHATWG URL
// API. Declared for this module only (it shadows nothing outside it), with just what is read.
interface WhatwgUrl {
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly hostname: string;
  /** `hostname:port`, or the hostname alone for the scheme's default port. */
  readonly host: string;
  readonly port: string;
  readonly pathname: string;
}
declare const URL: new (input: string) => WhatwgUrl;

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

/**
 * Schemes whose URL wraps the URL of the page that made the document: `blob:https://site/<id>`
 * and `filesystem:https://site/temporary/<file>` are that site's, and written by it, so they
 * are matched as the site (a page cannot leave its profile by opening its own blob).
 */
const WRAPPING_SCHEMES: ReadonlySet<string> = new Set(['blob:', 'filesystem:']);

/**
 * A tab's URL as patterns see it, or undefined when it is not a URL. A wrapping scheme is
 * unwrapped once: `blob:blob:` is no browser's URL, and unwrapping it again would only cost time.
 */
function parseTabUrl(url: string, wrapped = false): TabUrl | undefined {
  let parsed: WhatwgUrl;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (WRAPPING_SCHEMES.has(parsed.protocol)) {
    return wrapped ? undefined : parseTabUrl(parsed.pathname, true);
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
  return globMatches(pattern.path, url.path);
}

/** The schemes a pattern can name (parseMatchPattern). */
const PATTERN_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:', 'file:']);

/**
 * What of a tab's URL a profile lookup needs: the URL without its user name, password, query
 * and fragment, none of which a pattern reads, and only the scheme of a URL no pattern can
 * match (`data:`, `about:`, `chrome:`). Keeps what the extension sends to `profiles/resolve`
 * short (a page can make its own query as long as it likes) and private; a lookup of the result
 * finds what a lookup of `url` finds. A text that is not a URL becomes "" (it matches nothing).
 */
export function profileLookupUrl(url: string): string {
  return lookupOf(url, false);
}

function lookupOf(url: string, wrapped: boolean): string {
  let parsed: WhatwgUrl;
  try {
    parsed = new URL(url);
  } catch {
    return '';
  }
  if (WRAPPING_SCHEMES.has(parsed.protocol)) {
    // Once, as parseTabUrl unwraps: a wrapped wrapper matches nothing.
    const inner = wrapped ? '' : lookupOf(parsed.pathname, true);
    return inner === '' ? parsed.protocol : `${parsed.protocol}${inner}`;
  }
  if (!PATTERN_SCHEMES.has(parsed.protocol)) return parsed.protocol;
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
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

/**
 * The most specific of `candidates` whose pattern matches `url` (patternSpecificity); on a tie,
 * the one listed first. Undefined when none matches, when the URL does not parse, or when its
 * scheme is one no pattern names (`chrome-extension:`, `about:`, `data:`).
 */
export function mostSpecificMatch<T>(
  url: string,
  candidates: Iterable<{ readonly pattern: string; readonly value: T }>,
): { pattern: string; value: T } | undefined {
  const tab = parseTabUrl(url);
  if (tab === undefined) return undefined;
  let best: { pattern: string; value: T; rank: readonly number[] } | undefined;
  for (const { pattern: source, value } of candidates) {
    const pattern = cachedPattern(source);
    if (pattern === undefined || !matchesParsed(pattern, tab)) continue;
    const rank = patternSpecificity(pattern);
    if (best === undefined || compareSpecificity(rank, best.rank) > 0) {
      best = { pattern: source, value, rank };
    }
  }
  return best === undefined ? undefined : { pattern: best.pattern, value: best.value };
}

function show(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}...` : text);
}
