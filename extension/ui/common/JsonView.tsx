import { useMemo, useState } from 'react';
import { Button } from './Button';
import { exactCount } from './format';
import { collapseTokens, jsonTokens, totalChars, type JsonToken } from './json-tokens';
import './common.css';

export interface JsonViewProps {
  readonly value: unknown;
  /** Accessible name of the listing, e.g. "Arguments". */
  readonly label?: string;
  /** Longer listings collapse to this many characters behind a "Show all" button (default 4,000). */
  readonly maxChars?: number;
}

export const DEFAULT_JSON_CHARS = 4000;

function Token({ token }: { readonly token: JsonToken }) {
  switch (token.kind) {
    case 'break':
      return '\n';
    case 'indent':
      return token.text;
    case 'punct':
      return <span className="sy-json__punct">{token.text}</span>;
    case 'number':
      return <span className="sy-json__number">{token.text}</span>;
    case 'literal':
      return <span className="sy-json__literal">{token.text}</span>;
    case 'chars':
      return <span className={`sy-json__${token.role}`}>{token.text}</span>;
    case 'marker':
      return (
        <>
          <span
            className={token.part.invisible ? 'sy-marker sy-marker--hidden' : 'sy-marker'}
            role="img"
            aria-label={token.part.label}
            title={token.part.label}
          >
            {token.part.symbol}
          </span>
          {token.part.lineBreak ? '\n' : null}
        </>
      );
  }
}

/**
 * Pretty JSON with everything visible (json-tokens.ts): newlines, tabs, edge spaces and hidden
 * characters inside strings as markers. A long listing collapses with a "Show all N characters"
 * control: nothing is cut without saying so.
 */
export function JsonView({ value, label, maxChars = DEFAULT_JSON_CHARS }: JsonViewProps) {
  const [expanded, setExpanded] = useState(false);
  const tokens = useMemo(() => jsonTokens(value), [value]);
  const total = totalChars(tokens);
  const { shown, hidden } = expanded
    ? { shown: tokens, hidden: 0 }
    : collapseTokens(tokens, maxChars);
  return (
    <div className="sy-json-view">
      <pre className="sy-json" aria-label={label} tabIndex={0}>
        {shown.map((token, index) => (
          <Token key={index} token={token} />
        ))}
        {hidden > 0 ? <span className="sy-json__more">…</span> : null}
      </pre>
      {total > maxChars ? (
        <p className="sy-collapse">
          {expanded ? null : (
            <span>
              Showing {exactCount(total - hidden)} of {exactCount(total)} characters.{' '}
            </span>
          )}
          <Button
            size="small"
            variant="quiet"
            onClick={() => {
              setExpanded(!expanded);
            }}
          >
            {expanded ? 'Show less' : `Show all ${exactCount(total)} characters`}
          </Button>
        </p>
      ) : null}
    </div>
  );
}
