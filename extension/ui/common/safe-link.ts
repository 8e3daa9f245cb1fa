/**
 * The one rule for links in text Switchyard did not write (the model's markdown, anything a page
 * or server says): only absolute http(s) URLs without credentials become links; everything else
 * is shown as plain text. The URL is parsed the way the browser will parse it, so whitespace,
 * letter case and control-character tricks (`JaVa\tScRiPt:`) land on the same verdict the browser
 * would reach. Links open in a new tab on click, never in the panel.
 */

export interface SafeLink {
  /** The normalized URL to open. */
  readonly href: string;
  /** The host as the browser resolves it, IDN in punycode (`xn--...`): shows look-alike domains. */
  readonly host: string;
}

/** Longer URLs are shown as text: no legitimate link in a chat needs more. */
export const MAX_LINK_CHARS = 4096;

/** A safe link for `raw`, or null when it must be shown as text. */
export function safeLink(raw: string): SafeLink | null {
  if (raw.length > MAX_LINK_CHARS) return null;
  let url: URL;
  try {
    // No base: relative and protocol-relative URLs throw, so they can never resolve against the
    // extension's own origin.
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // `https://bank.example@evil.example` reads as the bank and goes to evil.example.
  if (url.username !== '' || url.password !== '') return null;
  if (url.hostname === '') return null;
  return { href: url.href, host: url.host };
}

/**
 * Whether a link should show its real host next to its text: always, unless the text is exactly
 * the URL it opens (an autolink of an ASCII URL). `[bank.example](https://evil.example)` and
 * `https://exаmple.com` (Cyrillic а) both show their real host.
 */
export function showsHost(text: string | null, link: SafeLink): boolean {
  if (text === null) return true;
  const trimmed = text.trim();
  return trimmed !== link.href && `${trimmed}/` !== link.href;
}

/** react-markdown's `urlTransform`: keeps safe `href`s, drops every other URL (images included). */
export function markdownUrlTransform(url: string, key: string): string | null {
  if (key !== 'href') return null;
  return safeLink(url)?.href ?? null;
}
