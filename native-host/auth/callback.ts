import { timingSafeEqual } from 'node:crypto';

/** What an authorization callback URL says, once it is known to be ours. */
export type CallbackResult =
  | { readonly kind: 'code'; readonly code: string; readonly iss: string | undefined }
  | {
      readonly kind: 'error';
      readonly error: string;
      readonly description: string | undefined;
      readonly iss: string | undefined;
    }
  | { readonly kind: 'refused'; readonly why: 'not-our-redirect' | 'state-mismatch' | 'empty' };

const MAX_CALLBACK_CHARS = 8192;

/**
 * Reads a callback URL as hostile input (RFC 6749 §4.1.2, RFC 9207, OAuth 2.1 §7.12): it must be
 * under the redirect URI this flow named (same scheme, host, port and path), carry exactly the
 * `state` this flow sent (compared in constant time), and then either a `code` or an `error`.
 * A callback that fails any of these is refused whole: its `error_description` is not read.
 */
export function parseCallback(
  callbackUrl: string,
  redirectUri: string,
  expectedState: string,
): CallbackResult {
  if (callbackUrl.length > MAX_CALLBACK_CHARS) return { kind: 'refused', why: 'not-our-redirect' };
  let url: URL;
  let expected: URL;
  try {
    url = new URL(callbackUrl);
    expected = new URL(redirectUri);
  } catch {
    return { kind: 'refused', why: 'not-our-redirect' };
  }
  if (
    url.protocol !== expected.protocol ||
    url.host !== expected.host ||
    url.pathname !== expected.pathname ||
    url.username !== '' ||
    url.password !== ''
  ) {
    return { kind: 'refused', why: 'not-our-redirect' };
  }
  const params = url.searchParams;
  const states = params.getAll('state');
  const [state] = states;
  if (states.length !== 1 || state === undefined || !sameSecret(state, expectedState)) {
    return { kind: 'refused', why: 'state-mismatch' };
  }
  const iss = single(params, 'iss');
  const code = single(params, 'code');
  if (code !== undefined && code !== '') return { kind: 'code', code, iss };
  const error = single(params, 'error');
  if (error !== undefined && error !== '') {
    return { kind: 'error', error, description: single(params, 'error_description'), iss };
  }
  return { kind: 'refused', why: 'empty' };
}

/** The one value of `name`; a parameter given twice counts as absent. */
function single(params: URLSearchParams, name: string): string | undefined {
  const all = params.getAll(name);
  return all.length === 1 ? all[0] : undefined;
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
