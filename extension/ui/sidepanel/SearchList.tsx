import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ListingProblem } from '../../../protocol/resources';
import type { PageEvent } from '../../messaging/ui-protocol';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import { PickerRows, PickerSearch, useActiveRow } from './Picker';

/** What the list shows of one kind of item: its words, and how to fetch and draw items. */
export interface SearchListProps<T> {
  /** Plural noun for messages and labels: "resources", "prompts". */
  readonly noun: string;
  /** The list's accessible name: "Resources", "Prompts". */
  readonly listLabel: string;
  readonly placeholder: string;
  /** Fetches the items (`resources/list`, `prompts/list`) for the active profile. */
  readonly list: () => Promise<{
    readonly items: readonly T[];
    readonly problems: readonly ListingProblem[];
  }>;
  /** The page events after which the list is fetched again (a server started, say). */
  readonly relistOn: (event: PageEvent) => boolean;
  /** The items matching the search, in the order shown. */
  readonly filter: (items: readonly T[], query: string) => readonly T[];
  readonly keyOf: (item: T) => string;
  readonly render: (item: T) => ReactNode;
  readonly onChoose: (item: T) => void;
  /** Changes of it fetch the list again (the active profile). */
  readonly listKey: string | undefined;
}

/**
 * A picker's searchable list (issue 12): fetched when it opens and again on `relistOn`, the
 * search box focused, ArrowUp/ArrowDown to move, Enter or a click to choose; the host's
 * `problems` (a server that failed to list) shown under it.
 */
export function SearchList<T>({
  noun,
  listLabel,
  placeholder,
  list,
  relistOn,
  filter,
  keyOf,
  render,
  onChoose,
  listKey,
}: SearchListProps<T>) {
  const listId = useId();
  const [query, setQuery] = useState('');
  const [items, setItems] = useState<readonly T[] | null>(null);
  const [problems, setProblems] = useState<readonly ListingProblem[]>([]);
  const [error, setError] = useState<string | null>(null);
  // The latest callbacks, without refetching whenever a parent renders a new closure.
  const fetchers = useRef({ list, relistOn });
  fetchers.current = { list, relistOn };

  useEffect(() => {
    let live = true;
    const load = (): void => {
      fetchers.current.list().then(
        (result) => {
          if (!live) return;
          setItems(result.items);
          setProblems(result.problems);
          setError(null);
        },
        (reason: unknown) => {
          if (live) setError(errorMessage(reason));
        },
      );
    };
    load();
    const off = pageClient().onEvent((event) => {
      if (fetchers.current.relistOn(event)) load();
    });
    return () => {
      live = false;
      off();
    };
  }, [listKey]);

  const shown = useMemo(() => filter(items ?? [], query), [filter, items, query]);
  const row = useActiveRow(shown.length);
  return (
    <>
      <PickerSearch
        label={`Search ${noun}`}
        placeholder={placeholder}
        listId={listId}
        query={query}
        onQuery={setQuery}
        row={row}
        onEnter={() => {
          const chosen = shown[row.active];
          if (chosen !== undefined) onChoose(chosen);
        }}
      />
      {error === null ? null : (
        <p className="sy-error-text">
          Could not list {noun}: {error}
        </p>
      )}
      {items === null && error === null ? <p role="status">Listing {noun}…</p> : null}
      {items !== null && shown.length === 0 ? (
        <p className="sy-field-note" role="status">
          {items.length === 0 ? `No server on this site offers ${noun}.` : `No ${noun} match.`}
        </p>
      ) : null}
      <PickerRows
        id={listId}
        label={listLabel}
        items={shown}
        active={row.active}
        keyOf={keyOf}
        render={render}
        onChoose={onChoose}
      />
      {problems.map((problem) => (
        <p key={problem.server} className="sy-field-note">
          {problem.server}: {problem.message}
        </p>
      ))}
    </>
  );
}
