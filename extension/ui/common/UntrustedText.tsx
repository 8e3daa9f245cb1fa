import { useState } from 'react';
import { Button } from './Button';
import { VisibleParts } from './VisibleText';
import { exactCount } from './format';
import { countHidden, cutText, visibleParts } from './visible-text';
import './common.css';

export interface UntrustedTextProps {
  /** Text from a server, a page or a tool result: shown strictly as text. */
  readonly text: string;
  /** Longer text collapses to this many characters behind a "Show all" button (default 2,000). */
  readonly maxChars?: number;
  /** A block with preserved line breaks (default) or an inline span. */
  readonly inline?: boolean;
}

export const DEFAULT_UNTRUSTED_CHARS = 2000;

/**
 * Text nobody here wrote, rendered as text only: React escapes it, nothing parses it as markdown
 * or HTML, hidden characters show as markers, and long text collapses visibly, never silently.
 */
export function UntrustedText({
  text,
  maxChars = DEFAULT_UNTRUSTED_CHARS,
  inline = false,
}: UntrustedTextProps) {
  const [expanded, setExpanded] = useState(false);
  const { shown, hidden } = expanded ? { shown: text, hidden: 0 } : cutText(text, maxChars);
  const parts = visibleParts(shown);
  const hiddenChars = countHidden(parts);
  if (inline) {
    return (
      <span className="sy-untrusted-inline">
        <VisibleParts parts={parts} />
        {hidden > 0 ? '…' : null}
      </span>
    );
  }
  return (
    <div className="sy-untrusted">
      {hiddenChars > 0 ? (
        <p className="sy-untrusted__warning">
          Contains {hiddenChars} invisible character{hiddenChars === 1 ? '' : 's'}, shown as ⟨…⟩.
        </p>
      ) : null}
      <div className="sy-untrusted__text">
        <VisibleParts parts={parts} />
        {hidden > 0 ? <span className="sy-untrusted__more">…</span> : null}
      </div>
      {hidden > 0 || expanded ? (
        <p className="sy-collapse">
          {expanded ? null : (
            <span>
              Showing {exactCount(shown.length)} of {exactCount(text.length)} characters.{' '}
            </span>
          )}
          {text.length > maxChars ? (
            <Button
              size="small"
              variant="quiet"
              onClick={() => {
                setExpanded(!expanded);
              }}
            >
              {expanded ? 'Show less' : `Show all ${exactCount(text.length)} characters`}
            </Button>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
