import type { ReactNode } from 'react';
import type { CodeBlockParts } from './code-block';
import { CopyButton } from './CopyButton';

/**
 * A fenced code block of the model's reply: a bar with the language (plain text, from
 * codeLanguage) and a Copy button, above the code, which scrolls sideways on its own.
 */
export function CodeBlock({
  parts,
  children,
}: {
  readonly parts: CodeBlockParts;
  readonly children: ReactNode;
}) {
  return (
    <div className="sy-code">
      <div className="sy-code__bar">
        {parts.language === null ? null : (
          <span className="sy-code__language">{parts.language}</span>
        )}
        <CopyButton text={parts.code} label="Copy code" />
      </div>
      {/* Focusable so the keyboard can scroll a long line (axe: scrollable-region-focusable). */}
      <pre tabIndex={0}>{children}</pre>
    </div>
  );
}
