import { useCallback, useEffect, useRef, useState } from 'react';
import type { ConnectionStateName } from '../../background/connection-state';
import type { ConsentRequest, ServerSummary } from '../../../protocol/servers';
import { consentKey } from '../common/consent-view';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import { pendingConsents } from './consents';

export interface ConsentsState {
  readonly consents: readonly ConsentRequest[];
  readonly error: string | null;
  readonly dismiss: (consent: ConsentRequest) => void;
  readonly refresh: () => void;
}

/**
 * Servers waiting for launch approval, from the host's `servers/list`: read when the host
 * connects, when a server changes (`host` events) and after the worker restarted. Refreshes that
 * arrive while one is in flight are folded into one more.
 */
export function useConsents(connection: ConnectionStateName): ConsentsState {
  const client = pageClient();
  const [servers, setServers] = useState<readonly ServerSummary[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  const inFlight = useRef(false);
  const again = useRef(false);

  const refresh = useCallback(() => {
    if (inFlight.current) {
      again.current = true;
      return;
    }
    inFlight.current = true;
    client
      .host('servers/list', {})
      .then(
        (result) => {
          setServers(result.servers);
          setError(null);
        },
        (reason: unknown) => {
          setError(errorMessage(reason));
        },
      )
      .finally(() => {
        inFlight.current = false;
        if (again.current) {
          again.current = false;
          refresh();
        }
      });
  }, [client]);

  useEffect(() => {
    if (connection === 'connected') refresh();
    else setServers([]);
  }, [connection, refresh]);

  useEffect(() => {
    const offEvent = client.onEvent((event) => {
      if (event.type === 'host' && event.method === 'notifications/servers/changed') refresh();
    });
    const offReconnect = client.onReconnect(refresh);
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
