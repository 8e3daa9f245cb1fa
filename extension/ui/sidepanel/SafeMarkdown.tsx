import Markdown, { type Components } from 'react-markdown';
import remarkGfm from './gfm-parse';
import { ExternalLink } from '../common/ExternalLink';
import { markdownUrlTransform } from '../common/safe-link';
import { CodeBlock } from './CodeBlock';
import { codeBlockParts } from './code-block';

/**
 * The model's reply as markdown, safely: raw HTML is skipped (never parsed into elements), every
 * URL but an http(s) `href` is dropped (markdownUrlTransform), links open in a new tab on click,
 * and images are never loaded: their alt text is shown instead. GitHub's extensions (tables,
 * strikethrough, task lists, bare URLs, footnotes) go through the same rules: a bare URL is a
 * link only when it is http(s), a footnote's `#` link stays text. Code blocks get a language
 * label and a Copy button; tables scroll sideways inside the message. Only for the model's own
 * text; anything from a server or a page goes through UntrustedText.
 */

const remarkPlugins = [remarkGfm];

const components: Components = {
  a: ({ href, children }) =>
    href === undefined ? (
      <span className="sy-link-removed">{children}</span>
    ) : (
      <ExternalLink href={href}>{children}</ExternalLink>
    ),
  img: ({ alt }) => (
    <span className="sy-md-image" title="Images are not loaded">
      [image{alt === undefined || alt === '' ? '' : `: ${alt}`}]
    </span>
  ),
  pre: ({ node, children }) => <CodeBlock parts={codeBlockParts(node)}>{children}</CodeBlock>,
  // The fence's `language-<info>` class is the model's text: it is shown (sanitized) in the
  // label, never kept as a class.
  code: ({ children }) => <code>{children}</code>,
  table: ({ children }) => (
    // Scrolls sideways rather than widening the panel; focusable so the keyboard can scroll it.
    <div className="sy-md-table" role="group" aria-label="Table" tabIndex={0}>
      <table>{children}</table>
    </div>
  ),
  // Markdown makes only task-list checkboxes (raw HTML is skipped); anything else is dropped.
  input: ({ type, checked }) =>
    type === 'checkbox' ? (
      <input
        type="checkbox"
        checked={checked === true}
        disabled
        aria-label={checked === true ? 'Done' : 'Not done'}
      />
    ) : null,
};

export function SafeMarkdown({ text }: { readonly text: string }) {
  return (
    <div className="sy-markdown">
      <Markdown
        skipHtml
        remarkPlugins={remarkPlugins}
        urlTransform={markdownUrlTransform}
        components={components}
      >
        {text}
      </Markdown>
    </div>
  );
}
