import { z } from 'zod';
import { isLoopbackHost, MAX_URL_CHARS } from '../../protocol/remote-url';
import { JWT_ALGORITHMS, type PreRegisteredClient } from '../shared/server-spec';

/**
 * A remote entry's `oauth` block (issue 11): a client registered beforehand at the server's
 * authorization server. Pure; `schema.ts` puts it in the remote entry's schema. Two kinds:
 *
 * - a client a person signs in with (the authorization code flow, the default), for an
 *   authorization server without dynamic registration (GitHub's OAuth apps, many enterprise
 *   IdPs). The shape is Claude Code's (`clientId`, `scopes` also as one space-separated string)
 *   with `clientSecret` a variable; other keys (Claude Code's `callbackPort`) are ignored:
 *
 *     "oauth": {"clientId": "Iv1.8a61f9b3a7aba766", "clientSecret": "${GITHUB_CLIENT_SECRET}", "scopes": ["repo"]}
 *
 * - a machine-to-machine client (`"grant": "client_credentials"`, SEP-1046), which gets its
 *   tokens itself, with a secret or a private key and no person at a page (decision 0024):
 *
 *     "oauth": {"grant": "client_credentials", "clientId": "svc-switchyard",
 *               "clientSecret": "${SVC_SECRET}", "issuer": "https://idp.example.com", "scopes": ["tools"]}
 *     "oauth": {"grant": "client_credentials", "clientId": "svc-switchyard",
 *               "privateKey": "${SVC_KEY_PEM}", "algorithm": "ES256"}
 *
 * A secret or a key is always a `${VAR}`, never the value (config.json is copied, synced, pasted
 * into issues; a workspace file is committed).
 */

/** Longest client id accepted (GitHub's are 20 characters, Entra's 36; a UUID-ish id fits). */
export const MAX_CLIENT_ID_CHARS = 256;
/** Scopes one entry may ask for, and the longest one. */
export const MAX_SCOPES = 32;
export const MAX_SCOPE_CHARS = 128;

/** A `${VAR}` (or `${env:VAR}`) reference and nothing else: what a secret or a key must be. */
const SECRET_REFERENCE = /^\$\{(?:env:)?[A-Za-z_][A-Za-z0-9_]*\}$/;

/** Why `clientId` cannot be used, or undefined. RFC 6749 §A.1: printable ASCII (VSCHAR). */
export function clientIdProblem(clientId: string): string | undefined {
  if (clientId.length === 0)
    return 'oauth.clientId is empty: paste the client id your OAuth app shows';
  if (clientId.length > MAX_CLIENT_ID_CHARS) {
    return `oauth.clientId can have at most ${MAX_CLIENT_ID_CHARS} characters`;
  }
  if (!/^[\x20-\x7e]+$/.test(clientId) || clientId.trim() !== clientId) {
    return 'oauth.clientId can only have printable ASCII characters, with no space at either end';
  }
  return undefined;
}

/**
 * Why `clientSecret` cannot be used, or undefined. A literal secret in config.json is refused:
 * the message says how to keep it in the secret store instead.
 */
export function clientSecretProblem(secret: string): string | undefined {
  if (SECRET_REFERENCE.test(secret)) return undefined;
  return (
    'oauth.clientSecret must be a variable, e.g. "${MY_CLIENT_SECRET}", never the secret itself: ' +
    'store the secret with `switchyard secret set MY_CLIENT_SECRET` (or export it) and write its name here'
  );
}

/** Why `privateKey` cannot be used, or undefined: a variable holding the PEM, never the PEM. */
export function privateKeyProblem(key: string): string | undefined {
  if (SECRET_REFERENCE.test(key)) return undefined;
  return (
    'oauth.privateKey must be a variable, e.g. "${MY_CLIENT_KEY}", never the key itself: ' +
    'store the PEM with `switchyard secret set MY_CLIENT_KEY < key.pem` (or export it) and write its name here'
  );
}

/** Why `issuer` cannot be an authorization server's issuer (RFC 8414 §2), or undefined. */
export function issuerProblem(issuer: string): string | undefined {
  const example = 'e.g. "https://idp.example.com"';
  if (issuer.length === 0 || issuer.length > MAX_URL_CHARS) {
    return `oauth.issuer must be the authorization server's issuer URL, ${example}`;
  }
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return `oauth.issuer must be an absolute URL, ${example}`;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return `oauth.issuer must be an https URL (http only on this machine), ${example}`;
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    return 'oauth.issuer cannot have a query, a #fragment, a user name or a password (RFC 8414 §2)';
  }
  return undefined;
}

/** Why one scope cannot be asked for, or undefined. RFC 6749 §3.3 scope-token (NQCHAR). */
export function scopeProblem(scope: string): string | undefined {
  if (scope.length === 0 || scope.length > MAX_SCOPE_CHARS) {
    return `a scope has 1 to ${MAX_SCOPE_CHARS} characters`;
  }
  if (!/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope)) {
    return 'a scope is printable ASCII without spaces, quotes or backslashes, e.g. "repo"';
  }
  return undefined;
}

const checked = (problem: (value: string) => string | undefined) =>
  z.string().superRefine((value, ctx) => {
    const found = problem(value);
    if (found !== undefined) ctx.addIssue({ code: 'custom', message: found });
  });

const GRANTS = ['authorization_code', 'client_credentials'] as const;

/** Keys that only mean something for a machine-to-machine client. */
const M2M_ONLY = ['privateKey', 'algorithm', 'issuer'] as const;

export const OAuthClientSchema = z
  .object(
    {
      grant: z
        .enum(GRANTS, {
          error:
            'oauth.grant is "authorization_code" (a person signs in; the default) or "client_credentials" (machine-to-machine, no person)',
        })
        .optional(),
      clientId: z
        .string({ error: 'oauth.clientId must be a string' })
        .pipe(checked(clientIdProblem)),
      clientSecret: z
        .string({
          error:
            'oauth.clientSecret must be a string naming a variable, e.g. "${MY_CLIENT_SECRET}"',
        })
        .pipe(checked(clientSecretProblem))
        .optional(),
      privateKey: z
        .string({
          error: 'oauth.privateKey must be a string naming a variable, e.g. "${MY_CLIENT_KEY}"',
        })
        .pipe(checked(privateKeyProblem))
        .optional(),
      algorithm: z
        .enum(JWT_ALGORITHMS, {
          error: `oauth.algorithm is one of ${JWT_ALGORITHMS.join(', ')}`,
        })
        .optional(),
      issuer: z
        .string({ error: 'oauth.issuer must be a string' })
        .pipe(checked(issuerProblem))
        .optional(),
      scopes: z
        .union(
          [
            z.array(z.string({ error: 'a scope must be a string' })),
            z.string().transform((joined) => joined.split(' ').filter((s) => s !== '')),
          ],
          { error: 'oauth.scopes must be a list of strings, e.g. ["repo", "read:org"]' },
        )
        .pipe(
          z
            .array(checked(scopeProblem))
            .max(MAX_SCOPES, `oauth.scopes can name at most ${MAX_SCOPES} scopes`),
        )
        .optional(),
    },
    {
      error:
        'oauth must be an object, e.g. {"clientId": "…", "clientSecret": "${MY_CLIENT_SECRET}"}',
    },
  )
  .superRefine((client, ctx) => {
    if (client.grant === 'client_credentials') {
      if ((client.clientSecret === undefined) === (client.privateKey === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: ['clientSecret'],
          message:
            'a "client_credentials" client authenticates with either oauth.clientSecret or oauth.privateKey (exactly one), e.g. "clientSecret": "${MY_CLIENT_SECRET}"',
        });
      }
      if (client.algorithm !== undefined && client.privateKey === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['algorithm'],
          message: "oauth.algorithm is the private key's algorithm: it needs oauth.privateKey",
        });
      }
      return;
    }
    for (const key of M2M_ONLY) {
      if (client[key] !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `oauth.${key} is only used with "grant": "client_credentials" (a machine-to-machine client)`,
        });
      }
    }
  })
  .transform((client): PreRegisteredClient => ({
    clientId: client.clientId,
    ...(client.clientSecret === undefined ? {} : { clientSecret: client.clientSecret }),
    scopes: [...new Set(client.scopes ?? [])],
    // Only a machine client says its grant: an authorization-code entry reads as it always did.
    ...(client.grant === 'client_credentials' ? { grant: client.grant } : {}),
    ...(client.privateKey === undefined ? {} : { privateKey: client.privateKey }),
    ...(client.algorithm === undefined ? {} : { algorithm: client.algorithm }),
    ...(client.issuer === undefined ? {} : { issuer: client.issuer }),
  }));
