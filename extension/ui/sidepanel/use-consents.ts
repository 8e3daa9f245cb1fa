import { useCallback, useState } from 'react';
import type { ConnectionStateName } from '../../messaging/connection';
import type { PageEvent } from '../../messaging/ui-protocol';
import type { ConsentRequest, ServerSummary } from '../../../protocol/servers';
import { consentKey } from '../common/consent-view';
import type { PageClient } from '../../messaging/page-client';
import { pendingConsents } from './consents';
import { useHostList } from './use-host-list';

export interface ConsentsState {
  readonly consents: readonly ConsentRequest[];
  readonly error: string | null;
  readonly dismiss: (consent: ConsentRequest) => void;
  readonly refresh: () => Promise<void>;
}

const readServers = async (client: PageClient): Promise<readonly ServerSummary[]> =>
  (await client.host('servers/list', {})).servers;

const serversEvent = (event: PageEvent): boolean =>
  event.type === 'host' && event.method === 'notifications/servers/changed';

/**
 * Servers waiting for launch approval, from the host's `servers/list`: read when the host
 * connects, when a server changes (`host` events) and after the worker restarted.
 */
export function useConsents(connection: ConnectionStateName): ConsentsState {
  const { items: servers, error, refresh } = useHostList(connection, readServers, serversEvent);
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  const dismiss = useCallback((consent: ConsentRequest) => {
    setDismissed((previous) => new Set([...previous, consentKey(consent)]));
  }, []);

  return { consents: pendingConsents(servers, dismissed), error, dismiss, refresh };
}
