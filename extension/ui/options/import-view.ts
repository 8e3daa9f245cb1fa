import type {
  ImportAction,
  ImportClient,
  ImportEntryPreview,
  ImportLaunch,
  ImportSelection,
  ImportSourcePreview,
} from '../../../protocol/import';
import { assertNever } from '../../../protocol/guards';

/**
 * The options page's import preview (issue 5): per client, what importing each entry would do,
 * which entries can be ticked, and the `import/apply` selection the ticks make. Pure. Every string
 * in a preview came from another program's file: the components render it as text.
 */

/** A stable key for one entry of one source. */
export function entryKey(source: ImportClient, name: string): string {
  return `${source}\u0000${name}`;
}

/** The action in words, for the table's column. */
export function describeImportAction(entry: ImportEntryPreview): string {
  const action: ImportAction = entry.action;
  switch (action) {
    case 'add':
      return 'add';
    case 'same':
      return 'already configured';
    case 'conflict':
      return entry.suggestedName === null
        ? 'conflict: another server has this name'
        : `conflict: would be added as ${entry.suggestedName}`;
    case 'cannot-convert':
      return 'cannot convert';
    default:
      return assertNever(action, 'import action');
  }
}

/** How a remote server is reached, in words. */
const TRANSPORT_WORDS = {
  'streamable-http': 'Streamable HTTP',
  sse: 'SSE',
  auto: 'Streamable HTTP, else SSE',
} as const;

/**
 * The line under a remote server's url: its transport and the names of the headers it sends
 * (the host never sends their values). Null for a local server.
 */
export function remoteDetail(launch: ImportLaunch): string | null {
  const { remote } = launch;
  if (remote === undefined) return null;
  const transport = TRANSPORT_WORDS[remote.transport];
  return remote.headerNames.length === 0
    ? transport
    : `${transport}; headers: ${remote.headerNames.join(', ')}`;
}

/** Whether an entry can be ticked: a new server, or a conflict with a free name to use. */
export function isSelectable(entry: ImportEntryPreview): boolean {
  return (
    entry.digest !== null &&
    (entry.action === 'add' || (entry.action === 'conflict' && entry.suggestedName !== null))
  );
}

/** What is ticked when a preview arrives: every new server; conflicts only when the user asks. */
export function defaultSelection(sources: readonly ImportSourcePreview[]): Set<string> {
  const keys = new Set<string>();
  for (const source of sources) {
    for (const entry of source.entries) {
      if (entry.action === 'add' && isSelectable(entry)) {
        keys.add(entryKey(source.source, entry.name));
      }
    }
  }
  return keys;
}

/** The ticked entries as `import/apply` selections, each quoting the digest the preview showed. */
export function selectionsOf(
  sources: readonly ImportSourcePreview[],
  ticked: ReadonlySet<string>,
): ImportSelection[] {
  const selections: ImportSelection[] = [];
  for (const source of sources) {
    for (const entry of source.entries) {
      if (!ticked.has(entryKey(source.source, entry.name)) || !isSelectable(entry)) continue;
      if (entry.digest === null) continue;
      selections.push({
        source: source.source,
        name: entry.name,
        digest: entry.digest,
        ...(entry.action === 'conflict' && entry.suggestedName !== null
          ? { as: entry.suggestedName }
          : {}),
      });
    }
  }
  return selections;
}

/** One line about a source for its heading: "3 to add, 1 conflict, 1 cannot be converted". */
export function sourceSummary(source: ImportSourcePreview): string {
  switch (source.state) {
    case 'missing':
      return 'No configuration file found.';
    case 'error':
      return source.error ?? 'The file could not be read.';
    case 'found':
      break;
  }
  if (source.entries.length === 0) return 'No servers in this file.';
  const count = (action: ImportAction) =>
    source.entries.filter((entry) => entry.action === action).length;
  const parts: string[] = [];
  const add = count('add');
  const same = count('same');
  const conflict = count('conflict');
  const cannot = count('cannot-convert');
  if (add > 0) parts.push(`${add} to add`);
  if (same > 0) parts.push(`${same} already configured`);
  if (conflict > 0) parts.push(`${conflict} ${conflict === 1 ? 'conflict' : 'conflicts'}`);
  if (cannot > 0) parts.push(`${cannot} cannot be converted`);
  return `${parts.join(', ')}.`;
}
