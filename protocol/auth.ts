import { z } from 'zod';

/**
 * Sign-in to remote servers (issue 11, decision 0018). The host owns the OAuth flow and the
 * tokens; the extension only carries the user through the authorization page with
 * `identity.launchWebAuthFlow` and hands back the URL it was redirected to. No token, code
 * verifier or client secret ever crosses this port: the status says who and which scopes.
 */

/** The redirects `identity.getRedirectURL()` gives: Chromium's and Firefox's. */
const BROWSER_REDIRECT =
  /^https:\/\/[a-z0-9-]{1,64}\.(chromiumapp\.org|extensions\.allizom\.org)\/[^\s#]{0,256}$/;

/** Whether `uri` is a redirect a browser's `launchWebAuthFlow` completes on. */
export function isBrowserRedirectUri(uri: string): boolean {
  return BROWSER_REDIRECT.test(uri);
}

export const SignInStatusSchema = z.object({
  server: z.string(),
  /** The canonical resource the tokens are bound to (the server's URL, normalized). */
  resource: z.string(),
  /** The authorization server that issued them, when known. */
  issuer: z.string().nullable(),
  /** Who signed in, from the ID token when there is one: a label, untrusted text. */
  subject: z.string().nullable(),
  scopes: z.array(z.string()),
  /** When the access token expires, ms since the epoch, if the server said. */
  expiresAt: z.number().nullable(),
  /** Whether the host can renew the access token without the user. */
  refreshable: z.boolean(),
});
export type SignInStatus = z.infer<typeof SignInStatusSchema>;

/** How a sign-in failed (`sign-in-failed`'s `data.kind`). */
export const SignInFailureKindSchema = z.enum([
  'sign-in-required',
  'state-mismatch',
  'issuer-mismatch',
  'invalid-callback',
  'denied',
  'cancelled',
  'timeout',
  'insecure-endpoint',
  'authorization-server',
  'unreachable',
]);
export type SignInFailureKind = z.infer<typeof SignInFailureKindSchema>;

const ServerName = z.string().min(1).max(256);
/** Opaque, host-chosen. */
const FlowId = z.string().min(1).max(64);

export const authMethods = {
  'auth/begin': {
    params: z.object({
      server: ServerName,
      /** `identity.getRedirectURL()`: the client is registered with it. */
      redirectUri: z.string().max(512).refine(isBrowserRedirectUri, {
        error:
          'not a launchWebAuthFlow redirect (https://<id>.chromiumapp.org/ or https://<id>.extensions.allizom.org/)',
      }),
    }),
    result: z.object({
      flowId: FlowId,
      /** Open with `launchWebAuthFlow({ url, interactive: true })`. */
      authorizationUrl: z.string(),
    }),
  },
  'auth/complete': {
    params: z.object({
      flowId: FlowId,
      /** The URL `launchWebAuthFlow` resolved with; null when the user closed the window. */
      callbackUrl: z.string().max(8192).nullable(),
    }),
    result: z.object({ status: SignInStatusSchema }),
  },
  'auth/status': {
    params: z.object({ server: ServerName }),
    /** Null: not signed in to this server. */
    result: z.object({ status: SignInStatusSchema.nullable() }),
  },
  'auth/signOut': {
    params: z.object({ server: ServerName }),
    result: z.object({
      /** `revoked` at the authorization server, `unsupported` (it has no revocation endpoint),
       * `failed` (it refused; the tokens are deleted anyway) or `nothing` (was not signed in). */
      revocation: z.enum(['revoked', 'unsupported', 'not-sent', 'failed', 'nothing']),
      /** How many stored records were deleted from the secret store. */
      deleted: z.number().int().nonnegative(),
    }),
  },
} as const;
