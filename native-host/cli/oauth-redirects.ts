import type { ServerSummary } from '../../protocol/servers';
import { LOOPBACK_REDIRECT_URI } from '../auth/client-metadata-document';

/**
 * The redirect URIs to register at an OAuth app whose client a remote entry names (`oauth`), for
 * `switchyard doctor`. The host cannot know the browser's redirect by itself (it is
 * `identity.getRedirectURL()`, from the extension's id), but the install knows which extension
 * ids it allowed. Pure.
 */

/** `switchyard auth`'s loopback redirect, registered without a port (RFC 8252 §7.3). */
export const CLI_REDIRECT_URI = LOOPBACK_REDIRECT_URI;

/** A Chromium extension id: 32 letters a-p. Firefox's redirect host is derived otherwise. */
const CHROMIUM_ID = /^[a-p]{32}$/;

/** `identity.getRedirectURL()` of a Chromium extension, or undefined for another kind of id. */
export function browserRedirectUri(extensionId: string): string | undefined {
  return CHROMIUM_ID.test(extensionId) ? `https://${extensionId}.chromiumapp.org/` : undefined;
}

/**
 * The section for every server with a pre-registered client a person signs in with; empty when
 * there is none. A client with a grant of its own (`client_credentials`, `cross-app-access`)
 * never opens an authorization page, so it has no redirect URI to register.
 */
export function oauthRedirectText(
  servers: readonly ServerSummary[],
  extensionIds: readonly string[],
): string {
  const clients = servers.flatMap((s) =>
    s.remote?.oauthClientId === undefined || s.remote.oauthGrant !== undefined
      ? []
      : [`${s.name} (client ${s.remote.oauthClientId})`],
  );
  if (clients.length === 0) return '';
  const browser = extensionIds.flatMap((id) => browserRedirectUri(id) ?? []);
  const lines = [
    `OAuth clients: ${clients.join(', ')}. Register these redirect URIs at the OAuth app:`,
    ...(browser.length === 0
      ? [
          '  for the popup: https://<extension-id>.chromiumapp.org/ (the id is on chrome://extensions)',
        ]
      : browser.map((uri) => `  for the popup: ${uri}`)),
    `  for 'switchyard auth': ${CLI_REDIRECT_URI} (any port)`,
  ];
  return `${lines.join('\n')}\n`;
}
