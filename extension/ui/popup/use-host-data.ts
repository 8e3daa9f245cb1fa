import { useEffect, useMemo, useState } from 'react';
import type { ServerSummary } from '../../../protocol/servers';
import type { ConnectionState } from '../../messaging/connection';
import type { PageClient } from '../../messaging/page-client';
import type { ActiveProfileView, PageEvent } from '../../messaging/ui-protocol';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import { coalesce } from '../common/coalesce';

/**
 * The popup's and options page's reads of worker and host state, kept fresh: re-read on the
 * worker's pushed events and after the page's port reconnects (the worker restarted). Every read
 * goes through the worker, which is the only holder of the native port.
 */

function useClient(): PageClient {
  return useMemo(() => pageClient(), []);
}

/** The native connection and the active tab's profile, from the snapshot and then events. */
export function useSession(): {
  readonly connection: ConnectionState | null;
  readonly profile: ActiveProfileView | null;
} {
  const client = useClient();
  const [connection, setConnection] = useState<ConnectionState | null>(null);
  const [profile, setProfile] = useState<ActiveProfileView | null>(null);

  useEffect(() => {
    let live = true;
    const load = async () => {
      try {
        const snapshot = await client.request('session/snapshot', {});
        if (!live) return;
        setConnection(snapshot.connection);
        setProfile(snapshot.profile);
      } catch {
        // The port reconnects by itself; onReconnect loads again.
      }
    };
    void load();
    const offEvent = client.onEvent((event: PageEvent) => {
      if (event.type === 'connection') setConnection(event.state);
      else if (event.type === 'profile') setProfile(event.profile);
    });
    const offReconnect = client.onReconnect(() => void load());
    return () => {
      live = false;
      offEvent();
      offReconnect();
    };
  }, [client]);

  return { connection, profile };
}

export interface Loaded<T> {
  /** Null until the first answer. */
  readonly data: T | null;
  /** The last read's error, cleared by the next good read. */
  readonly error: string | null;
  readonly reload: () => Promise<void>;
}

/**
 * Reads with `load` now, after every event `refreshOn` accepts, after the connection comes up and
 * after the port reconnects; bursts of events coalesce. `load` must be stable (useCallback).
 */
export function useLive<T>(
  load: (client: PageClient) => Promise<T>,
  refreshOn: (event: PageEvent) => boolean,
): Loaded<T> {
  const client = useClient();
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useMemo(
    () =>
      coalesce(async () => {
        try {
          const next = await load(client);
          setData(next);
          setError(null);
        } catch (e) {
          setError(errorMessage(e));
        }
      }),
    [client, load],
  );

  useEffect(() => {
    void reload();
    const offEvent = client.onEvent((event) => {
      if (refreshOn(event) || (event.type === 'connection' && event.state.state === 'connected')) {
        void reload();
      }
    });
    const offReconnect = client.onReconnect(() => void reload());
    return () => {
      offEvent();
      offReconnect();
    };
  }, [client, reload, refreshOn]);

  return { data, error, reload };
}

const loadServers = async (client: PageClient): Promise<readonly ServerSummary[]> =>
  (await client.host('servers/list', {})).servers;

const onHostEvent = (event: PageEvent): boolean => event.type === 'host';

/** Every configured server, re-read on any server or tool notification. */
export function useServers(): Loaded<readonly ServerSummary[]> {
  return useLive(loadServers, onHostEvent);
}
