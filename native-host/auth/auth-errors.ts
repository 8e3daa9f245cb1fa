import {
  AuthorizationServerMismatchError,
  InsecureTokenEndpointError,
  IssuerMismatchError,
  OAuthError,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import type { SignInFailureKind } from '../../protocol/auth';
import { safeText } from '../../protocol/untrusted/gate';

/** Why a sign-in or an authorized request failed, for a message and a failure reason (the
 * protocol's `sign-in-failed` carries it as `data.kind`). */
export type AuthFailureKind = SignInFailureKind;

/** A failure of our own flow (the parts the SDK leaves to the provider). */
export class AuthFlowError extends Error {
  override readonly name = 'AuthFlowError';
  constructor(
    readonly kind: AuthFailureKind,
    message: string,
  ) {
    super(message);
  }
}

/** Text from an authorization server or a callback URL: sanitized, redacted, capped. */
export function untrustedAuthText(text: string): string {
  return safeText(text, { maxChars: 300 });
}

const SIGN_IN = (server: string): string =>
  `sign in to '${server}' with 'switchyard auth ${server}' or the popup's Sign in`;

/**
 * The kind and a message that says what to do next, for any error out of a sign-in or an
 * authorized request. Text that came from the authorization server (`error_description`) or a
 * callback goes through the untrusted-text gate; the error code is kept only when it is a plain
 * OAuth token.
 */
export function describeAuthError(
  error: unknown,
  server: string,
): { kind: AuthFailureKind; message: string } {
  if (error instanceof AuthFlowError) return { kind: error.kind, message: error.message };
  if (error instanceof IssuerMismatchError || error instanceof AuthorizationServerMismatchError) {
    return {
      kind: 'issuer-mismatch',
      message: `'${server}': the authorization server is not the one this sign-in started with (RFC 9207 / RFC 8414 issuer check); nothing was sent. If the server moved, ${SIGN_IN(server)} again.`,
    };
  }
  if (error instanceof InsecureTokenEndpointError) {
    return {
      kind: 'insecure-endpoint',
      message: `'${server}': its authorization server's token endpoint is not https; Switchyard will not send credentials to it.`,
    };
  }
  if (error instanceof OAuthError) {
    const code = /^[a-z_]{1,64}$/.test(error.code) ? error.code : 'error';
    const detail = untrustedAuthText(error.message);
    if (code === 'access_denied') {
      return { kind: 'denied', message: `'${server}': sign-in was declined (${detail}).` };
    }
    return {
      kind: 'authorization-server',
      message: `'${server}': the authorization server answered ${code}: ${detail}`,
    };
  }
  if (error instanceof UnauthorizedError) {
    return { kind: 'sign-in-required', message: `'${server}' needs sign-in: ${SIGN_IN(server)}.` };
  }
  if (error instanceof TypeError) {
    return {
      kind: 'unreachable',
      message: `'${server}': could not reach its server or authorization server (${untrustedAuthText(error.message)}).`,
    };
  }
  const text = error instanceof Error ? error.message : String(error);
  return {
    kind: 'authorization-server',
    message: `'${server}': sign-in failed: ${untrustedAuthText(text)}`,
  };
}

export function signInRequired(server: string, why: string): AuthFlowError {
  return new AuthFlowError('sign-in-required', `'${server}' ${why}: ${SIGN_IN(server)}.`);
}
