import type { ScannedJson } from './json-scan';
import type { JsonPath } from './json-format';
import type { ConfigWarning, ConfigWarningKind } from './load';

/**
 * Warnings about workspace files that point at a line, a column and a key, and the quoting of
 * repository text inside them: whatever a repository wrote reaches the user only escaped.
 */

/** Why a workspace warning was raised: the user tier's kinds plus the workspace's own. */
export type WorkspaceWarningKind =
  | ConfigWarningKind
  | 'invalid-root'
  | 'invalid-file'
  | 'unsupported-feature'
  | 'shadowed'
  | 'ignored-trust-claim';

/** A ConfigWarning whose kind may also be one of the workspace's own. */
export interface WorkspaceWarning extends Omit<ConfigWarning, 'kind'> {
  readonly kind: WorkspaceWarningKind;
}

/** Where a warning points: 1-based line and column, and the key path as people write it. */
export interface Position {
  readonly line: number;
  readonly column: number;
  readonly key: string;
}

/** Text from a repository or a caller, quoted with invisible characters escaped and capped. */
export function shownText(text: string): string {
  const capped = text.length > 200 ? `${text.slice(0, 200)}...` : text;
  return JSON.stringify(capped).replace(
    /[\p{C}\p{Zl}\p{Zp}]/gu,
    (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`,
  );
}

/** Offset of the value at `jsonPath` (or of its key), or of the nearest ancestor in the file. */
export function offsetOf(scanned: ScannedJson, jsonPath: JsonPath, onKey: boolean): number {
  for (let length = jsonPath.length; length >= 0; length--) {
    const location = scanned.locate(jsonPath.slice(0, length));
    if (location === undefined) continue;
    const wantKey = onKey || length < jsonPath.length;
    return wantKey && location.keyOffset !== undefined ? location.keyOffset : location.valueOffset;
  }
  return 0;
}

/** A warning at `at` in `file`; the message reads `file:line:column: key: detail`. */
export function locatedWarning(
  kind: WorkspaceWarningKind,
  file: string,
  at: Position,
  detail: string,
  server?: string,
): WorkspaceWarning {
  const key = at.key === '' ? '' : `${at.key}: `;
  return {
    kind,
    file,
    line: at.line,
    column: at.column,
    key: at.key,
    ...(server === undefined ? {} : { server }),
    message: `${file}:${at.line}:${at.column}: ${key}${detail}`,
  };
}

/** A warning about a whole file (or folder); line and column point at its start. */
export function fileWarning(
  kind: WorkspaceWarningKind,
  file: string,
  detail: string,
  at?: { line: number; column: number },
): WorkspaceWarning {
  if (at !== undefined) return locatedWarning(kind, file, { ...at, key: '' }, detail);
  return { kind, file, line: 1, column: 1, key: '', message: `${file}: ${detail}` };
}
