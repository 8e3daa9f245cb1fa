import { isBrowserRedirectUri } from '../../protocol/auth';
import { clientMetadataDocument } from '../auth/client-metadata-document';
import { clientMetadataUrlProblem } from '../config/client-metadata-url';
import type { CliIo } from './io';
import { browserRedirectUri } from './oauth-redirects';

/**
 * `switchyard oauth-client-metadata <url> [--extension-id ID]... [--redirect-uri URI]...`: prints
 * the client ID metadata document to publish at `<url>` (auth/client-metadata-document.ts), so
 * `"oauthClientMetadataUrl": "<url>"` in config.json lets sign-ins skip dynamic registration
 * where the authorization server allows. Chromium's redirect comes from the extension id; a
 * Firefox one (`https://<uuid>.extensions.allizom.org/`, from `identity.getRedirectURL()`) is
 * given as it is.
 */

export const OAUTH_CLIENT_METADATA_USAGE =
  'usage: switchyard oauth-client-metadata <https-url> [--extension-id ID]... [--redirect-uri URI]...\n';

export type MetadataArgs =
  | { readonly ok: true; readonly url: string; readonly redirects: readonly string[] }
  | { readonly ok: false; readonly error: string };

/** Parses the arguments without I/O. */
export function parseMetadataArgs(argv: readonly string[]): MetadataArgs {
  let url: string | undefined;
  const redirects: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--extension-id' || arg === '--redirect-uri') {
      const value = argv[i + 1];
      i += 1;
      if (value === undefined) return { ok: false, error: `${arg} needs a value` };
      const redirect = arg === '--extension-id' ? browserRedirectUri(value) : value;
      if (redirect === undefined || !isBrowserRedirectUri(redirect)) {
        return {
          ok: false,
          error:
            arg === '--extension-id'
              ? `'${value.slice(0, 64)}' is not a Chromium extension id (32 letters a-p, on chrome://extensions); for Firefox pass --redirect-uri with identity.getRedirectURL()`
              : `'${value.slice(0, 200)}' is not a browser sign-in redirect (https://<id>.chromiumapp.org/ or https://<uuid>.extensions.allizom.org/)`,
        };
      }
      redirects.push(redirect);
    } else if (url === undefined && !arg.startsWith('--')) {
      url = arg;
    } else {
      return { ok: false, error: `unknown argument '${arg.slice(0, 100)}'` };
    }
  }
  if (url === undefined)
    return { ok: false, error: 'name the URL the document will be published at' };
  const problem = clientMetadataUrlProblem(url);
  if (problem !== undefined) return { ok: false, error: problem };
  if (redirects.length === 0) {
    return {
      ok: false,
      error:
        'name the extension the popup signs in from: --extension-id ID (chrome://extensions) or --redirect-uri URI (Firefox)',
    };
  }
  return { ok: true, url, redirects };
}

export function oauthClientMetadata(io: CliIo, argv: readonly string[]): Promise<number> {
  const args = parseMetadataArgs(argv);
  if (!args.ok) {
    io.err(`switchyard oauth-client-metadata: ${args.error}\n${OAUTH_CLIENT_METADATA_USAGE}`);
    return Promise.resolve(2);
  }
  io.out(`${JSON.stringify(clientMetadataDocument(args.url, args.redirects), null, 2)}\n`);
  io.err(
    `Publish this at ${args.url} (served as application/json), then add "oauthClientMetadataUrl": ${JSON.stringify(args.url)} to config.json.\n`,
  );
  return Promise.resolve(0);
}
