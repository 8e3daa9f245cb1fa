import { useRef, useState } from 'react';
import type { Resource } from '../../../protocol/resources';
import type { AttachmentRef } from '../../messaging/conversation';
import { Button } from '../common/Button';
import { VisibleText } from '../common/VisibleText';
import { composerKeyAction, sendCheck } from './composer';
import { ContextPicker } from './ContextPicker';
import { startsMention } from './context-picker';

export interface ComposerProps {
  /** A reply is running or a message is on its way. */
  readonly busy: boolean;
  readonly running: boolean;
  readonly hasProvider: boolean;
  /** The active profile, whose servers' resources can be attached. */
  readonly profile: string | undefined;
  /** Resolves true when the worker took the message (the text is cleared then). */
  readonly onSend: (text: string, attachments: readonly AttachmentRef[]) => Promise<boolean>;
  readonly onStop: () => void;
}

/** Most resources one message carries. */
export const MAX_ATTACHMENTS = 8;

/**
 * The message box: Enter sends, Shift+Enter adds a line; Stop while a reply runs. "Add context"
 * (or `@` at the start of a word) opens the resources of the site's servers; each picked one is a
 * chip on the next message until it is sent or removed.
 */
export function Composer({ busy, running, hasProvider, profile, onSend, onStop }: ComposerProps) {
  const [text, setText] = useState('');
  const [attachments, setAttachments] = useState<readonly AttachmentRef[]>([]);
  /** Open, and where the `@` that opened it is (null: opened by the button). */
  const [picker, setPicker] = useState<{ readonly at: number | null } | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const check = sendCheck({ text, busy, hasProvider });
  const send = (): void => {
    if (!check.ok) return;
    void onSend(check.text, attachments).then((accepted) => {
      if (accepted) {
        setText('');
        setAttachments([]);
      }
    });
  };
  const close = (): void => {
    setPicker(null);
    box.current?.focus();
  };
  const pick = (resource: Resource): void => {
    const at = picker?.at ?? null;
    // The `@` that opened the picker stands for the resource now: take it out of the text.
    if (at !== null && text[at] === '@') setText(text.slice(0, at) + text.slice(at + 1));
    setAttachments((previous) =>
      previous.some((a) => a.server === resource.server && a.uri === resource.uri) ||
      previous.length >= MAX_ATTACHMENTS
        ? previous
        : [
            ...previous,
            { server: resource.server, uri: resource.uri, name: resource.title ?? resource.name },
          ],
    );
    close();
  };
  return (
    <form
      className="sy-composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      {picker === null ? null : <ContextPicker profile={profile} onPick={pick} onClose={close} />}
      {attachments.length === 0 ? null : (
        <ul className="sy-chips" aria-label="Attached to the next message">
          {attachments.map((attachment) => (
            <li key={`${attachment.server}\u0000${attachment.uri}`} className="sy-chip">
              <span className="sy-chip__label">
                <VisibleText text={attachment.name} />
                <span className="sy-chip__server"> · {attachment.server}</span>
              </span>
              <button
                type="button"
                className="sy-chip__remove"
                aria-label={`Remove ${attachment.name}`}
                onClick={() => {
                  setAttachments((previous) => previous.filter((a) => a !== attachment));
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <textarea
        ref={box}
        aria-label="Message"
        placeholder="Ask about this page, or use your tools… (@ to attach a resource)"
        rows={3}
        value={text}
        onChange={(event) => {
          const next = event.currentTarget.value;
          const caret = event.currentTarget.selectionStart;
          if (next.length === text.length + 1 && startsMention(next, caret)) {
            setPicker({ at: caret - 1 });
          }
          setText(next);
        }}
        onKeyDown={(event) => {
          const action = composerKeyAction({
            key: event.key,
            shiftKey: event.shiftKey,
            isComposing: event.nativeEvent.isComposing,
          });
          if (action === 'send') {
            event.preventDefault();
            send();
          }
        }}
      />
      <div className="sy-composer__row">
        <Button
          size="small"
          variant="quiet"
          aria-expanded={picker !== null}
          onClick={() => {
            if (picker === null) setPicker({ at: null });
            else close();
          }}
        >
          Add context
        </Button>
        <span className="sy-hint" aria-live="polite">
          {check.ok ? 'Enter to send, Shift+Enter for a new line' : (check.reason ?? '')}
        </span>
        {running ? (
          <Button variant="danger" onClick={onStop}>
            Stop
          </Button>
        ) : null}
        <Button type="submit" variant="primary" disabled={!check.ok}>
          Send
        </Button>
      </div>
    </form>
  );
}
