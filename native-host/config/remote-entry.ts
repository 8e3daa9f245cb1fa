import { z } from 'zod';
import type { RemoteTransport } from '../shared/server-spec';
import {
  MAX_HEADERS,
  headerNameProblem,
  headerValueProblem,
  remoteUrlProblem,
} from '../../protocol/remote-url';
import { RESERVED_KEY, recordErrors } from './zod-errors';

/**
 * Remote server entries (issue 11): what an entry that names a URL means, and whether the URL and
 * headers may be used. Pure; `schema.ts` builds the zod schema from these. The URL and header
 * rules themselves are in protocol/remote-url.ts, shared with the popup's form.
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
