import fs from 'node:fs';
import path from 'node:path';

/** The repository root (this file is test/invariants/source-files.ts). */
export const ROOT = path.resolve(import.meta.dirname, '../..');

/** Folders of shipped code: everything the host bundle and the extension are built from. */
export const SOURCE_FOLDERS = ['protocol', 'native-host', 'installers', 'extension'] as const;

const SKIPPED_DIRS = new Set(['node_modules', 'fixtures', 'testing']);

/**
 * Every shipped TypeScript source under `folders` (repository-relative, `/`-separated): tests,
 * test helpers (`testing/`) and fixtures aside.
 */
export function sourceFiles(folders: readonly string[] = SOURCE_FOLDERS): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(rel);
      } else if (/\.tsx?$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name)) {
        if (!entry.name.endsWith('.d.ts')) out.push(rel);
      }
    }
  };
  for (const folder of folders) walk(folder);
  return out.sort();
}
