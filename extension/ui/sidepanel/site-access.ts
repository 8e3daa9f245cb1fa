/**
 * Which site the side panel may offer to let Switchyard read without a click on its toolbar
 * button (the optional host permission, manifest `optional_host_permissions`): web pages only.
 */
export function siteAccessPattern(url: string | null): { origin: string; pattern: string } | null {
  if (url === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  return { origin: parsed.host, pattern: `${parsed.protocol}//${parsed.hostname}/*` };
}

/** The browser's answer about access to one site pattern. */
export interface SiteGrant {
  readonly pattern: string;
  readonly granted: boolean;
}

/**
 * Whether `pattern` is known to be granted: an answer counts only for the pattern it was given
 * for, so after a tab switch (or a prompt answered after one) the panel never shows, or hides,
 * the offer for one site on the strength of another site's answer. Null: not known yet.
 */
export function grantedFor(known: SiteGrant | null, pattern: string | null): boolean | null {
  return known !== null && known.pattern === pattern ? known.granted : null;
}
