import { redactSecrets } from './untrusted/redact';
/**
 * Whether a remote server's URL and headers may be used (issue 11): the rules the host enforces
 * on config.json, `switchyard add --url` and `servers/add`, and that the popup's form checks
 * before sending so the user sees the problem next to the field. Pure and shared so the two sides
 * cannot drift; the host checks again and is authoritative.
 */

export const MAX_URL_CHARS = 4096;
export const MAX_HEADERS = 64;
export const MAX_HEADER_NAME_CHARS = 256;
export const MAX_HEADER_VALUE_CHARS = 8192;

// protocol/ compiles without DOM and without node types, but both runtimes have the WHATWG URL
// API. Declared for this module only (it shadows nothing outside it), with just what is read.
interface WhatwgUrl {
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly hostname: string;
  readonly hash: string;
  readonly origin: string;
  readonly href: string;
  readonly searchParams: {
    [Symbol.iterator](): Iterator<[string, string]>;
    set(name: string, value: string): void;
  };
}
declare const URL: new (input: string) => WhatwgUrl;

/**
 * Host names that are this machine: plain `http` is allowed to them only. Not `*.localhost`:
 * RFC 6761 reserves them, but Node asks the system resolver, which without a local rule (nss-
 * myhostname, a hosts entry) asks the network's DNS, and that may answer any address.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost') return true;
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
  let url: WhatwgUrl;
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

/** The origin shown on a consent card or a server row: where data and tokens would go. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Query parameters whose value is a credential on the servers that take one in the URL. */
const SECRET_PARAM = /key|token|secret|auth|pass|sig|session|credential|code/i;

/**
 * A remote server's URL as `servers/list`, `doctor` and import show it: the value of a query
 * parameter named like a credential (`?api_key=`, `?token=`) becomes `…`, and a known token shape
 * anywhere in it (a `sk-…` path segment) is redacted as untrusted text is. A `${VAR}` reference
 * is kept: it is no secret. The consent card and config.json keep the URL exactly as written
 * (what the user approves is what is contacted); only these displays mask it.
 */
export function displayUrl(url: string): string {
  let parsed: WhatwgUrl;
  try {
    parsed = new URL(url);
  } catch {
    return redactSecrets(url).text;
  }
  let masked = false;
  for (const [name, value] of [...parsed.searchParams]) {
    if (SECRET_PARAM.test(name) && value !== '' && !/^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(value)) {
      parsed.searchParams.set(name, '…');
      masked = true;
    }
  }
  // URLSearchParams re-encodes the whole query; only rewrite it when something was masked.
  const shown = masked ? parsed.href.replaceAll('%E2%80%A6', '…') : url;
  return redactSecrets(shown).text;
}
