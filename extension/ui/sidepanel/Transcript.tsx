import { useLayoutEffect, useRef, useState } from 'react';
import { Button } from '../common/Button';
import { Notice } from '../common/Notice';
import { ProviderAccessButton } from '../common/ProviderAccessButton';
import type { ChatState } from './chat-state';
import { VisibleText } from '../common/VisibleText';
import { SafeMarkdown } from './SafeMarkdown';
import { CopyButton } from './CopyButton';
import { messageCopies } from './message-copy';
import { AppFrame } from './AppFrame';
import { ToolRow } from './ToolRow';
import { usageLabel, usageText } from './usage-view';
import { notSentText, resendOffer, transcriptItems, type TranscriptItem } from './transcript';
import { ImageStrip } from './ImageStrip';

export interface TranscriptProps {
  readonly state: ChatState;
  readonly onDismissNotice: (id: number) => void;
  readonly onCancelCall: (callId: string) => void;
  /** Sends the user message at `index` again, with `text` when edited; what followed it goes. */
  readonly onResend: (index: number, text?: string) => void;
}

/**
 * A user message being edited in place: Send replaces it and drops everything after it (the
 * panel says so), Cancel or Escape leaves it as it was.
 */
function EditMessage({
  text,
  onSend,
  onCancel,
}: {
  readonly text: string;
  readonly onSend: (text: string) => void;
  readonly onCancel: () => void;
}) {
  const [draft, setDraft] = useState(text);
  const box = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    box.current?.focus();
  }, []);
  const send = (): void => {
    if (draft.trim() !== '') onSend(draft.trim());
  };
  return (
    <form
      className="sy-msg sy-msg--user sy-msg--editing"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <textarea
        ref={box}
        className="sy-msg__edit"
        aria-label="Edit your message"
        value={draft}
        rows={3}
        onChange={(event) => {
          setDraft(event.target.value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            onCancel();
          } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            send();
          }
        }}
      />
      <p className="sy-field-note">Sending replaces this message and everything after it.</p>
      <div className="sy-card__actions">
        <Button type="submit" size="small" variant="primary" disabled={draft.trim() === ''}>
          Send
        </Button>
        <Button size="small" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** Within this many pixels of the bottom, new content keeps the view pinned to the end. */
const STICK_TO_BOTTOM_PX = 48;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function Item({
  item,
  copy,
  profile,
  onDismissNotice,
  onCancelCall,
  onEdit,
}: {
  readonly item: TranscriptItem;
  /** What this item's Copy message button copies; none when undefined (messageCopies). */
  readonly copy: string | undefined;
  readonly profile: string | undefined;
  readonly onDismissNotice: (id: number) => void;
  readonly onCancelCall: (callId: string) => void;
  /** Opens this user message for editing; absent while a reply runs. */
  readonly onEdit?: (() => void) | undefined;
}) {
  const copyButton =
    copy === undefined && onEdit === undefined ? null : (
      <div className="sy-msg__actions">
        {copy === undefined ? null : <CopyButton text={copy} label="Copy message" />}
        {onEdit === undefined ? null : (
          <Button size="small" variant="quiet" aria-label="Edit message" onClick={onEdit}>
            Edit
          </Button>
        )}
      </div>
    );
  switch (item.kind) {
    case 'user':
      // The user's own words, shown as typed (not as markdown).
      return (
        <div className="sy-msg sy-msg--user">
          <p className="sy-sr-only">You:</p>
          <p className="sy-msg__text">{item.text}</p>
          <ImageStrip images={item.images} label="Attached images" />
          {item.files.length === 0 ? null : (
            <ul className="sy-chips sy-chips--sent" aria-label="Attached files">
              {item.files.map((name, index) => (
                <li key={index} className="sy-chip">
                  <span className="sy-chip__label">
                    <VisibleText text={name} />
                  </span>
                </li>
              ))}
            </ul>
          )}
          {item.attachments.length === 0 ? null : (
            <ul className="sy-chips sy-chips--sent" aria-label="Attached">
              {item.attachments.map((attachment, index) => (
                <li key={index} className="sy-chip">
                  <span className="sy-chip__label">
                    <VisibleText text={attachment.name} />
                    <span className="sy-chip__server"> · {attachment.server}</span>
                  </span>
                </li>
              ))}
            </ul>
          )}
          {copyButton}
        </div>
      );
    case 'assistant':
      return (
        <div className={`sy-msg sy-msg--assistant${item.streaming ? ' sy-msg--streaming' : ''}`}>
          <p className="sy-sr-only">Assistant:</p>
          <SafeMarkdown text={item.text} />
          {copyButton}
        </div>
      );
    case 'tool':
      return (
        <>
          <ToolRow
            name={item.name}
            arguments={item.arguments}
            status={item.status}
            result={item.result}
            progress={item.progress}
            cancelling={item.cancelling}
            onCancel={() => {
              onCancelCall(item.callId);
            }}
          />
          <ImageStrip images={item.images} label={`Images from ${item.name}`} />
          {item.app === null ? null : (
            <AppFrame
              app={item.app}
              arguments={isRecord(item.arguments) ? item.arguments : {}}
              callId={item.callId}
              profile={profile}
            />
          )}
        </>
      );
    case 'notice':
      return (
        <Notice
          tone={item.notice.tone}
          actions={
            <>
              {item.notice.access === undefined ? null : (
                <ProviderAccessButton size="small" access={item.notice.access} />
              )}
              <Button
                size="small"
                variant="quiet"
                onClick={() => {
                  onDismissNotice(item.notice.id);
                }}
              >
                Dismiss
              </Button>
            </>
          }
        >
          {item.notice.message}
        </Notice>
      );
    case 'thinking':
      return (
        <p className="sy-thinking" role="status">
          Working…
        </p>
      );
    case 'usage':
      return (
        <p className="sy-usage" title={usageLabel(item.usage)}>
          <span className="sy-sr-only">{usageLabel(item.usage)}</span>
          <span aria-hidden="true">{usageText(item.usage)}</span>
        </p>
      );
    case 'not-sent':
      return (
        <p className="sy-not-sent" role="note">
          {notSentText(item.count)}
        </p>
      );
  }
}

/** The conversation, as a live log that stays at the bottom while the user is there. */
export function Transcript({ state, onDismissNotice, onCancelCall, onResend }: TranscriptProps) {
  const ref = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const items = transcriptItems(state);
  const copies = messageCopies(items);
  const offer = resendOffer(state);
  const [editing, setEditing] = useState<number | null>(null);
  const idle = !state.running && !state.sending;

  useLayoutEffect(() => {
    const element = ref.current;
    if (element !== null && pinned.current) element.scrollTop = element.scrollHeight;
  });

  return (
    <div
      ref={ref}
      className="sy-transcript"
      role="log"
      aria-live="polite"
      aria-label="Conversation"
      aria-busy={state.streamingText !== ''}
      tabIndex={0}
      onScroll={(event) => {
        const element = event.currentTarget;
        pinned.current =
          element.scrollHeight - element.scrollTop - element.clientHeight < STICK_TO_BOTTOM_PX;
      }}
    >
      {items.length === 0 ? (
        <div className="sy-empty">
          <p>Ask about the page you are on, or put your MCP servers’ tools to work.</p>
          <p className="sy-hint">
            Every MCP tool call asks you first unless you allow-listed the tool. Text from pages and
            servers is shown as plain text.
          </p>
        </div>
      ) : (
        items.map((item) =>
          item.kind === 'user' && editing === item.index && idle ? (
            <EditMessage
              key={item.key}
              text={item.text}
              onSend={(text) => {
                setEditing(null);
                onResend(item.index, text);
              }}
              onCancel={() => {
                setEditing(null);
              }}
            />
          ) : (
            <Item
              key={item.key}
              item={item}
              copy={copies.get(item.key)}
              profile={state.profile?.id}
              onDismissNotice={onDismissNotice}
              onCancelCall={onCancelCall}
              onEdit={
                item.kind === 'user' && idle
                  ? () => {
                      setEditing(item.index);
                    }
                  : undefined
              }
            />
          ),
        )
      )}
      {offer === null || editing !== null ? null : (
        <div className="sy-resend">
          <Button
            size="small"
            onClick={() => {
              onResend(offer.index);
            }}
          >
            {offer.label}
          </Button>
        </div>
      )}
    </div>
  );
}
