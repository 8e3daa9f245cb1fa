import { browser } from 'wxt/browser';
import type { SignInStatus } from '../../protocol/auth';
import type { HostClient } from './host-client';

/**
 * Sign-in to a remote server from the browser (issue 11, decision 0018). The host runs the OAuth
 * flow and keeps the tokens; the worker only carries the user through the authorization page:
 * `auth/begin` gives the page's URL, `identity.launchWebAuthFlow` shows it in the browser's own
 * sign-in window and resolves with the URL the authorization server redirected to, and
 * `auth/complete` hands that back for the host to check (`state`, `iss`) and redeem. The callback
 * carries a one-time code the host's PKCE verifier alone can redeem; nothing here is stored.
 */

/** The browser's web auth flow (Chromium's and Firefox's `identity` API), a seam for tests. */
export interface WebAuthFlow {
  /** `identity.getRedirectURL()`: where the authorization server sends the browser back. */
  redirectUri(): string;
  /** Shows `url`; resolves with the redirect, or null when the user closed the window. */
  launch(url: string): Promise<string | null>;
}

export const browserWebAuthFlow: WebAuthFlow = {
  redirectUri: () => browser.identity.getRedirectURL(),
  launch: async (url) => {
    try {
      const callback = await browser.identity.launchWebAuthFlow({ url, interactive: true });
      return callback ?? null;
    } catch {
      // Closed by the user, or the page could not be shown: the host ends the sign-in.
      return null;
    }
  },
};

export async function signInThroughBrowser(
  host: Pick<HostClient, 'request'>,
  flow: WebAuthFlow,
  server: string,
): Promise<SignInStatus> {
  const { flowId, authorizationUrl } = await host.request('auth/begin', {
    server,
    redirectUri: flow.redirectUri(),
  });
  const callbackUrl = await flow.launch(authorizationUrl);
  const { status } = await host.request('auth/complete', { flowId, callbackUrl });
  return status;
}
