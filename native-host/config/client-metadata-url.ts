import { MAX_URL_CHARS } from '../../protocol/remote-url';

/**
 * `oauthClientMetadataUrl` at the top of config.json: where Switchyard's client ID metadata
 * document is published (SEP-991; draft-ietf-oauth-client-id-metadata-document), for a company
 * or a packager that hosts one (`switchyard oauth-client-metadata` prints its content). With it,
 * a sign-in to an authorization server that advertises `client_id_metadata_document_supported`
 * uses the URL as the client id and registers nothing; without it (the default), the host
 * registers a client dynamically, as before. A setting of the whole install, not of a server:
 * the document names one client, Switchyard.
 *
 *   {"oauthClientMetadataUrl": "https://switchyard.example.com/oauth/client.json", "mcpServers": {…}}
 */
export const CLIENT_METADATA_URL_KEY = 'oauthClientMetadataUrl';

/**
 * Why `value` cannot be the document's URL, or undefined. The draft and the SDK want an https
 * URL with a path (the document's URL is the client id, compared as a string): no fragment, no
 * user name or password, and not the bare origin.
 */
export function clientMetadataUrlProblem(value: unknown): string | undefined {
  const example = 'e.g. "https://switchyard.example.com/oauth/client.json"';
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_URL_CHARS) {
    return `${CLIENT_METADATA_URL_KEY} must be the https URL of Switchyard's client metadata document, ${example}`;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${CLIENT_METADATA_URL_KEY} must be an absolute https URL, ${example}`;
  }
  if (url.protocol !== 'https:') return `${CLIENT_METADATA_URL_KEY} must use https, ${example}`;
  if (url.pathname === '/') {
    return `${CLIENT_METADATA_URL_KEY} must name the document, not the site: add its path, ${example}`;
  }
  if (url.hash !== '' || url.username !== '' || url.password !== '') {
    return `${CLIENT_METADATA_URL_KEY} cannot have a #fragment, a user name or a password`;
  }
  return undefined;
}

/** The setting read from a config file's top level: the URL, a warning, or neither. */
export function readClientMetadataUrl(raw: Readonly<Record<string, unknown>>): {
  readonly url?: string;
  readonly warning?: string;
} {
  const value = raw[CLIENT_METADATA_URL_KEY];
  if (value === undefined) return {};
  const problem = clientMetadataUrlProblem(value);
  if (problem !== undefined || typeof value !== 'string') {
    return {
      warning: `${problem ?? 'not a string'}; it was ignored (sign-ins register a client dynamically)`,
    };
  }
  return { url: value };
}
