import { createHash } from 'node:crypto';
import { readDeclaredCsp, withoutLoopback, type AppCsp } from '../../protocol/app-csp';
import { APP_MIME_TYPE, APP_PERMISSIONS, MAX_APP_HTML_BYTES } from '../../protocol/apps';
import { HostError } from '../shared/host-error';
import { safeText } from '../../protocol/untrusted/gate';

/**
 * An MCP App's page as a server's `resources/read` returned it (issue 12 part 4), checked and
 * split into parts that each fit one host -> browser frame. Pure.
 *
 * The HTML is not passed through the untrusted-text gate: it is code for the sandbox, never model
 * input, and the gate's rewriting (bidi controls, redaction, caps) would break scripts. What the
 * host does promise about it: it is the page of the `ui://` URI asked for, of the app MIME type,
 * valid UTF-8, at most MAX_APP_HTML_BYTES; its declared CSP origins are checked one by one.
 */

export interface AppPage {
  readonly html: string;
  readonly hash: string;
  readonly bytes: number;
  readonly csp: AppCsp;
  readonly ignored: string[];
  readonly permissions: (typeof APP_PERMISSIONS)[number][];
  readonly prefersBorder: boolean | undefined;
}

/** The answer to anything app-related of a server whose entry says `"apps": false`. */
export function appsTurnedOff(server: string): HostError {
  return new HostError(
    'not-supported',
    `Apps are turned off for server '${server}' ("apps": false in its entry).`,
    { server },
  );
}

/** Most bytes of page text in one part: its JSON form (escapes included) stays well in a frame. */
export const MAX_PART_BYTES = 600_000;

function isAppMimeType(value: unknown): boolean {
  return typeof value === 'string' && value.toLowerCase().replace(/\s+/gu, '') === APP_MIME_TYPE;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function notAnApp(server: string, uri: string, why: string): HostError {
  return new HostError(
    'not-supported',
    `'${safeText(uri, { maxChars: 200 })}' of server '${server}' is not an MCP App page: ${why}.`,
    { server },
  );
}

/** The page text of one `resources/read` entry: `text`, or a base64 `blob` of UTF-8. */
function pageText(entry: Record<string, unknown>, server: string, uri: string): string {
  if (typeof entry['text'] === 'string') return entry['text'];
  const blob = entry['blob'];
  if (typeof blob !== 'string') throw notAnApp(server, uri, 'it has neither text nor blob');
  if (blob.length > (MAX_APP_HTML_BYTES / 3) * 4 + 4) throw tooLarge(server, uri, blob.length);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(blob, 'base64'));
  } catch {
    throw notAnApp(server, uri, 'its content is not UTF-8 text');
  }
}

function tooLarge(server: string, uri: string, bytes: number): HostError {
  return new HostError(
    'result-too-large',
    `The app page '${safeText(uri, { maxChars: 200 })}' of server '${server}' is ${bytes} bytes; Switchyard shows pages up to ${MAX_APP_HTML_BYTES} bytes.`,
    { server },
  );
}

/** Reads the page out of a `resources/read` result. Throws a HostError saying what is wrong. */
/**
 * Reads an app page. `local`: whether its server is on this machine (stdio, or a remote entry on
 * loopback); only then may the page's policy name loopback origins.
 */
export function readAppPage(raw: unknown, server: string, uri: string, local = true): AppPage {
  const contents = record(raw)?.['contents'];
  const entries = Array.isArray(contents) ? contents.map(record) : [];
  const entry = entries.find((e) => e?.['uri'] === uri) ?? entries.find((e) => e !== undefined);
  if (entry === undefined) throw notAnApp(server, uri, 'the server returned no content for it');
  if (!isAppMimeType(entry['mimeType'])) {
    const type = typeof entry['mimeType'] === 'string' ? entry['mimeType'] : 'none';
    throw notAnApp(
      server,
      uri,
      `its type is ${safeText(type, { maxChars: 100 })}, not ${APP_MIME_TYPE}`,
    );
  }
  const html = pageText(entry, server, uri);
  const bytes = Buffer.byteLength(html, 'utf8');
  if (bytes > MAX_APP_HTML_BYTES) throw tooLarge(server, uri, bytes);
  const ui = record(record(entry['_meta'])?.['ui']);
  const declared = readDeclaredCsp(ui?.['csp']);
  const { csp, ignored } = local ? declared : withoutLoopback(declared);
  const asked = record(ui?.['permissions']) ?? {};
  const permissions = APP_PERMISSIONS.filter((p) => p in asked);
  const border = ui?.['prefersBorder'];
  return {
    html,
    hash: createHash('sha256').update(html).digest('hex'),
    bytes,
    csp,
    ignored: ignored.map((line) => safeText(line, { maxChars: 160 })).slice(0, 256),
    permissions,
    prefersBorder: typeof border === 'boolean' ? border : undefined,
  };
}

/** JSON-escaped UTF-8 size of a string, as it will travel in the frame. */
function framedBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text), 'utf8');
}

/**
 * Splits `text` into parts of at most `maxBytes` framed bytes each, never between the two halves
 * of a surrogate pair. Joined, the parts are `text`.
 */
export function splitIntoParts(text: string, maxBytes = MAX_PART_BYTES): string[] {
  if (text.length === 0) return [''];
  const parts: string[] = [];
  let start = 0;
  // A first guess of characters per part; shrunk where the text escapes or encodes larger.
  const step = Math.max(1, Math.floor(maxBytes / 2));
  while (start < text.length) {
    let end = Math.min(text.length, start + step);
    for (;;) {
      const code = text.charCodeAt(end - 1);
      if (end < text.length && code >= 0xd800 && code <= 0xdbff) end -= 1;
      if (end <= start) end = start + 2; // one surrogate pair, which always fits
      if (framedBytes(text.slice(start, end)) <= maxBytes || end - start <= 2) break;
      end = start + Math.max(1, Math.floor((end - start) / 2));
    }
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts;
}
