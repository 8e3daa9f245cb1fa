import type { ImportEntryPreview, ImportLaunch, ImportSourcePreview } from '../../protocol/import';
import { formatCommandLine } from '../../protocol/argv';
import { capText } from '../../protocol/untrusted/cap';
import { sanitizeText } from '../../protocol/untrusted/sanitize';
import type { PlanItem, PlanSource } from './plan';
import { displayUrl } from '../../protocol/remote-url';
import { isRemoteImport, type ImportedEntry } from './types';

/**
 * The plan as `import/preview` sends it and the CLI prints it. Everything in it came from another
 * program's file, so every string is treated as untrusted text (design D9): sanitized (control,
 * bidi and invisible characters made visible, on one line) and capped. Env and header values are
 * never shown, only their names: client configs often hold tokens written out in full.
 */

/** Longest command line shown; the rest is cut with a visible marker. */
export const MAX_COMMAND_LINE_CHARS = 2_000;
/** Longest reason, note or warning shown. */
const MAX_TEXT_CHARS = 1_000;

/** C0 and C1 controls and DEL, as they would reach the program. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Foreign text for one line of a card or a terminal. A control character becomes a visible
 * marker like ⟦U+001B⟧ rather than being dropped (the program would receive it); the sanitizer
 * then marks bidi and invisible characters the same way (as on launch consent cards).
 */
export function shown(text: string, max: number = MAX_TEXT_CHARS): string {
  const visible = text.replace(
    CONTROL,
    (c) => `⟦U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟧`,
  );
  return capText(sanitizeText(visible, { keepNewlines: false, keepTabs: false }), max).text;
}

/** Program and arguments on one line, quoted as the popup's command-line field reads them. */
export function commandLine(command: string, args: readonly string[]): string {
  return formatCommandLine([command, ...args]);
}

function launchPreview(entry: ImportedEntry): ImportLaunch {
  if (isRemoteImport(entry)) {
    // A credential in the query is masked in the preview; the entry is written as it was.
    const url = shown(displayUrl(entry.remote.url), MAX_COMMAND_LINE_CHARS);
    return {
      commandLine: url,
      envKeys: [],
      cwd: null,
      remote: {
        url,
        transport: entry.remote.transport,
        headerNames: Object.keys(entry.remote.headers).map((name) => shown(name)),
      },
    };
  }
  return {
    commandLine: shown(commandLine(entry.command, entry.args), MAX_COMMAND_LINE_CHARS),
    envKeys: Object.keys(entry.env).map((key) => shown(key)),
    cwd: entry.cwd === undefined ? null : shown(entry.cwd),
  };
}

function itemPreview(item: PlanItem): ImportEntryPreview {
  const base = { name: shown(item.name) };
  switch (item.action) {
    case 'add':
      return {
        ...base,
        action: 'add',
        launch: launchPreview(item.entry),
        disabled: item.entry.disabled === true,
        reason: null,
        existing: null,
        suggestedName: null,
        notes: item.notes.map((note) => shown(note)),
        digest: item.digest,
      };
    case 'same':
      return {
        ...base,
        action: 'same',
        launch: launchPreview(item.entry),
        disabled: item.entry.disabled === true,
        reason: shown(item.reason),
        existing: launchPreview(item.existing),
        suggestedName: null,
        notes: item.notes.map((note) => shown(note)),
        digest: null,
      };
    case 'conflict':
      return {
        ...base,
        action: 'conflict',
        launch: launchPreview(item.entry),
        disabled: item.entry.disabled === true,
        reason: shown(item.reason),
        existing: item.existing === undefined ? null : launchPreview(item.existing),
        suggestedName: shown(item.suggestedName),
        notes: item.notes.map((note) => shown(note)),
        digest: item.digest,
      };
    case 'cannot-convert':
      return {
        ...base,
        action: 'cannot-convert',
        launch: null,
        disabled: false,
        reason: shown(item.reason),
        existing: null,
        suggestedName: null,
        notes: [],
        digest: null,
      };
  }
}

export function sourcePreview(source: PlanSource): ImportSourcePreview {
  return {
    source: source.client,
    label: source.label,
    path: shown(source.file),
    state: source.state,
    error: source.error === undefined ? null : shown(source.error.message),
    entries: source.items.map(itemPreview),
    warnings: source.warnings.map((warning) => shown(warning)),
  };
}
