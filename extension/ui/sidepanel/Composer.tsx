import { useState } from 'react';
import { Button } from '../common/Button';
import { composerKeyAction, sendCheck } from './composer';

export interface ComposerProps {
  /** A reply is running or a message is on its way. */
  readonly busy: boolean;
  readonly running: boolean;
  readonly hasProvider: boolean;
  /** Resolves true when the worker took the message (the text is cleared then). */
  readonly onSend: (text: string) => Promise<boolean>;
  readonly onStop: () => void;
}

/** The message box: Enter sends, Shift+Enter adds a line; Stop while a reply runs. */
export function Composer({ busy, running, hasProvider, onSend, onStop }: ComposerProps) {
  const [text, setText] = useState('');
  const check = sendCheck({ text, busy, hasProvider });
  const send = (): void => {
    if (!check.ok) return;
    void onSend(check.text).then((accepted) => {
      if (accepted) setText('');
    });
  };
  return (
    <form
      className="sy-composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <textarea
        aria-label="Message"
        placeholder="Ask about this page, or use your tools…"
        rows={3}
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
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
