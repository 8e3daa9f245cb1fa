import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

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

/** Relative imports of one file, resolved to repository-relative files. */
export function importsOf(file: string, exists: (rel: string) => boolean): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const found = ts.preProcessFile(text, true, true).importedFiles.map((ref) => ref.fileName);
  const resolved: string[] = [];
  for (const spec of found) {
    if (!spec.startsWith('.')) continue;
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    const target = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, base].find(exists);
    if (target !== undefined) resolved.push(target);
  }
  return resolved;
}
