import path from 'node:path';

/** How workspace folders are spelled and checked: the one spelling roots are compared in. */

/**
 * Whether `value` is absolute without depending on a current folder. On Windows `\x` and `C:x`
 * count as relative: they resolve against the current drive or folder, which for a host started
 * by the browser is the launcher's, not the user's.
 */
export function isFullyAbsolute(
  value: string,
  platform: NodeJS.Platform = process.platform,
): boolean {
  if (platform !== 'win32') return path.posix.isAbsolute(value);
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
