import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { HistoryExport, HistoryPage } from '../../messaging/history';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import { nextUndoOffer, undoRemainingMs, type UndoEvent, type UndoOffer } from './undo-delete';

/** How long typing pauses before the list is searched again. */
const SEARCH_DELAY_MS = 200;
const PAGE_SIZE = 30;

export interface HistoryList {
  readonly query: string;
  readonly page: HistoryPage | null;
  readonly error: string | null;
  readonly setQuery: (query: string) => void;
  readonly loadMore: () => void;
  readonly open: (id: string) => Promise<boolean>;
  readonly rename: (id: string, title: string) => Promise<boolean>;
  readonly remove: (id: string, title: string) => Promise<boolean>;
  /** The last deletion, while Undo is offered (issue 14). */
  readonly undoOffer: UndoOffer | null;
  readonly undo: () => void;
  readonly exportAs: (id: string, format: 'markdown' | 'json') => void;
  readonly dismissPruned: () => void;
}

/** Saves an export through a blob URL (the page's download; nothing leaves the machine). */
function download(file: HistoryExport): void {
  const blob = new Blob([file.text], { type: `${file.mimeType};charset=utf-8` });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename;
  link.click();
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 30_000);
}

/**
 * The history list while it is open: the worker searches and pages it; the list re-reads itself
 * when the worker says the history changed.
 */
export function useHistory(): HistoryList {
  const client = pageClient();
  const [query, setQuery] = useState('');
  const [page, setPage] = useState<HistoryPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const asked = useRef(0);
  const [undoOffer, setUndoOffer] = useState<UndoOffer | null>(null);
  const undoEvent = useCallback((event: UndoEvent) => {
    setUndoOffer((offer) => nextUndoOffer(offer, event));
  }, []);
  useEffect(() => {
    if (undoOffer === null) return;
    const timer = setTimeout(
      () => {
        undoEvent({ type: 'tick', now: Date.now() });
      },
      undoRemainingMs(undoOffer, Date.now()),
    );
    return () => {
      clearTimeout(timer);
    };
  }, [undoOffer, undoEvent]);

  const fail = useCallback((reason: unknown) => {
    setError(errorMessage(reason));
  }, []);

  const reload = useCallback(
    (text: string) => {
      const question = ++asked.current;
      client.request('history/list', { query: text, pageSize: PAGE_SIZE }).then((answer) => {
        if (question !== asked.current) return; // a newer search is on its way
        setPage(answer);
        setError(null);
      }, fail);
    },
    [client, fail],
  );

  useEffect(() => {
    const timer = setTimeout(
      () => {
        reload(query);
      },
      query === '' ? 0 : SEARCH_DELAY_MS,
    );
    return () => {
      clearTimeout(timer);
    };
  }, [query, reload]);

  useEffect(
    () =>
      client.onEvent((event) => {
        if (event.type === 'history') reload(query);
      }),
    [client, query, reload],
  );

  return useMemo<HistoryList>(
    () => ({
      query,
      page,
      error,
      setQuery: (text) => {
        undoEvent({ type: 'moved-on' });
        setQuery(text);
      },
      loadMore: () => {
        if (page?.next === null || page === null) return;
        const question = asked.current;
        client
          .request('history/list', { query, cursor: page.next, pageSize: PAGE_SIZE })
          .then((more) => {
            if (question !== asked.current) return;
            setPage({ ...more, items: [...page.items, ...more.items] });
          }, fail);
      },
      open: (id) => {
        undoEvent({ type: 'moved-on' });
        return client.request('history/open', { id }).then(
          () => true,
          (reason: unknown) => {
            fail(reason);
            return false;
          },
        );
      },
      rename: (id, title) => {
        undoEvent({ type: 'moved-on' });
        return client.request('history/rename', { id, title }).then(
          ({ renamed }) => renamed,
          (reason: unknown) => {
            fail(reason);
            return false;
          },
        );
      },
      remove: (id, title) =>
        client.request('history/delete', { id }).then(
          ({ deleted }) => {
            if (deleted) undoEvent({ type: 'deleted', id, title, at: Date.now() });
            return deleted;
          },
          (reason: unknown) => {
            fail(reason);
            return false;
          },
        ),
      undoOffer,
      undo: () => {
        if (undoOffer === null) return;
        undoEvent({ type: 'undone' });
        client.request('history/restore', { id: undoOffer.id }).then(({ restored }) => {
          if (!restored) setError('Too late to undo: that conversation is deleted for good.');
        }, fail);
      },
      exportAs: (id, format) => {
        undoEvent({ type: 'moved-on' });
        client.request('history/export', { id, format }).then(download, fail);
      },
      dismissPruned: () => {
        client.request('history/dismissPruned', {}).catch(fail);
      },
    }),
    [client, error, fail, page, query, undoEvent, undoOffer],
  );
}
