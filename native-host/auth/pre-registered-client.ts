import { expandEnvValue } from '../config/env';
import {
  missingVariablesMessage,
  resolveVariables,
  type VariableSources,
} from '../config/variables';
import type {
  EnterpriseIdp,
  JwtAlgorithm,
  OAuthGrant,
  PreRegisteredClient,
} from '../shared/server-spec';

/**
 * A pre-registered OAuth client ready to present: the entry's `oauth` with its `${VAR}` secret
 * resolved. Held only in memory, for one provider; never written to the store or a log.
 */
export interface ClientCredentials {
  readonly clientId: string;
  /** The secret's value; absent for a public client. */
  readonly clientSecret?: string;
  /** Scopes always asked for (RFC 6749 §3.3 tokens, checked at load). */
  readonly scopes: readonly string[];
  /** Tokens with no person at the page: `client_credentials` (0024), `cross-app-access` (0032). */
  readonly grant?: OAuthGrant;
  /** The PEM private key's value, for `private_key_jwt`; absent with a secret. */
  readonly privateKey?: string;
  readonly algorithm?: JwtAlgorithm;
  /** The issuer the credentials are pinned to by the entry (absent: pinned on first use). */
  readonly issuer?: string;
  /**
   * A cross-app access client's IdP, its references still unexpanded: the ID token is read at
   * each grant (it expires within the hour and may be replaced meanwhile), never kept here.
   */
  readonly idp?: EnterpriseIdp;
}

export type ClientResolution =
  | { readonly ok: true; readonly client: ClientCredentials }
  /** A variable is set nowhere (or the store failed): `message` names it and how to set it. */
  | { readonly ok: false; readonly message: string };

/**
 * Resolves `client.clientSecret` the way header values are (config/variables.ts): the host's
 * environment, then `switchyard secret set NAME`. A missing variable is an error naming it, never
 * an empty secret (the authorization server would answer `invalid_client`, which names nothing).
 */
export async function resolveClient(
  server: string,
  client: PreRegisteredClient,
  sources: VariableSources,
): Promise<ClientResolution> {
  const base: ClientCredentials = {
    clientId: client.clientId,
    scopes: [...client.scopes],
    ...(client.grant === undefined ? {} : { grant: client.grant }),
    ...(client.algorithm === undefined ? {} : { algorithm: client.algorithm }),
    ...(client.issuer === undefined ? {} : { issuer: client.issuer }),
    ...(client.idp === undefined ? {} : { idp: client.idp }),
  };
  const [field, reference, what] =
    client.privateKey !== undefined
      ? (['privateKey', client.privateKey, 'its OAuth private key'] as const)
      : (['clientSecret', client.clientSecret, 'its OAuth client secret'] as const);
  if (reference === undefined) return { ok: true, client: base };
  const variables = await resolveVariables([reference], sources);
  if (variables.missing.length > 0) {
    return { ok: false, message: missingVariablesMessage(server, variables) };
  }
  const value = expandEnvValue(reference, variables.lookup).value;
  if (value === '') {
    return {
      ok: false,
      message: `'${server}': ${reference} (${what}) is set but empty; set it with \`switchyard secret set\`.`,
    };
  }
  return { ok: true, client: { ...base, [field]: value } };
}
