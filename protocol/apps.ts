import { z } from 'zod';
import { ProfileIdSchema } from './profiles';

/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension, issue 12 part 4): a tool whose definition
 * links a `ui://` resource is shown with that resource, an HTML page, rendered in a sandboxed
 * frame of the side panel. What the host tells the extension about a tool's app, what `apps/read`
 * answers, and the pure rules both sides apply to what a server declares (its CSP origins).
 *
 * Everything here that came from a server is untrusted: the HTML is code for the sandbox and is
 * never shown to the model, and the declared CSP origins are checked one by one before they get
 * anywhere near a policy string (an origin is the one thing a server can write into our CSP).
 */

/** The MIME type of an MCP App's HTML resource. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The extension key a client declares in its capabilities to say it renders apps. */
export const APPS_EXTENSION_KEY = 'io.modelcontextprotocol/ui';

/** Largest app page the host relays, in UTF-8 bytes (server-pdf's viewer is 4.3 MB). */
export const MAX_APP_HTML_BYTES = 10 * 1024 * 1024;

/** Longest `ui://` URI accepted. */
export const MAX_APP_URI_CHARS = 2_048;

/** Most origins kept per CSP list a server declares. */
export const MAX_CSP_ORIGINS = 32;

/** Who may call a tool (MCP Apps `_meta.ui.visibility`); absent means both. */
export const ToolVisibilitySchema = z.enum(['model', 'app']);
export type ToolVisibility = z.infer<typeof ToolVisibilitySchema>;

/** What a tool listing says about a tool's app. */
export const ToolUiSchema = z.object({
  /** The app page shown with this tool's results; absent when the tool has none (or apps are off). */
  resourceUri: z.string().min(1).max(MAX_APP_URI_CHARS).optional(),
  /** Who may call it; a tool the model may not call is never in the model's listing. */
  visibility: z.array(ToolVisibilitySchema).max(2),
});
export type ToolUi = z.infer<typeof ToolUiSchema>;

/** Whether `uri` is a `ui://` URI the host will read for an app. */
export function isAppUri(uri: string): boolean {
  return (
    uri.length <= MAX_APP_URI_CHARS &&
    /^ui:\/\/[^\s]+$/u.test(uri) &&
    // No control characters or quotes: the URI is shown and logged.
    !Array.from(uri).some(
      (c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || `"'<>\\`.includes(c),
    )
  );
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

/** The CSP lists a server declares for its app, each entry already checked with isCspOrigin. */
export const AppCspSchema = z.object({
  connectDomains: z.array(z.string()).max(MAX_CSP_ORIGINS),
  resourceDomains: z.array(z.string()).max(MAX_CSP_ORIGINS),
});
export type AppCsp = z.infer<typeof AppCspSchema>;

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

/** The permissions an app may ask for (MCP Apps `_meta.ui.permissions`); none is granted. */
export const APP_PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;

/** One part of an app page as `apps/read` answers it. */
export const AppReadResultSchema = z.object({
  server: z.string(),
  uri: z.string(),
  /** SHA-256 of the whole page: every part of one read carries the same one. */
  hash: z.string(),
  /** UTF-8 bytes of the whole page. */
  bytes: z.number().int().nonnegative(),
  part: z.number().int().nonnegative(),
  parts: z.number().int().positive(),
  /** This part of the page's text (parts join to the page). */
  text: z.string(),
  csp: AppCspSchema,
  /** What the server declared and the host did not keep (shown with the app). */
  ignored: z.array(z.string()).max(256),
  /** Permissions the page asked for; none is granted. */
  permissions: z.array(z.enum(APP_PERMISSIONS)),
  prefersBorder: z.boolean().optional(),
});
export type AppReadResult = z.infer<typeof AppReadResultSchema>;

/** The host methods of MCP Apps (merged into the method table in methods.ts). */
export const appMethods = {
  'apps/read': {
    params: z.object({
      server: z.string().min(1).max(256),
      uri: z.string().min(1).max(MAX_APP_URI_CHARS).refine(isAppUri, { error: 'not a ui:// URI' }),
      /** Which part of the page; 0 (the default) reads the page afresh. */
      part: z.number().int().nonnegative().max(10_000).optional(),
      profile: ProfileIdSchema.optional(),
    }),
    result: AppReadResultSchema,
  },
} as const;
