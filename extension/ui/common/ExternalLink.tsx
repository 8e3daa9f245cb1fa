import type { ReactNode } from 'react';
import { browser } from 'wxt/browser';
import { safeLink, showsHost } from './safe-link';
import './common.css';

export interface ExternalLinkProps {
  readonly href: string;
  readonly children?: ReactNode;
}

/**
 * A link to an http(s) page, opened in a new tab on click (never in the panel). Any other URL is
 * shown as its text only. The real host is shown next to text that differs from the URL, so
 * `[your bank](https://evil.example)` and look-alike domains give themselves away.
 */
export function ExternalLink({ href, children }: ExternalLinkProps) {
  const link = safeLink(href);
  const content = children ?? href;
  if (link === null) return <span className="sy-link-removed">{content}</span>;
  const text = typeof content === 'string' ? content : null;
  return (
    <>
      <a
        className="sy-link"
        href={link.href}
        target="_blank"
        rel="noopener noreferrer"
        title={link.href}
        onClick={(event) => {
          event.preventDefault();
          void browser.tabs.create({ url: link.href });
        }}
      >
        {content}
      </a>
      {showsHost(text, link) ? <span className="sy-link-host"> ({link.host})</span> : null}
    </>
  );
}
