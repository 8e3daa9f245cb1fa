import type { SignInStatus } from '../../../protocol/auth';
import type { ServerSummary } from '../../../protocol/servers';

/**
 * What a remote server's row says about signing in (issue 11): "Sign in" when the host failed it
 * as `auth-required`, "Signed in as … (scopes)" with Sign out when the host holds tokens, and
 * nothing for a server that needs no sign-in. Pure: the row renders it.
 */
export type SignInView =
  | { readonly kind: 'none' }
  | { readonly kind: 'sign-in'; readonly prompt: string }
  | {
      readonly kind: 'signed-in';
      readonly label: string;
      /** "expires in 12 min", "expired", or null when the server did not say. */
      readonly expiry: string | null;
    };

export function signInView(
  server: ServerSummary,
  status: SignInStatus | null | undefined,
  now: number,
): SignInView {
  if (server.remote === null) return { kind: 'none' };
  if (status) {
    const who = status.subject === null ? 'Signed in' : `Signed in as ${status.subject}`;
    const scopes = status.scopes.length === 0 ? '' : ` (${status.scopes.join(' ')})`;
    return { kind: 'signed-in', label: `${who}${scopes}`, expiry: expiryText(status, now) };
  }
  const needs = server.status.state === 'failed' && server.status.reason === 'auth-required';
  if (needs) {
    return {
      kind: 'sign-in',
      prompt: `Sign in to ${new URL(server.remote.url).host} to use this server.`,
    };
  }
  return { kind: 'none' };
}

function expiryText(status: SignInStatus, now: number): string | null {
  if (status.expiresAt === null) return null;
  const minutes = Math.round((status.expiresAt - now) / 60_000);
  if (minutes <= 0) return status.refreshable ? 'renews on next use' : 'expired';
  if (minutes < 120) return `expires in ${minutes} min${status.refreshable ? ', renews' : ''}`;
  const hours = Math.round(minutes / 60);
  return `expires in ${hours} h${status.refreshable ? ', renews' : ''}`;
}
