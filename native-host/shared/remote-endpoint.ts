import type { PreRegisteredClient, RemoteEndpoint } from './server-spec';

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
  };
}
