import { useState, type KeyboardEvent, type SyntheticEvent } from 'react';
import { MAX_TITLE_CHARS } from '../../messaging/conversation';
import type { HistoryEntry } from '../../messaging/history';
import { Button } from '../common/Button';
import { entryDetails, relativeDate } from './history-view';

export interface HistoryItemProps {
  readonly entry: HistoryEntry;
  readonly snippet: string | undefined;
  readonly current: boolean;
  readonly now: number;
  readonly onOpen: () => void;
  readonly onRename: (title: string) => Promise<boolean>;
  readonly onDelete: () => void;
  readonly onExport: (format: 'markdown' | 'json') => void;
}

type Mode = 'view' | 'rename' | 'confirm-delete' | 'export';

/** One conversation in the list: open it, rename it in place, export it, delete it (confirmed). */
export function HistoryItem(props: HistoryItemProps) {
  const { entry, current } = props;
  const [mode, setMode] = useState<Mode>('view');
  const [title, setTitle] = useState(entry.title);

  const save = (event: SyntheticEvent): void => {
    event.preventDefault();
    const trimmed = title.trim();
    if (trimmed === '' || trimmed === entry.title) {
      setMode('view');
      return;
    }
    void props.onRename(trimmed).then((renamed) => {
      if (renamed) setMode('view');
    });
  };
  const cancelOnEscape = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    setTitle(entry.title);
    setMode('view');
  };

  if (mode === 'rename') {
    return (
      <li className="sy-history__item">
        <form className="sy-history__rename" onSubmit={save} onKeyDown={cancelOnEscape}>
          <input
            className="sy-history__input"
            aria-label={`New name for “${entry.title}”`}
            value={title}
            maxLength={MAX_TITLE_CHARS}
            autoFocus
            onChange={(event) => {
              setTitle(event.target.value);
            }}
          />
          <Button size="small" variant="primary" type="submit">
            Save
          </Button>
          <Button
            size="small"
            onClick={() => {
              setTitle(entry.title);
              setMode('view');
            }}
          >
            Cancel
          </Button>
        </form>
      </li>
    );
  }

  return (
    <li className={`sy-history__item${current ? ' sy-history__item--current' : ''}`}>
      <button
        type="button"
        className="sy-history__open"
        aria-current={current ? 'true' : undefined}
        onClick={props.onOpen}
      >
        <span className="sy-history__title">{entry.title}</span>
        <span className="sy-history__meta">
          <time dateTime={new Date(entry.updatedAt).toISOString()}>
            {relativeDate(props.now, entry.updatedAt)}
          </time>
          {' · '}
          {entryDetails(entry)}
          {current ? ' · open now' : ''}
        </span>
        {props.snippet === undefined ? null : (
          <span className="sy-history__snippet">{props.snippet}</span>
        )}
      </button>
      {mode === 'confirm-delete' ? (
        <div className="sy-history__confirm" role="group" aria-label="Confirm deletion">
          <span>Delete this conversation? You can undo it for a few seconds.</span>
          <Button size="small" variant="danger" onClick={props.onDelete}>
            Delete
          </Button>
          <Button
            size="small"
            autoFocus
            onClick={() => {
              setMode('view');
            }}
          >
            Cancel
          </Button>
        </div>
      ) : (
        <div className="sy-history__actions">
          <Button
            size="small"
            variant="quiet"
            aria-label={`Rename “${entry.title}”`}
            onClick={() => {
              setMode('rename');
            }}
          >
            Rename
          </Button>
          <Button
            size="small"
            variant="quiet"
            aria-expanded={mode === 'export'}
            aria-label={`Export “${entry.title}”`}
            onClick={() => {
              setMode(mode === 'export' ? 'view' : 'export');
            }}
          >
            Export
          </Button>
          {mode === 'export' ? (
            <>
              <Button
                size="small"
                onClick={() => {
                  props.onExport('markdown');
                  setMode('view');
                }}
              >
                Markdown
              </Button>
              <Button
                size="small"
                onClick={() => {
                  props.onExport('json');
                  setMode('view');
                }}
              >
                JSON
              </Button>
            </>
          ) : null}
          <Button
            size="small"
            variant="quiet"
            aria-label={`Delete “${entry.title}”`}
            onClick={() => {
              setMode('confirm-delete');
            }}
          >
            Delete
          </Button>
        </div>
      )}
    </li>
  );
}
