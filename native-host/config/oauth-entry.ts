import { z } from 'zod';
import { isLoopbackHost, MAX_URL_CHARS } from '../../protocol/remote-url';
import {
  JWT_ALGORITHMS,
  type EnterpriseIdp,
  type PreRegisteredClient,
} from '../shared/server-spec';

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
 * - a cross-app access client (`"grant": "cross-app-access"`, SEP-990, decision 0032): the user's
 *   ID token from the company IdP is exchanged there for an ID-JAG (RFC 8693), which the MCP
 *   server's authorization server exchanges for a token (RFC 7523, `client_secret_basic`):
 *
 *     "oauth": {"grant": "cross-app-access", "clientId": "xaa-client", "clientSecret": "${XAA_SECRET}",
 *               "issuer": "https://auth.example.com",
 *               "idp": {"issuer": "https://acme.okta.com", "clientId": "switchyard",
 *                       "clientSecret": "${IDP_SECRET}", "idToken": "${IDP_ID_TOKEN}"}}
 *
 * A secret, a key or an ID token is always a `${VAR}`, never the value (config.json is copied, synced, pasted
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
export function clientIdProblem(clientId: string, key = 'oauth.clientId'): string | undefined {
  if (clientId.length === 0) return `${key} is empty: paste the client id your OAuth app shows`;
  if (clientId.length > MAX_CLIENT_ID_CHARS) {
    return `${key} can have at most ${MAX_CLIENT_ID_CHARS} characters`;
  }
  if (!/^[\x20-\x7e]+$/.test(clientId) || clientId.trim() !== clientId) {
    return `${key} can only have printable ASCII characters, with no space at either end`;
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
export function issuerProblem(issuer: string, key = 'oauth.issuer'): string | undefined {
  const example = 'e.g. "https://idp.example.com"';
  if (issuer.length === 0 || issuer.length > MAX_URL_CHARS) {
    return `${key} must be the authorization server's issuer URL, ${example}`;
  }
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return `${key} must be an absolute URL, ${example}`;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return `${key} must be an https URL (http only on this machine), ${example}`;
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    return `${key} cannot have a query, a #fragment, a user name or a password (RFC 8414 §2)`;
  }
  return undefined;
}

/** Why a `${VAR}`-only field holds something else, or undefined; `what` names the value. */
function referenceProblem(
  key: string,
  what: string,
  example: string,
): (value: string) => string | undefined {
  return (value) =>
    SECRET_REFERENCE.test(value)
      ? undefined
      : `${key} must be a variable, e.g. "\${${example}}", never ${what} itself: store it with \`switchyard secret set ${example}\` (or export it) and write its name here`;
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

const GRANTS = ['authorization_code', 'client_credentials', 'cross-app-access'] as const;

/** Keys that only mean something for a client that gets its tokens with no person at a page. */
const M2M_ONLY = ['privateKey', 'algorithm', 'issuer'] as const;

/**
 * `oauth.idp` of a cross-app access entry: the company IdP. Its token endpoint must be on the
 * issuer's origin, so the ID token goes nowhere but the IdP that issued it.
 */
const EnterpriseIdpSchema = z
  .strictObject(
    {
      issuer: z
        .string({ error: 'oauth.idp.issuer must be a string' })
        .pipe(checked((v) => issuerProblem(v, 'oauth.idp.issuer'))),
      tokenEndpoint: z
        .string({ error: 'oauth.idp.tokenEndpoint must be a string' })
        .pipe(checked((v) => issuerProblem(v, 'oauth.idp.tokenEndpoint')))
        .optional(),
      clientId: z
        .string({ error: 'oauth.idp.clientId must be a string' })
        .pipe(checked((v) => clientIdProblem(v, 'oauth.idp.clientId'))),
      clientSecret: z
        .string({ error: 'oauth.idp.clientSecret must be a string naming a variable' })
        .pipe(
          checked(referenceProblem('oauth.idp.clientSecret', 'the secret', 'IDP_CLIENT_SECRET')),
        )
        .optional(),
      idToken: z
        .string({
          error: 'oauth.idp.idToken must be a string naming a variable, e.g. "${IDP_ID_TOKEN}"',
        })
        .pipe(checked(referenceProblem('oauth.idp.idToken', 'the ID token', 'IDP_ID_TOKEN'))),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `oauth.idp has no key ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}: it takes issuer, tokenEndpoint, clientId, clientSecret and idToken`
          : 'oauth.idp must be an object, e.g. {"issuer": "https://acme.okta.com", "clientId": "…", "idToken": "${IDP_ID_TOKEN}"}',
    },
  )
  .superRefine((idp, ctx) => {
    if (
      idp.tokenEndpoint !== undefined &&
      new URL(idp.tokenEndpoint).origin !== new URL(idp.issuer).origin
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['tokenEndpoint'],
        message: `oauth.idp.tokenEndpoint must be on the IdP's own origin (${new URL(idp.issuer).origin}): the ID token is sent only to the IdP that issued it`,
      });
    }
  })
  .transform((idp): EnterpriseIdp => ({
    issuer: idp.issuer,
    ...(idp.tokenEndpoint === undefined ? {} : { tokenEndpoint: idp.tokenEndpoint }),
    clientId: idp.clientId,
    ...(idp.clientSecret === undefined ? {} : { clientSecret: idp.clientSecret }),
    idToken: idp.idToken,
  }));

export const OAuthClientSchema = z
  .object(
    {
      grant: z
        .enum(GRANTS, {
          error:
            'oauth.grant is "authorization_code" (a person signs in; the default), "client_credentials" (machine-to-machine, no person) or "cross-app-access" (the company IdP vouches for you)',
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
      // Parsed loosely here and checked below: only a cross-app access entry may have one.
      idp: z.unknown().optional(),
    },
    {
      error:
        'oauth must be an object, e.g. {"clientId": "…", "clientSecret": "${MY_CLIENT_SECRET}"}',
    },
  )
  .superRefine((client, ctx) => {
    if (client.grant === 'cross-app-access') {
      crossAppProblems(client, ctx);
      return;
    }
    if (client.idp !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['idp'],
        message:
          'oauth.idp is only used with "grant": "cross-app-access" (enterprise-managed authorization)',
      });
    }
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
    ...(client.grant === 'client_credentials' || client.grant === 'cross-app-access'
      ? { grant: client.grant }
      : {}),
    ...(client.grant === 'cross-app-access' ? { idp: EnterpriseIdpSchema.parse(client.idp) } : {}),
    ...(client.privateKey === undefined ? {} : { privateKey: client.privateKey }),
    ...(client.algorithm === undefined ? {} : { algorithm: client.algorithm }),
    ...(client.issuer === undefined ? {} : { issuer: client.issuer }),
  }));

/**
 * A cross-app access client: the MCP authorization server takes `client_secret_basic` (the SDK's
 * `CrossAppAccessProvider` authenticates no other way), so a secret and no key; and an `idp`.
 */
function crossAppProblems(
  client: { clientSecret?: string; privateKey?: string; algorithm?: string; idp?: unknown },
  ctx: z.RefinementCtx,
): void {
  if (client.clientSecret === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['clientSecret'],
      message:
        'a "cross-app-access" client authenticates to the MCP server\'s authorization server with oauth.clientSecret, e.g. "clientSecret": "${MY_CLIENT_SECRET}"',
    });
  }
  for (const key of ['privateKey', 'algorithm'] as const) {
    if (client[key] !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `oauth.${key} is not used with "grant": "cross-app-access" (its client authenticates with oauth.clientSecret)`,
      });
    }
  }
  if (client.idp === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['idp'],
      message:
        'a "cross-app-access" client needs oauth.idp, the company IdP: {"issuer": "https://acme.okta.com", "clientId": "…", "idToken": "${IDP_ID_TOKEN}"}',
    });
    return;
  }
  const idp = EnterpriseIdpSchema.safeParse(client.idp);
  if (idp.success) return;
  for (const issue of idp.error.issues) {
    ctx.addIssue({
      code: 'custom',
      path: ['idp', ...issue.path.map(String)],
      message: issue.message,
    });
  }
}
