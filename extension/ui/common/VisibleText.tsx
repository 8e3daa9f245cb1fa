import { visibleParts, type VisiblePart, type VisibleTextOptions } from './visible-text';
import './common.css';

export interface VisibleTextProps extends VisibleTextOptions {
  readonly text: string;
}

/** Renders parts from visible-text.ts: plain runs as text, hidden characters as labelled markers. */
export function VisibleParts({ parts }: { readonly parts: readonly VisiblePart[] }) {
  return (
    <>
      {parts.map((part, index) =>
        part.kind === 'text' ? (
          part.text
        ) : (
          <span key={index}>
            <span
              className={part.invisible ? 'sy-marker sy-marker--hidden' : 'sy-marker'}
              role="img"
              aria-label={part.label}
              title={part.label}
            >
              {part.symbol}
            </span>
            {part.lineBreak ? '\n' : null}
          </span>
        ),
      )}
    </>
  );
}

/** Text with its invisible characters (and, if asked, whitespace) shown as markers. Never markup. */
export function VisibleText({ text, whitespace, edgeSpaces }: VisibleTextProps) {
  return (
    <span className="sy-visible">
      <VisibleParts parts={visibleParts(text, { whitespace, edgeSpaces })} />
    </span>
  );
}
