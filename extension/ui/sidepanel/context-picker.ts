import type { Resource } from '../../../protocol/resources';

/** The context picker's rules (issue 12), pure so they are tested without a DOM. */

/** Most resources the picker shows at once; searching narrows the rest. */
export const MAX_SHOWN = 200;

/**
 * The resources matching `query` (every word, in any order, case-insensitive, against the name,
 * title, URI, description and server), by server then name, at most MAX_SHOWN.
 */
export function filterResources(resources: readonly Resource[], query: string): Resource[] {
  return resources
    .filter((r) => matchesEvery([r.name, r.title, r.uri, r.description, r.server], query))
    .sort((a, b) => a.server.localeCompare(b.server) || a.name.localeCompare(b.name))
    .slice(0, MAX_SHOWN);
}

/** Whether every word of `query` is in one of `parts`, case-insensitively (the pickers' search). */
export function matchesEvery(parts: readonly (string | undefined)[], query: string): boolean {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  const haystack = parts
    .filter((part) => part !== undefined)
    .join('\n')
    .toLowerCase();
  return words.every((word) => haystack.includes(word));
}

function size(bytes: number): string {
  if (bytes >= 1_048_576) return `${(bytes / 1_048_576).toFixed(1)} MB`;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}

/** "server · uri · type · size": where a resource comes from and what it is. */
export function resourceDetail(resource: Resource): string {
  return [
    resource.server,
    resource.uri,
    resource.mimeType,
    resource.size === undefined ? undefined : size(resource.size),
  ]
    .filter((part) => part !== undefined)
    .join(' · ');
}

/**
 * Whether the `@` just typed at `caret` starts a mention: at the start of the text or after
 * whitespace, so an email address does not open the picker.
 */
export function startsMention(text: string, caret: number): boolean {
  if (caret < 1 || text[caret - 1] !== '@') return false;
  return caret === 1 || /\s/.test(text[caret - 2] ?? '');
}
