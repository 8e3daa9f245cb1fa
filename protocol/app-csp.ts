/**
 * The pure rules for an MCP App's content security policy (issue 12 part 4): which origins a
 * server may declare, and the policy an app page runs under. Both the host (when it reads a page)
 * and the sandbox frame (a second look, extension/entrypoints/app-frame.sandbox) apply them, so
 * this module imports nothing: the sandbox page ships without zod (decision 0028).
 */

/** Most origins kept per CSP list a server declares. */
export const MAX_CSP_ORIGINS = 32;

/** The CSP lists a server declares for its app, each entry already checked with isCspOrigin. */
export interface AppCsp {
  connectDomains: string[];
  resourceDomains: string[];
}

/**
 * One origin a server may declare for its app's CSP: `https://host[:port]` or
 * `https://*.host[:port]`, `wss://` likewise, and plain `http://` / `ws://` only for loopback
 * (`localhost`, `127.0.0.1`, `[::1]`), as MCP Apps servers write them in development. No path, no
 * quotes, no keywords, no `*` alone, no semicolons: nothing that could widen or end a directive.
 */
const SECURE_ORIGIN =
  /^(https|wss):\/\/(\*\.)?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+(:(\d{1,5}|\*))?$/u;
const LOOPBACK_ORIGIN =
  /^(http|ws|https|wss):\/\/(localhost|127\.0\.0\.1|\[::1\])(:(\d{1,5}|\*))?$/u;

export function isCspOrigin(value: string): boolean {
  const lower = value.toLowerCase();
  if (lower.length > 253) return false;
  if (!SECURE_ORIGIN.test(lower) && !LOOPBACK_ORIGIN.test(lower)) return false;
  const port = /:(\d{1,5})$/u.exec(lower)?.[1];
  return port === undefined || Number(port) <= 65_535;
}

/** The declared lists an app page came with, split into what the host keeps and what it drops. */
export interface CspReading {
  readonly csp: AppCsp;
  /** Entries refused (not an origin, or a list the host does not grant), for the user to see. */
  readonly ignored: string[];
}

function originsOf(value: unknown, ignored: string[], label: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    ignored.push(`${label}: not a list`);
    return [];
  }
  const kept: string[] = [];
  for (const entry of value) {
    if (typeof entry === 'string' && isCspOrigin(entry) && kept.length < MAX_CSP_ORIGINS) {
      if (!kept.includes(entry.toLowerCase())) kept.push(entry.toLowerCase());
    } else {
      ignored.push(`${label}: ${typeof entry === 'string' ? entry.slice(0, 120) : typeof entry}`);
    }
  }
  return kept;
}

/**
 * Reads a resource's declared `_meta.ui.csp`. Nested frames and other base URIs are never granted
 * (the sandbox allows no frame navigation at all): declaring them is reported, not honoured.
 */
export function readDeclaredCsp(value: unknown): CspReading {
  const ignored: string[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    if (value !== undefined) ignored.push('csp: not an object');
    return { csp: { connectDomains: [], resourceDomains: [] }, ignored };
  }
  const declared = value as Record<string, unknown>;
  const csp = {
    connectDomains: originsOf(declared['connectDomains'], ignored, 'connectDomains'),
    resourceDomains: originsOf(declared['resourceDomains'], ignored, 'resourceDomains'),
  };
  for (const key of ['frameDomains', 'baseUriDomains']) {
    const list = declared[key];
    if (Array.isArray(list) && list.length > 0) ignored.push(`${key}: not granted`);
  }
  return { csp, ignored };
}

/**
 * `reading` without the loopback origins, each reported: for the app of a server that is not on
 * this machine. A remote server cannot reach the user's localhost; its app, running in the user's
 * browser, could (dev servers, local APIs, other local MCP servers), and an app gets no more than
 * its server has.
 */
export function withoutLoopback(reading: CspReading): CspReading {
  const ignored = [...reading.ignored];
  const keep = (list: readonly string[], label: string): string[] =>
    list.filter((origin) => {
      if (!LOOPBACK_ORIGIN.test(origin)) return true;
      ignored.push(`${label}: ${origin} (this machine: not for a remote server's app)`);
      return false;
    });
  return {
    csp: {
      connectDomains: keep(reading.csp.connectDomains, 'connectDomains'),
      resourceDomains: keep(reading.csp.resourceDomains, 'resourceDomains'),
    },
    ignored,
  };
}

/**
 * The policy an app page runs under, written into the page before its own markup (and capped
 * again by the sandbox page's manifest policy, so the effective policy is the stricter of both).
 * Inline script and eval are allowed: an app is one self-contained HTML file by design. Network:
 * only the origins the server declared; nothing else, not even the extension.
 */
export function appContentSecurityPolicy(csp: AppCsp): string {
  const resources = csp.resourceDomains.join(' ');
  const connect = csp.connectDomains.length === 0 ? "'none'" : csp.connectDomains.join(' ');
  const withResources = (base: string): string =>
    resources === '' ? base : `${base} ${resources}`;
  return [
    "default-src 'none'",
    withResources("script-src 'unsafe-inline' 'unsafe-eval' blob: data:"),
    withResources("style-src 'unsafe-inline' blob: data:"),
    withResources('img-src blob: data:'),
    withResources('font-src blob: data:'),
    withResources('media-src blob: data:'),
    withResources('worker-src blob: data:'),
    `connect-src ${connect}`,
    "frame-src 'none'",
    "child-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * The app's HTML with the policy in front of everything it wrote: a `<meta>` policy only governs
 * what the parser meets after it, so it goes first (after a doctype, which keeps standards mode;
 * the page's own doctype is then ignored by the parser). A later, looser `<meta>` the page adds
 * can only add restrictions: every policy delivered to a document is enforced.
 */
export function htmlWithPolicy(html: string, policy: string): string {
  const attribute = policy.replace(/&/gu, '&amp;').replace(/"/gu, '&quot;');
  return `<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="${attribute}">${html}`;
}
