import path from 'node:path';

/** How workspace folders are spelled and checked: the one spelling roots are compared in. */

/** Absolute without depending on a current drive or folder (on Windows `\x` and `C:x` are not). */
export function isFullyAbsolute(value: string): boolean {
  if (process.platform !== 'win32') return path.isAbsolute(value);
  return /^[A-Za-z]:[\\/]/.test(value) || /^[\\/]{2}[^\\/]/.test(value);
}

/**
 * A folder spelled the way workspace roots are (`WorkspaceConfig.root`): normalized, without
 * trailing separators, a bare root kept. Compare folders in this spelling.
 */
export function normalizeFolder(value: string): string {
  const normalized = path.normalize(value);
  const root = path.parse(normalized).root;
  return normalized.length > root.length ? normalized.replace(/[\\/]+$/, '') : normalized;
}
