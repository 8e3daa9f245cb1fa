import type { RemoteEndpoint } from './server-spec';

/** A copy of `remote` with its own headers object, so no caller reaches into another's. */
export function copyEndpoint(remote: RemoteEndpoint): RemoteEndpoint {
  return { transport: remote.transport, url: remote.url, headers: { ...remote.headers } };
}
