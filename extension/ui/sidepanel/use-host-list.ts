import { useEffect, useMemo, useState } from 'react';
import type { ConnectionStateName } from '../../messaging/connection';
import type { PageEvent } from '../../messaging/ui-protocol';
import { coalesce } from '../common/coalesce';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import type { PageClient } from '../../messaging/page-client';

export interface HostListState<T> {
  readonly items: readonly T[];
  readonly error: string | null;
  readonly refresh: () => Promise<void>;
}

/**
 * A list the page keeps from one host request: read when the host connects, again on each event
 * `relistOn` names and after the worker restarted, emptied while the host is not connected.
 * Refreshes that arrive while one is in flight are folded into one more (coalesce). `read` and
 * `relistOn` must be stable (module-level functions).
 */
export function useHostList<T>(
  connection: ConnectionStateName,
  read: (client: PageClient) => Promise<readonly T[]>,
  relistOn: (event: PageEvent) => boolean,
): HostListState<T> {
  const client = pageClient();
  const [items, setItems] = useState<readonly T[]>([]);
  const [error, setError] = useState<string | null>(null);
  const refresh = useMemo(
    () =>
      coalesce(async () => {
        try {
          setItems(await read(client));
          setError(null);
        } catch (reason) {
          setError(errorMessage(reason));
        }
      }),
    [client, read],
  );

  useEffect(() => {
    if (connection === 'connected') void refresh();
    else setItems([]);
  }, [connection, refresh]);

  useEffect(() => {
    const offEvent = client.onEvent((event) => {
      if (relistOn(event)) void refresh();
    });
    const offReconnect = client.onReconnect(() => void refresh());
    return () => {
      offEvent();
      offReconnect();
    };
  }, [client, refresh, relistOn]);

  return { items, error, refresh };
}
