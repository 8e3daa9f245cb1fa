import { Button } from '../common/Button';
import './history.css';
import { Notice } from '../common/Notice';
import { HistoryItem } from './HistoryItem';
import { emptyListText, prunedNotice } from './history-view';
import { undoNoticeText } from './undo-delete';
import { useHistory } from './use-history';

export interface HistoryPanelProps {
  /** The list is done with: back to the chat (after Open, or Back). */
  readonly onClose: () => void;
}

/**
 * The conversation history (issue 14): newest first, searched by the worker, each conversation
 * opened, renamed, exported or deleted in place. Shown in place of the transcript.
 */
export function HistoryPanel({ onClose }: HistoryPanelProps) {
  const history = useHistory();
  const { page } = history;
  const now = Date.now();
  const pruned = page === null ? null : prunedNotice(page.pruned, page.limit);
  return (
    <section
      className="sy-history"
      aria-label="Conversation history"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <div className="sy-history__bar">
        <input
          type="search"
          className="sy-history__search"
          aria-label="Search conversations"
          placeholder="Search conversations"
          value={history.query}
          autoFocus
          onChange={(event) => {
            history.setQuery(event.target.value);
          }}
        />
        <Button size="small" onClick={onClose}>
          Back to chat
        </Button>
      </div>
      {pruned === null ? null : (
        <Notice
          tone="info"
          actions={
            <Button size="small" variant="quiet" onClick={history.dismissPruned}>
              Dismiss
            </Button>
          }
        >
          {pruned}
        </Notice>
      )}
      {history.undoOffer === null ? null : (
        <Notice
          tone="info"
          actions={
            <Button size="small" onClick={history.undo}>
              Undo
            </Button>
          }
        >
          {undoNoticeText(history.undoOffer)}
        </Notice>
      )}
      {history.error === null ? null : <Notice tone="error">{history.error}</Notice>}
      {page === null ? (
        <p role="status">Loading conversations…</p>
      ) : page.items.length === 0 ? (
        <p className="sy-history__empty" role="status">
          {emptyListText(history.query)}
        </p>
      ) : (
        <ul className="sy-history__list" aria-label="Conversations, newest first">
          {page.items.map(({ entry, snippet }) => (
            <HistoryItem
              key={entry.id}
              entry={entry}
              snippet={snippet}
              current={entry.id === page.currentId}
              now={now}
              onOpen={() => {
                void history.open(entry.id).then((opened) => {
                  if (opened) onClose();
                });
              }}
              onRename={(title) => history.rename(entry.id, title)}
              onDelete={() => {
                void history.remove(entry.id, entry.title);
              }}
              onExport={(format) => {
                history.exportAs(entry.id, format);
              }}
            />
          ))}
        </ul>
      )}
      {page?.next === null || page === null ? null : (
        <Button size="small" onClick={history.loadMore}>
          Show older conversations
        </Button>
      )}
    </section>
  );
}
