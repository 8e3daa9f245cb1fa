import type { EnterpriseIdp, PreRegisteredClient, RemoteEndpoint } from './server-spec';

/** A copy of `remote` with its own headers object, so no caller reaches into another's. */
export function copyEndpoint(remote: RemoteEndpoint): RemoteEndpoint {
  return {
    transport: remote.transport,
    url: remote.url,
    headers: { ...remote.headers },
    ...(remote.oauth === undefined ? {} : { oauth: copyClient(remote.oauth) }),
  };
}

/** A copy of a pre-registered client, every field it has and only those. */
export function copyClient(client: PreRegisteredClient): PreRegisteredClient {
  return {
    clientId: client.clientId,
    ...(client.clientSecret === undefined ? {} : { clientSecret: client.clientSecret }),
    scopes: [...client.scopes],
    ...(client.grant === undefined ? {} : { grant: client.grant }),
    ...(client.privateKey === undefined ? {} : { privateKey: client.privateKey }),
    ...(client.algorithm === undefined ? {} : { algorithm: client.algorithm }),
    ...(client.issuer === undefined ? {} : { issuer: client.issuer }),
    ...(client.idp === undefined ? {} : { idp: copyIdp(client.idp) }),
  };
}

/** A copy of a cross-app access client's IdP, every field it has and only those. */
export function copyIdp(idp: EnterpriseIdp): EnterpriseIdp {
  return {
    issuer: idp.issuer,
    ...(idp.tokenEndpoint === undefined ? {} : { tokenEndpoint: idp.tokenEndpoint }),
    clientId: idp.clientId,
    ...(idp.clientSecret === undefined ? {} : { clientSecret: idp.clientSecret }),
    idToken: idp.idToken,
  };
}
