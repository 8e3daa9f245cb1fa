import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ListingProblem } from '../../../protocol/resources';
import type { PageEvent } from '../../messaging/ui-protocol';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';

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
  const search = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const [items, setItems] = useState<readonly T[] | null>(null);
  const [problems, setProblems] = useState<readonly ListingProblem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  // The latest callbacks, without refetching whenever a parent renders a new closure.
  const fetchers = useRef({ list, relistOn });
  fetchers.current = { list, relistOn };

  useEffect(() => {
    search.current?.focus();
  }, []);

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
  return (
    <>
      <input
        ref={search}
        type="search"
        className="sy-picker__search"
        aria-label={`Search ${noun}`}
        aria-controls={listId}
        placeholder={placeholder}
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            setActive((n) => Math.min(n + 1, Math.max(0, shown.length - 1)));
          } else if (event.key === 'ArrowUp') {
            event.preventDefault();
            setActive((n) => Math.max(0, n - 1));
          } else if (event.key === 'Enter') {
            event.preventDefault();
            const chosen = shown[active];
            if (chosen !== undefined) onChoose(chosen);
          }
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
      <ul className="sy-picker__list" id={listId} aria-label={listLabel}>
        {shown.map((item, index) => (
          <li key={keyOf(item)}>
            <button
              type="button"
              className={`sy-picker__item${index === active ? ' sy-picker__item--active' : ''}`}
              onClick={() => {
                onChoose(item);
              }}
            >
              {render(item)}
            </button>
          </li>
        ))}
      </ul>
      {problems.map((problem) => (
        <p key={problem.server} className="sy-field-note">
          {problem.server}: {problem.message}
        </p>
      ))}
    </>
  );
}
