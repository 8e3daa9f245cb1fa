import { useEffect, useState } from 'react';
import { Button } from '../common/Button';

/** How long the button says "Copied" (or "Copy failed") before it reads "Copy" again. */
export const COPY_FEEDBACK_MS = 1500;

type CopyStatus = 'idle' | 'copied' | 'failed';

export interface CopyButtonProps {
  /** What goes on the clipboard. */
  readonly text: string;
  /** The button's accessible name, naming what it copies: "Copy code", "Copy message". */
  readonly label: string;
  readonly className?: string;
  /** The clipboard; `navigator.clipboard.writeText` unless a test gives another. */
  readonly writeText?: (text: string) => Promise<void>;
}

function clipboardWrite(text: string): Promise<void> {
  return navigator.clipboard.writeText(text);
}

/**
 * A small quiet button that puts `text` on the clipboard and says so for a moment ("Copied", or
 * "Copy failed" when the browser refused), also to a screen reader through a status line.
 */
export function CopyButton({
  text,
  label,
  className,
  writeText = clipboardWrite,
}: CopyButtonProps) {
  // An object, not the bare status: a second click while "Copied" shows starts the timer anew.
  const [feedback, setFeedback] = useState<{ readonly status: CopyStatus }>({ status: 'idle' });

  useEffect(() => {
    if (feedback.status === 'idle') return undefined;
    const timer = setTimeout(() => {
      setFeedback({ status: 'idle' });
    }, COPY_FEEDBACK_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [feedback]);

  const copy = async (): Promise<void> => {
    try {
      await writeText(text);
      setFeedback({ status: 'copied' });
    } catch {
      // No focus, no permission, or no clipboard at all: say so rather than pretend.
      setFeedback({ status: 'failed' });
    }
  };

  const shown =
    feedback.status === 'copied' ? 'Copied' : feedback.status === 'failed' ? 'Copy failed' : 'Copy';
  return (
    <span className={['sy-copy', className ?? ''].join(' ').trim()}>
      <Button
        size="small"
        variant="quiet"
        className="sy-copy__button"
        aria-label={label}
        data-copy-status={feedback.status}
        onClick={() => {
          void copy();
        }}
      >
        {shown}
      </Button>
      <span className="sy-sr-only" role="status">
        {feedback.status === 'idle' ? '' : shown}
      </span>
    </span>
  );
}
