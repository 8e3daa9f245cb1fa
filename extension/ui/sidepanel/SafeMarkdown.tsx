import Markdown, { type Components } from 'react-markdown';
import { ExternalLink } from '../common/ExternalLink';
import { markdownUrlTransform } from '../common/safe-link';

/**
 * The model's reply as markdown, safely: raw HTML is skipped (never parsed into elements), every
 * URL but an http(s) `href` is dropped (markdownUrlTransform), links open in a new tab on click,
 * and images are never loaded: their alt text is shown instead. Only for the model's own text;
 * anything from a server or a page goes through UntrustedText.
 */

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
};

export function SafeMarkdown({ text }: { readonly text: string }) {
  return (
    <div className="sy-markdown">
      <Markdown skipHtml urlTransform={markdownUrlTransform} components={components}>
        {text}
      </Markdown>
    </div>
  );
}
