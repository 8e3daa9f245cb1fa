import { useEffect, useMemo, useState } from 'react';
import { browser } from 'wxt/browser';
import { Button } from '../common/Button';
import { errorMessage } from '../common/errors';
import { findChatOpener } from './open-chat';

/**
 * "Open chat": the toolbar action opens this popup, so the chat opens from here. The side panel
 * needs the user gesture, so the window id is looked up first and `open` is called directly in
 * the click handler (design.md section 5).
 */
export function OpenChatButton() {
  const opener = useMemo(() => findChatOpener(browser), []);
  const [windowId, setWindowId] = useState<number | null>(null);
  // popup.html can also be open in a tab (tests, screenshots): close only the real popup.
  const [inPopup, setInPopup] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    browser.tabs
      .getCurrent()
      .then((tab) => {
        setInPopup(tab === undefined);
      })
      .catch(() => {
        // Unknown: stay open.
      });
    if (opener.kind !== 'side-panel') return;
    browser.windows
      .getCurrent()
      .then((current) => {
        setWindowId(current.id ?? null);
      })
      .catch((e: unknown) => {
        setError(errorMessage(e));
      });
  }, [opener]);

  const onClick = () => {
    setError(null);
    const opened =
      opener.kind === 'side-panel' && windowId !== null
        ? opener.open(windowId)
        : opener.kind === 'sidebar'
          ? opener.open()
          : null;
    if (opened === null) return;
    opened
      .then(() => {
        if (inPopup) window.close();
      })
      .catch((e: unknown) => {
        setError(errorMessage(e));
      });
  };

  const unavailable = opener.kind === 'none' || (opener.kind === 'side-panel' && windowId === null);
  return (
    <div className="pp-open-chat">
      <Button
        variant="primary"
        onClick={onClick}
        disabled={unavailable}
        title={opener.kind === 'none' ? 'This browser has no side panel for the chat.' : undefined}
      >
        Open chat
      </Button>
      {error !== null && (
        <p role="alert" className="sy-error-text">
          {error}
        </p>
      )}
    </div>
  );
}
