import { providerAccess, type ProviderSettings } from '../../messaging/provider';

/**
 * Why a request to the provider failed before any HTTP answer (issue 14). In the browser a
 * missing site access, a CORS refusal, a name that does not resolve and a refused connection all
 * surface as the same `TypeError: Failed to fetch`; two cheap questions tell them apart:
 * - is access to the provider's origin granted (`permissions.contains`)? Without it the worker's
 *   request depends on the server's CORS headers, which local servers often do not send;
 * - does the server answer a plain request (`mode: 'no-cors'`, which needs neither access nor
 *   CORS and resolves with an opaque response from any server that answers at all)?
 */

export interface ReachDeps {
  readonly fetch: typeof globalThis.fetch;
  /** `permissions.contains({ origins: [pattern] })`. */
  readonly hasAccess: (pattern: string) => Promise<boolean>;
  /** How long the plain request may take (default REACH_TIMEOUT_MS). */
  readonly timeoutMs?: number;
}

/**
 * - `no-access`: the server answers, access is not granted: granting it lets the request through;
 * - `unreachable`: nothing answers (DNS, connection refused, TLS): access would not help;
 * - `blocked`: access is granted and the server answers, yet the browser refused the request.
 */
export type NetworkDiagnosis = 'no-access' | 'unreachable' | 'blocked';

export const REACH_TIMEOUT_MS = 5_000;

/** How fetch words a failure before any HTTP answer: Chromium, Node (undici), Firefox, Safari. */
const NETWORK_FAILURE_MESSAGE = /^(failed to fetch|fetch failed|networkerror\b.*|load failed)$/i;

/** True when a `fetch` rejection is a network failure (not an abort, nor a bug's TypeError). */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError && NETWORK_FAILURE_MESSAGE.test(error.message);
}

/** Asks the two questions above about the provider that `url` belongs to. */
export async function diagnoseNetworkFailure(
  settings: Pick<ProviderSettings, 'kind'> & { readonly baseURL?: string | undefined },
  url: string,
  deps: ReachDeps,
): Promise<NetworkDiagnosis> {
  const access = providerAccess(settings);
  // Unknown counts as not granted: the worse mistake is to send the user to check a server
  // that is running when one click would let the request through.
  const granted = access === null ? true : await deps.hasAccess(access.pattern).catch(() => false);
  const answers = await answersPlainRequest(url, deps);
  if (!answers) return 'unreachable';
  return granted ? 'blocked' : 'no-access';
}

async function answersPlainRequest(url: string, deps: ReachDeps): Promise<boolean> {
  try {
    await deps.fetch(url, {
      method: 'GET',
      mode: 'no-cors',
      credentials: 'omit',
      cache: 'no-store',
      signal: AbortSignal.timeout(deps.timeoutMs ?? REACH_TIMEOUT_MS),
    });
    return true;
  } catch {
    return false;
  }
}
