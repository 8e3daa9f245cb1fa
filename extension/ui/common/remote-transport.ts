import type { RemoteConsent } from '../../../protocol/servers';

/** How a remote server is reached, in words: the consent card and the popup's server rows. */
export const TRANSPORT_TEXT: Readonly<Record<RemoteConsent['transport'], string>> = {
  'streamable-http': 'Streamable HTTP',
  sse: 'HTTP with server-sent events (legacy)',
  auto: 'Streamable HTTP, or the legacy HTTP+SSE if the server needs it',
};
