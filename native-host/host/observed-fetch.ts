import type { FetchLike } from '@modelcontextprotocol/client';
import { safeText } from '../../protocol/untrusted/gate';
import { messageOf } from '../../protocol/guards';

/** Longest part of a server's error body kept in the log. */
const MAX_BODY_CHARS = 500;

/** What `observedFetch` tells its connection. */
export interface FetchObserver {
  /** One line of the HTTP log (not yet through the untrusted-text gate). */
  write(line: string): void;
  /** The server could not be reached at all; `problem` says why. */
  onNetworkFailure(problem: string): void;
}

/**
 * The transports' fetch: adds the configured headers to requests to the server's origin (the
 * transport's own headers win, so `Mcp-Session-Id` and a token from an auth provider are kept),
 * logs every failed exchange, and reports a failure to reach the server at all.
 */
export function observedFetch(
  base: FetchLike,
  server: URL,
  headers: Readonly<Record<string, string>>,
  observer: FetchObserver,
): FetchLike {
  return async (input, init) => {
    const target = new URL(input);
    const method = init?.method ?? 'GET';
    const where = `${method} ${target.pathname}`;
    let request = init;
    if (target.origin === server.origin && Object.keys(headers).length > 0) {
      const merged = new Headers(headers);
      new Headers(init?.headers).forEach((value, key) => {
        merged.set(key, value);
      });
      request = { ...init, headers: merged };
    }
    let response: Response;
    try {
      response = await base(input, request);
    } catch (error) {
      if (init?.signal?.aborted === true) throw error; // a cancelled call, not a lost server
      const problem = networkProblem(error);
      observer.write(`${where}: ${problem}`);
      if (target.origin === server.origin) observer.onNetworkFailure(problem);
      throw error;
    }
    if (response.status >= 400) {
      const body = await bodySnippet(response);
      const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
      observer.write(`${where}: HTTP ${status}${body === '' ? '' : `: ${body}`}`);
    }
    return response;
  };
}

/** "connection refused (ECONNREFUSED)" from what fetch throws: the cause says what went wrong. */
function networkProblem(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  const code =
    typeof cause === 'object' && cause !== null && 'code' in cause && typeof cause.code === 'string'
      ? cause.code
      : undefined;
  const words: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ENOTFOUND: 'host not found',
    ETIMEDOUT: 'connection timed out',
    EAI_AGAIN: 'host name lookup failed',
    UND_ERR_SOCKET: 'connection closed by the server',
    CERT_HAS_EXPIRED: 'the server certificate has expired',
    DEPTH_ZERO_SELF_SIGNED_CERT: 'the server certificate is self-signed',
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the server certificate cannot be verified',
  };
  if (code !== undefined) return `${words[code] ?? 'could not connect'} (${code})`;
  return `could not connect: ${messageOf(cause ?? error)}`;
}

/** The start of an error body, as text, without consuming the body the transport reads. */
async function bodySnippet(response: Response): Promise<string> {
  try {
    const text = await response.clone().text();
    // Redacted before it is cut: a token across the cut would otherwise keep its first part.
    return safeText(text.replace(/\s+/g, ' ').trim(), { maxChars: MAX_BODY_CHARS });
  } catch {
    return '';
  }
}
