import type { ProviderAccess } from './provider';

/**
 * What the options page's "Test connection" found (issue 14), as the worker answers it: one
 * cause, a sentence naming it and what to check, and — when the browser's site access for the
 * provider is what is missing — the access to ask for (the page asks, inside the user's click).
 */

export type ConnectionCause =
  /** The provider answered and the key (if any) was accepted. */
  | 'ok'
  /** It answered, but its model list does not have the configured model. */
  | 'model-not-listed'
  /** The request failed in the browser, the server answers plain requests, and access is not granted. */
  | 'no-access'
  /** Nothing answers: the name does not resolve, the connection is refused, or TLS failed. */
  | 'unreachable'
  /** Access is granted and the server answers, yet the browser refused the request. */
  | 'blocked'
  | 'timeout'
  | 'key-rejected'
  | 'forbidden'
  | 'not-found'
  | 'rate-limited'
  | 'server-error'
  /** Another HTTP status, or a body that is not what the endpoint returns. */
  | 'unexpected';

export interface ConnectionTestResult {
  readonly cause: ConnectionCause;
  readonly tone: 'success' | 'warning' | 'error';
  /** A sentence for the user: what happened and what to check. */
  readonly message: string;
  /** For `no-access`: the access that lets the request through once granted. */
  readonly access?: ProviderAccess;
}
