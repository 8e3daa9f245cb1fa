import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ModelListing } from '../../messaging/ui-protocol';
import { Button } from '../common/Button';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import { modelChoices, modelToSet, typedModel, type ModelInView } from './model-picker';

export interface ModelPickerProps {
  readonly view: ModelInView;
  /** The model for this conversation from its next request on; null: the default. */
  readonly onChoose: (model: string | null) => void;
  readonly onClose: () => void;
}

/**
 * The composer's model picker (issue 14): the provider's models from its own models endpoint
 * (through the worker, which keeps the list a minute), searched as you type; a model the
 * provider does not list is typed in and used as written. The choice is this conversation's.
 */
export function ModelPicker({ view, onChoose, onClose }: ModelPickerProps) {
  const headingId = useId();
  const listId = useId();
  const search = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const [listing, setListing] = useState<ModelListing | null>(null);
  const [active, setActive] = useState(0);

  useEffect(() => {
    search.current?.focus();
    let live = true;
    pageClient()
      .request('models/list', {})
      .then(
        (result) => {
          if (live) setListing(result);
        },
        (reason: unknown) => {
          if (live) setListing({ models: [], problem: errorMessage(reason) });
        },
      );
    return () => {
      live = false;
    };
  }, []);

  const choices = useMemo(
    () => modelChoices(listing?.models ?? [], query, view),
    [listing, query, view],
  );
  const typed = typedModel(query, choices);
  const choose = (id: string): void => {
    onChoose(modelToSet(id, view));
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
          Model for this chat · {view.provider}
        </h2>
        <Button size="small" variant="quiet" onClick={onClose}>
          Close
        </Button>
      </div>
      <input
        ref={search}
        type="search"
        className="sy-picker__search"
        aria-label="Search or type a model id"
        aria-controls={listId}
        placeholder="Search or type a model id"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            setActive((n) => Math.min(n + 1, Math.max(0, choices.length - 1)));
          } else if (event.key === 'ArrowUp') {
            event.preventDefault();
            setActive((n) => Math.max(0, n - 1));
          } else if (event.key === 'Enter') {
            event.preventDefault();
            // The typed id wins when nothing listed matches it exactly.
            const chosen = typed ?? choices[active]?.id;
            if (chosen !== undefined) choose(chosen);
          }
        }}
      />
      {listing === null ? <p role="status">Listing {view.provider}’s models…</p> : null}
      {listing === null || listing.problem === null ? null : (
        <p className="sy-field-note" role="status">
          No model list: {listing.problem}
        </p>
      )}
      {typed === null ? null : (
        <Button
          size="small"
          onClick={() => {
            choose(typed);
          }}
        >
          Use “{typed}”
        </Button>
      )}
      <ul className="sy-picker__list" id={listId} aria-label="Models">
        {choices.map((choice, index) => (
          <li key={choice.id}>
            <button
              type="button"
              className={`sy-picker__item${index === active ? ' sy-picker__item--active' : ''}`}
              aria-current={choice.inUse ? 'true' : undefined}
              onClick={() => {
                choose(choice.id);
              }}
            >
              <span className="sy-picker__name">
                {choice.id}
                {choice.inUse ? <span className="sy-picker__badge"> · in use</span> : null}
                {choice.isDefault ? <span className="sy-picker__badge"> · default</span> : null}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <p className="sy-picker__detail">
        This chat only; a new chat starts with the default set in options.
      </p>
    </section>
  );
}
