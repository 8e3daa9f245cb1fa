import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ListingProblem, Resource } from '../../../protocol/resources';
import { Button } from '../common/Button';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import { VisibleText } from '../common/VisibleText';
import { filterResources, resourceDetail } from './context-picker';

export interface ContextPickerProps {
  /** The active profile: only its servers' resources exist here. */
  readonly profile: string | undefined;
  readonly onPick: (resource: Resource) => void;
  readonly onClose: () => void;
}

/**
 * "Add context" (issue 12): the resources of the active profile's servers, searched by name, URI
 * and description, grouped by server. Picking one attaches it to the next message; nothing is
 * read until it is sent.
 */
export function ContextPicker({ profile, onPick, onClose }: ContextPickerProps) {
  const headingId = useId();
  const listId = useId();
  const search = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const [resources, setResources] = useState<readonly Resource[] | null>(null);
  const [problems, setProblems] = useState<readonly ListingProblem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [active, setActive] = useState(0);

  useEffect(() => {
    search.current?.focus();
  }, []);

  useEffect(() => {
    const client = pageClient();
    let live = true;
    const load = (): void => {
      client.host('resources/list', profile === undefined ? {} : { profile }).then(
        (result) => {
          if (!live) return;
          setResources(result.resources);
          setProblems(result.problems);
          setError(null);
        },
        (reason: unknown) => {
          if (live) setError(errorMessage(reason));
        },
      );
    };
    load();
    // A server that starts, stops or changes its resources while the picker is open shows up.
    const off = client.onEvent((event) => {
      if (event.type === 'host' && event.method !== 'notifications/tools/changed') load();
    });
    return () => {
      live = false;
      off();
    };
  }, [profile]);

  const shown = useMemo(() => filterResources(resources ?? [], query), [resources, query]);
  const pick = (resource: Resource | undefined): void => {
    if (resource !== undefined) onPick(resource);
  };

  return (
    <section
      className="sy-card sy-picker"
      aria-labelledby={headingId}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onClose();
        }
      }}
    >
      <div className="sy-picker__head">
        <h2 className="sy-card__title" id={headingId}>
          Add context
        </h2>
        <Button size="small" variant="quiet" onClick={onClose}>
          Close
        </Button>
      </div>
      <input
        ref={search}
        type="search"
        className="sy-picker__search"
        aria-label="Search resources"
        aria-controls={listId}
        placeholder="Search by name or address"
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
            pick(shown[active]);
          }
        }}
      />
      {error === null ? null : <p className="sy-error-text">Could not list resources: {error}</p>}
      {resources === null && error === null ? <p role="status">Listing resources…</p> : null}
      {resources !== null && shown.length === 0 ? (
        <p className="sy-field-note" role="status">
          {resources.length === 0
            ? 'No server on this site offers resources.'
            : 'No resource matches.'}
        </p>
      ) : null}
      <ul className="sy-picker__list" id={listId} aria-label="Resources">
        {shown.map((resource, index) => (
          <li key={`${resource.server}\u0000${resource.uri}`}>
            <button
              type="button"
              className={`sy-picker__item${index === active ? ' sy-picker__item--active' : ''}`}
              onClick={() => {
                pick(resource);
              }}
            >
              <span className="sy-picker__name">
                <VisibleText text={resource.title ?? resource.name} />
              </span>
              <span className="sy-picker__detail">
                <VisibleText text={resourceDetail(resource)} />
              </span>
            </button>
          </li>
        ))}
      </ul>
      {problems.map((problem) => (
        <p key={problem.server} className="sy-field-note">
          {problem.server}: {problem.message}
        </p>
      ))}
    </section>
  );
}
