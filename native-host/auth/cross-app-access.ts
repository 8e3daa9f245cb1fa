import {
  discoverAndRequestJwtAuthGrant,
  requestJwtAuthorizationGrant,
  type AssertionCallback,
  type FetchLike,
} from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { EnterpriseIdp } from '../shared/server-spec';
import { AuthFlowError, untrustedAuthText } from './auth-errors';

/**
 * Cross-app access (SEP-990, enterprise-managed authorization; decision 0032): the first of its
 * two token requests. The user's ID token from the company IdP is exchanged at that IdP
 * (RFC 8693, `requested_token_type` `urn:ietf:params:oauth:token-type:id-jag`) for an identity
 * assertion grant (ID-JAG) whose audience is the MCP server's authorization server and whose
 * resource is the MCP server. The SDK's `CrossAppAccessProvider` (in machine-client.ts) then
 * presents the ID-JAG there (RFC 7523 JWT bearer, `client_secret_basic`) for an access token.
 *
 * The SDK's `requestJwtAuthorizationGrant` (or `discoverAndRequestJwtAuthGrant`, without a
 * configured token endpoint) makes the request; this adds what the host promises around it:
 *
 * - **The ID token goes only to the IdP that issued it, for the client it was issued to.**
 *   Before anything is sent its `iss` must be the entry's `idp.issuer` and its `aud` must name
 *   `idp.clientId`; the token endpoint is on the issuer's origin (config checks a configured
 *   one; a discovered one is the IdP's own metadata). An ID token that expired is not sent: the
 *   message says to refresh the variable.
 * - **The ID-JAG is for the authorization server the host will present it to**: its `aud` must
 *   be that issuer (the one the credentials are pinned to), else it is discarded.
 * - **Nothing is kept.** The ID token is read from its `${VAR}` at each grant (a CLI or
 *   `switchyard secret set` may have replaced it since), used for one request and dropped; the
 *   ID-JAG lives for the one request that presents it.
 *
 * Neither JWT's signature is checked here: the client is not their audience (the IdP verifies
 * the ID token, the authorization server the ID-JAG). The claim checks only keep a token from
 * being sent where it does not belong.
 */

export interface CrossAppAssertionOptions {
  readonly server: string;
  readonly idp: EnterpriseIdp;
  /**
   * The value of a `${VAR}` reference (the environment, then the secret store), read at each
   * grant; rejects, naming the variable, when it is set nowhere.
   */
  readonly resolve: (reference: string, what: string) => Promise<string>;
  readonly fetchFn?: FetchLike;
  /** Seconds since the epoch; default the clock. */
  readonly now?: () => number;
}

/** Leeway for the IdP's and this machine's clocks when reading `exp` (RFC 7519 §4.1.4). */
export const CLOCK_SKEW_SECONDS = 60;

const ClaimsSchema = z.looseObject({
  iss: z.string().optional(),
  aud: z.union([z.string(), z.array(z.string())]).optional(),
  exp: z.number().optional(),
});
type Claims = z.infer<typeof ClaimsSchema>;

/** A JWT's claims, unverified (see above), or undefined for something that is no JWT. */
export function jwtClaims(token: string): Claims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[1] === undefined) return undefined;
  try {
    const parsed = ClaimsSchema.safeParse(
      JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')),
    );
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Why the ID token must not be sent to `idp`, or undefined. Pure; messages name no value. */
export function idTokenProblem(
  server: string,
  idp: EnterpriseIdp,
  token: string,
  nowSeconds: number,
): string | undefined {
  const variable = idp.idToken;
  const claims = jwtClaims(token);
  if (claims === undefined) {
    return `'${server}': ${variable} (oauth.idp.idToken) does not hold an ID token (a JWT); set it to the ID token your IdP issued.`;
  }
  if (claims.iss === undefined || !sameIssuer(claims.iss, idp.issuer)) {
    return `'${server}': the ID token in ${variable} was issued by ${JSON.stringify(untrustedAuthText(claims.iss ?? '(no issuer)'))}, not ${JSON.stringify(idp.issuer)} (oauth.idp.issuer); it was not sent.`;
  }
  const audiences = typeof claims.aud === 'string' ? [claims.aud] : (claims.aud ?? []);
  if (!audiences.includes(idp.clientId)) {
    return `'${server}': the ID token in ${variable} was issued to another client than ${JSON.stringify(idp.clientId)} (oauth.idp.clientId); it was not sent.`;
  }
  if (claims.exp !== undefined && claims.exp + CLOCK_SKEW_SECONDS <= nowSeconds) {
    return `'${server}': the ID token in ${variable} expired at ${new Date(claims.exp * 1000).toISOString()}; sign in to your IdP again and update ${variable} (\`switchyard secret set\`, or your IdP's CLI), then restart the server.`;
  }
  return undefined;
}

/**
 * The assertion callback of the SDK's `CrossAppAccessProvider`: an ID-JAG for the authorization
 * server (`ctx.authorizationServerUrl`, the issuer the SDK discovered and the pin checked) and
 * the resource (`ctx.resourceUrl`).
 */
export function crossAppAssertion(options: CrossAppAssertionOptions): AssertionCallback {
  const { server, idp } = options;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  return async (ctx) => {
    const idToken = await options.resolve(idp.idToken, 'the ID token');
    const problem = idTokenProblem(server, idp, idToken, now());
    if (problem !== undefined) throw new AuthFlowError('authorization-server', problem);
    const clientSecret =
      idp.clientSecret === undefined
        ? undefined
        : await options.resolve(idp.clientSecret, "the IdP client's secret");
    const request = {
      audience: ctx.authorizationServerUrl,
      resource: ctx.resourceUrl,
      idToken,
      clientId: idp.clientId,
      ...(clientSecret === undefined ? {} : { clientSecret }),
      ...(ctx.scope === undefined || ctx.scope === '' ? {} : { scope: ctx.scope }),
      fetchFn: options.fetchFn ?? ctx.fetchFn,
    };
    let grant: string;
    try {
      const result =
        idp.tokenEndpoint === undefined
          ? await discoverAndRequestJwtAuthGrant({ ...request, idpUrl: idp.issuer })
          : await requestJwtAuthorizationGrant({ ...request, tokenEndpoint: idp.tokenEndpoint });
      grant = result.jwtAuthGrant;
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      throw new AuthFlowError(
        'authorization-server',
        `'${server}': the IdP ${JSON.stringify(idp.issuer)} refused the token exchange for an ID-JAG: ${untrustedAuthText(text)}`,
      );
    }
    const claims = jwtClaims(grant);
    const audiences = typeof claims?.aud === 'string' ? [claims.aud] : (claims?.aud ?? []);
    if (!audiences.some((aud) => sameIssuer(aud, ctx.authorizationServerUrl))) {
      throw new AuthFlowError(
        'authorization-server',
        `'${server}': the IdP ${JSON.stringify(idp.issuer)} answered with a grant that is not for the authorization server ${JSON.stringify(ctx.authorizationServerUrl)}; it was not presented.`,
      );
    }
    return grant;
  };
}

/** RFC 8414 issuers compared as the SDK does: equal, or but for one trailing slash. */
export function sameIssuer(a: string, b: string): boolean {
  const trim = (s: string) => (s.endsWith('/') ? s.slice(0, -1) : s);
  return trim(a) === trim(b);
}
