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
