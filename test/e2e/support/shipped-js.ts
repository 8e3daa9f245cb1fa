import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The JavaScript a built extension ships, each .js file gzipped on its own (as a store download
 * and a cold page load pay for it): the bench reports it, test/e2e/bundle-size.spec.ts holds the
 * budget (issue 14).
 */

export interface ShippedFile {
  /** Relative to the extension's directory, `/`-separated. */
  readonly path: string;
  readonly rawBytes: number;
  readonly gzipBytes: number;
}

export interface ShippedJs {
  readonly files: number;
  readonly rawBytes: number;
  readonly gzipBytes: number;
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return jsFiles(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

/** Every .js file of the built extension in `dir`, largest (gzipped) first. */
export function shippedJsFiles(dir: string): ShippedFile[] {
  return jsFiles(dir)
    .map((file) => {
      const bytes = readFileSync(file);
      return {
        path: relative(dir, file).split('\\').join('/'),
        rawBytes: bytes.length,
        gzipBytes: gzipSync(bytes).length,
      };
    })
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
}

/** The totals of shippedJsFiles. */
export function measureShippedJs(dir: string): ShippedJs {
  const files = shippedJsFiles(dir);
  return {
    files: files.length,
    rawBytes: files.reduce((sum, f) => sum + f.rawBytes, 0),
    gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0),
  };
}
