import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ConnectionStateName } from '../../messaging/connection';
import type { ConsentRequest, ServerSummary } from '../../../protocol/servers';
import { coalesce } from '../common/coalesce';
import { consentKey } from '../common/consent-view';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import { pendingConsents } from './consents';

export interface ConsentsState {
  readonly consents: readonly ConsentRequest[];
  readonly error: string | null;
  readonly dismiss: (consent: ConsentRequest) => void;
  readonly refresh: () => Promise<void>;
}

/**
 * Servers waiting for launch approval, from the host's `servers/list`: read when the host
 * connects, when a server changes (`host` events) and after the worker restarted. Refreshes that
 * arrive while one is in flight are folded into one more (coalesce).
 */
export function useConsents(connection: ConnectionStateName): ConsentsState {
  const client = pageClient();
  const [servers, setServers] = useState<readonly ServerSummary[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  const refresh = useMemo(
    () =>
      coalesce(async () => {
        try {
          const result = await client.host('servers/list', {});
          setServers(result.servers);
          setError(null);
        } catch (reason) {
          setError(errorMessage(reason));
        }
      }),
    [client],
  );

  useEffect(() => {
    if (connection === 'connected') void refresh();
    else setServers([]);
  }, [connection, refresh]);

  useEffect(() => {
    const offEvent = client.onEvent((event) => {
      if (event.type === 'host' && event.method === 'notifications/servers/changed') {
        void refresh();
      }
    });
    const offReconnect = client.onReconnect(() => void refresh());
    return () => {
      offEvent();
      offReconnect();
    };
  }, [client, refresh]);

  const dismiss = useCallback((consent: ConsentRequest) => {
    setDismissed((previous) => new Set([...previous, consentKey(consent)]));
  }, []);

  return { consents: pendingConsents(servers, dismissed), error, dismiss, refresh };
}
