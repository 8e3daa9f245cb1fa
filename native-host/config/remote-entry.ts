import { z } from 'zod';
import type { RemoteTransport } from '../shared/server-spec';
import { RESERVED_KEY, recordErrors } from './zod-errors';

/**
 * Remote server entries (issue 11): what an entry that names a URL means, and whether the URL and
 * headers may be used. Pure; `schema.ts` builds the zod schema from these.
 *
 * The shapes are those other clients write, so an entry pastes unchanged:
 *
 *   {"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}
 *   {"url": "https://mcp.example.com/mcp"}           (Cursor, Claude Desktop: transport inferred)
 *   {"type": "sse", "url": "https://old.example.com/sse"}
 *   {"serverUrl": "https://…"}                        (Windsurf)
 *   {"httpUrl": "https://…"}                          (Gemini CLI: Streamable HTTP)
 *   {"transportType": "streamableHttp", "url": "…"}   (Cline)
 */

export const MAX_URL_CHARS = 4096;
export const MAX_HEADERS = 64;
export const MAX_HEADER_NAME_CHARS = 256;
export const MAX_HEADER_VALUE_CHARS = 8192;

/** Keys other clients use for a remote server's URL, in the order they are looked for. */
export const REMOTE_URL_KEYS = ['url', 'serverUrl', 'httpUrl'] as const;
export type RemoteUrlKey = (typeof REMOTE_URL_KEYS)[number];

/** Keys naming the transport: `type` (Claude, Cursor, VS Code) and `transportType` (Cline). */
export const TRANSPORT_KEYS = ['type', 'transportType'] as const;

const TYPE_WORDS: Readonly<Record<string, 'stdio' | RemoteTransport>> = {
  stdio: 'stdio',
  http: 'streamable-http',
  'streamable-http': 'streamable-http',
  streamableHttp: 'streamable-http',
  streamable_http: 'streamable-http',
  sse: 'sse',
};

/** What an entry's transport keys say, before its other fields are checked. */
export type TransportReading =
  | { readonly kind: 'stdio' }
  | { readonly kind: 'remote'; readonly transport: RemoteTransport; readonly urlKey: RemoteUrlKey }
  /** A transport the host does not speak (`ws`, a typo): `key` holds it, `shown` quotes it. */
  | { readonly kind: 'unsupported'; readonly key: string; readonly shown: string }
  /** A remote transport named without a URL, or a URL beside a command: `key` is at fault. */
  | { readonly kind: 'invalid'; readonly key: string; readonly message: string };

/**
 * Reads the transport of one entry from its `type`/`transportType` and URL keys. An entry with
 * neither is stdio (the Claude Desktop shape); `"type": "stdio"` with a `url` is stdio too (the
 * URL is ignored, as other clients do).
 */
export function readTransport(entry: Readonly<Record<string, unknown>>): TransportReading {
  const has = (key: string) => Object.hasOwn(entry, key) && entry[key] !== undefined;
  const urlKey = REMOTE_URL_KEYS.find(has);
  const typeKey = TRANSPORT_KEYS.find(has);
  let transport: RemoteTransport;
  if (typeKey !== undefined) {
    const word = entry[typeKey];
    const known =
      typeof word === 'string' && Object.hasOwn(TYPE_WORDS, word) ? TYPE_WORDS[word] : undefined;
    if (known === undefined) {
      // Quote the value only when it is a plain word: it ends up in a message on a terminal.
      const shown = typeof word === 'string' && /^[\w.-]{1,40}$/.test(word) ? `"${word}"` : 'this';
      return { kind: 'unsupported', key: typeKey, shown };
    }
    if (known === 'stdio') return { kind: 'stdio' };
    if (urlKey === undefined) {
      return {
        kind: 'invalid',
        key: 'url',
        message: `url is missing: a "${String(word)}" server needs the address to connect to, e.g. "https://mcp.example.com/mcp"`,
      };
    }
    transport = known;
  } else {
    if (urlKey === undefined) return { kind: 'stdio' };
    // Gemini CLI's httpUrl is Streamable HTTP only; a bare url (or serverUrl) can be either.
    transport = urlKey === 'httpUrl' ? 'streamable-http' : 'auto';
  }
  if (has('command')) {
    return {
      kind: 'invalid',
      key: 'command',
      message: `an entry has either a "command" (a local server) or a "${urlKey}" (a remote one), not both; remove one`,
    };
  }
  return { kind: 'remote', transport, urlKey };
}

/** Host names that are this machine: plain `http` is allowed to them only. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Why `text` cannot be a remote server's URL, or undefined when it can: an absolute `https` URL,
 * or `http` to a loopback address (a token or a tool's data sent in clear over a network is for
 * anyone on the path); no user name or password in it (they would be logged and shown: use
 * `headers`); no fragment (never sent, so it only confuses).
 */
export function remoteUrlProblem(text: string): string | undefined {
  if (text.length === 0) return 'url cannot be empty';
  if (text.length > MAX_URL_CHARS) return `url can have at most ${MAX_URL_CHARS} characters`;
  if (/[\s\p{C}]/u.test(text)) return 'url cannot contain spaces or control characters';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'url must be an absolute address, e.g. "https://mcp.example.com/mcp"';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return `url must start with https:// (this one is ${url.protocol.replace(/:$/, '')})`;
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return 'url must use https:// unless the server is on this machine (localhost or 127.0.0.1): over plain http anyone on the network can read your data and tokens';
  }
  if (url.username !== '' || url.password !== '') {
    return 'url cannot contain a user name or password; send credentials in "headers" instead';
  }
  if (url.hash !== '') return 'url cannot have a #fragment';
  return undefined;
}

// RFC 9110 field-name: a token.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Headers the transport sets itself: a value from the config would break the session. */
const TRANSPORT_HEADERS = new Set([
  'accept',
  'content-type',
  'content-length',
  'host',
  'connection',
  'transfer-encoding',
  'mcp-session-id',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'last-event-id',
]);

/** Why `name` cannot be a configured header name, or undefined. */
export function headerNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'a header name cannot be empty';
  if (name.length > MAX_HEADER_NAME_CHARS) {
    return `a header name can have at most ${MAX_HEADER_NAME_CHARS} characters`;
  }
  if (!HEADER_NAME.test(name)) {
    return "a header name can only have letters, digits and !#$%&'*+.^_`|~-";
  }
  if (TRANSPORT_HEADERS.has(name.toLowerCase())) {
    return `"${name}" is set by the transport itself and cannot be configured`;
  }
  return undefined;
}

/** Why `value` cannot be a configured header value (before `${VAR}` expansion), or undefined. */
export function headerValueProblem(value: string): string | undefined {
  if (value.length > MAX_HEADER_VALUE_CHARS) {
    return `a header value can have at most ${MAX_HEADER_VALUE_CHARS} characters`;
  }
  // CR/LF would split the header (request smuggling); other controls are refused by fetch.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point.
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) {
    return 'a header value cannot contain line breaks or control characters';
  }
  // HTTP field values are bytes: fetch refuses a character above U+00FF at connect time with a
  // TypeError that names neither the header nor the entry, and that would read as a lost server.
  if (/[^\t\u0020-\u00ff]/.test(value)) {
    return 'a header value can only have Latin-1 characters (no emoji, curly quotes or other Unicode)';
  }
  return undefined;
}

/** The origin shown on a consent card: where data and tokens would go. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** A remote server's URL; see remoteUrlProblem. */
export const UrlSchema = z
  .string({ error: 'url must be a string, e.g. "https://mcp.example.com/mcp"' })
  .superRefine((url, ctx) => {
    const problem = remoteUrlProblem(url);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A remote server's `headers`: names and values checked, values unexpanded. */
export const HeadersSchema = z
  .unknown()
  .superRefine((headers, ctx) => {
    if (typeof headers === 'object' && headers !== null && Object.hasOwn(headers, RESERVED_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: [RESERVED_KEY],
        message: `"${RESERVED_KEY}" cannot be a header name`,
      });
    }
  })
  .pipe(
    z.record(
      z.string().superRefine((name, ctx) => {
        const problem = headerNameProblem(name);
        if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
      }),
      z.string({ error: 'a header value must be a string' }).superRefine((value, ctx) => {
        const problem = headerValueProblem(value);
        if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
      }),
      {
        error: recordErrors(
          'headers must be an object of strings, e.g. {"Authorization": "Bearer ${API_TOKEN}"}',
        ),
      },
    ),
  )
  .refine(
    (headers) => Object.keys(headers).length <= MAX_HEADERS,
    `at most ${MAX_HEADERS} headers are supported`,
  )
  .refine((headers) => {
    const folded = Object.keys(headers).map((name) => name.toLowerCase());
    return new Set(folded).size === folded.length;
  }, 'headers names one header twice (header names ignore case)');
