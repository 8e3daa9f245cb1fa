import { HOST_VERSION } from '../shared/version';

/**
 * Switchyard's client ID metadata document (SEP-991; draft-ietf-oauth-client-id-metadata-document):
 * the JSON a company or a packager publishes at an https URL, named in config.json as
 * `oauthClientMetadataUrl`. The URL is then the client id: an authorization server that
 * advertises `client_id_metadata_document_supported` fetches this document instead of taking a
 * registration. `switchyard oauth-client-metadata` prints it. Pure.
 *
 * Its redirect URIs are every one a sign-in may use: the browser's (`identity.getRedirectURL()`,
 * `https://<extension-id>.chromiumapp.org/` in Chromium, `https://<uuid>.extensions.allizom.org/`
 * in Firefox: one per extension id the install allows) and the CLI's loopback, registered
 * without a port (RFC 8252 §7.3: the authorization server must accept any).
 */

/** `switchyard auth`'s loopback redirect, registered without a port (RFC 8252 §7.3). */
export const LOOPBACK_REDIRECT_URI = 'http://127.0.0.1/callback';

export interface ClientMetadataDocument {
  readonly client_id: string;
  readonly client_name: string;
  readonly redirect_uris: readonly string[];
  readonly grant_types: readonly string[];
  readonly response_types: readonly string[];
  readonly token_endpoint_auth_method: 'none';
  readonly application_type: 'native';
  readonly software_id: string;
  readonly software_version: string;
}

/** The document for `url`, listing `browserRedirects` and the CLI's loopback redirect. */
export function clientMetadataDocument(
  url: string,
  browserRedirects: readonly string[],
): ClientMetadataDocument {
  return {
    client_id: url,
    client_name: 'Switchyard',
    redirect_uris: [...new Set([...browserRedirects, LOOPBACK_REDIRECT_URI])],
    // What the provider registers dynamically (oauth-provider.ts): a public client with PKCE.
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    application_type: 'native',
    software_id: 'switchyard',
    software_version: HOST_VERSION,
  };
}
