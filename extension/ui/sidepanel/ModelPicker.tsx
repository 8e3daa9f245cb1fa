import { useEffect, useId, useMemo, useState } from 'react';
import type { ModelListing } from '../../messaging/ui-protocol';
import { Button } from '../common/Button';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import { PickerCard, PickerRows, PickerSearch, useActiveRow } from './Picker';
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
  const listId = useId();
  const [query, setQuery] = useState('');
  const [listing, setListing] = useState<ModelListing | null>(null);

  useEffect(() => {
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
  const row = useActiveRow(choices.length);
  const typed = typedModel(query, choices);
  const choose = (id: string): void => {
    onChoose(modelToSet(id, view));
  };
  return (
    <PickerCard title={<>Model for this chat · {view.provider}</>} onClose={onClose}>
      <PickerSearch
        label="Search or type a model id"
        placeholder="Search or type a model id"
        listId={listId}
        query={query}
        onQuery={setQuery}
        row={row}
        onEnter={() => {
          // The typed id wins when nothing listed matches it exactly.
          const chosen = typed ?? choices[row.active]?.id;
          if (chosen !== undefined) choose(chosen);
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
      <PickerRows
        id={listId}
        label="Models"
        items={choices}
        active={row.active}
        keyOf={(choice) => choice.id}
        isCurrent={(choice) => choice.inUse}
        onChoose={(choice) => {
          choose(choice.id);
        }}
        render={(choice) => (
          <span className="sy-picker__name">
            {choice.id}
            {choice.inUse ? <span className="sy-picker__badge"> · in use</span> : null}
            {choice.isDefault ? <span className="sy-picker__badge"> · default</span> : null}
          </span>
        )}
      />
      <p className="sy-picker__detail">
        This chat only; a new chat starts with the default set in options.
      </p>
    </PickerCard>
  );
}
