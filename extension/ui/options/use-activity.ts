import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { PageClient } from '../../messaging/page-client';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import {
  activityParams,
  appendPage,
  type ActivityFilter,
  type ActivityList,
} from './activity-view';

/**
 * The activity log through the worker (`activity/list`), a page at a time: the newest page on
 * open, on a filter change, on Refresh, when the host connects and after the page's port
 * reconnects; older pages appended on "Load older". An answer to a request that a newer one
 * replaced (the filter changed meanwhile) is dropped.
 */

export type ActivityState =
  | { readonly kind: 'loading' }
  | { readonly kind: 'failed'; readonly error: string }
  | {
      readonly kind: 'loaded';
      readonly list: ActivityList;
      /** The "Load older" request: running, or its failure. */
      readonly older: { readonly loading: boolean; readonly error: string | null };
    };

export interface Activity {
  readonly state: ActivityState;
  /** The newest page again (drops the older pages loaded). */
  readonly reload: () => void;
  /** Appends the next older page, when there is one. */
  readonly loadOlder: () => void;
}

export function useActivity(filter: ActivityFilter): Activity {
  const client: PageClient = useMemo(() => pageClient(), []);
  const [state, setState] = useState<ActivityState>({ kind: 'loading' });
  const generation = useRef(0);
  const { server, event } = filter;

  const reload = useCallback(() => {
    generation.current += 1;
    const mine = generation.current;
    setState((current) => (current.kind === 'loaded' ? current : { kind: 'loading' }));
    client.host('activity/list', activityParams({ server, event }, null)).then(
      (page) => {
        if (generation.current !== mine) return;
        setState({
          kind: 'loaded',
          list: appendPage({ entries: [], nextCursor: null, skipped: 0 }, page),
          older: { loading: false, error: null },
        });
      },
      (reason: unknown) => {
        if (generation.current !== mine) return;
        setState({ kind: 'failed', error: errorMessage(reason) });
      },
    );
  }, [client, server, event]);

  const loadOlder = useCallback(() => {
    if (state.kind !== 'loaded' || state.older.loading) return;
    const cursor = state.list.nextCursor;
    if (cursor === null) return;
    const mine = generation.current;
    const list = state.list;
    setState({ ...state, older: { loading: true, error: null } });
    client.host('activity/list', activityParams({ server, event }, cursor)).then(
      (page) => {
        if (generation.current !== mine) return;
        setState({
          kind: 'loaded',
          list: appendPage(list, page),
          older: { loading: false, error: null },
        });
      },
      (reason: unknown) => {
        if (generation.current !== mine) return;
        setState({ kind: 'loaded', list, older: { loading: false, error: errorMessage(reason) } });
      },
    );
  }, [client, server, event, state]);

  useEffect(() => {
    // A new filter is a new list: show "loading" rather than the old filter's rows.
    setState({ kind: 'loading' });
    reload();
    const offEvent = client.onEvent((pushed) => {
      if (pushed.type === 'connection' && pushed.state.state === 'connected') reload();
    });
    const offReconnect = client.onReconnect(reload);
    return () => {
      offEvent();
      offReconnect();
    };
  }, [client, reload]);

  return { state, reload, loadOlder };
}
