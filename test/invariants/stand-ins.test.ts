import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { STAND_INS } from '../../wxt.config';
import { ROOT, importsOf } from './source-files';

// The extension's build replaces packages the AI SDK imports but Switchyard never runs with
// small modules of its own (decision 0028). Dangerous direction: an upgrade of `ai` that starts
// using one more name, or a new importer, so the stand-in answers for code it does not know; or
// the alias quietly going away, so the package is back in the bundle (the e2e bundle-size spec
// also checks the built worker for the gateway's URL).

const NODE_MODULES = path.join(ROOT, 'node_modules');

interface PackageJson {
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

function readPackage(dir: string): PackageJson {
  return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageJson;
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(file);
    return /\.m?js$/u.test(entry.name) ? [file] : [];
  });
}

/** The extension's runtime packages that declare `name` as a dependency of their own. */
function importersOf(name: string): string[] {
  const shipped = Object.keys(readPackage(ROOT).dependencies ?? {});
  return shipped.filter((dep) => {
    const pkg = readPackage(path.join(NODE_MODULES, dep));
    return name in { ...pkg.dependencies, ...pkg.peerDependencies };
  });
}

/**
 * Every name the ESM files under `dir` import or re-export from `name` (`*` for a namespace
 * import, `default` for a default one), and any subpath of it they reach.
 */
export function namesImported(source: string, name: string): string[] {
  const quoted = name.replace(/[/.]/gu, '\\$&');
  const from = `from\\s*["'](${quoted}(?:/[^"']*)?)["']`;
  const names = new Set<string>();
  for (const match of source.matchAll(
    new RegExp(`(?:import|export)\\s*([^;]*?)\\s*${from}`, 'gu'),
  )) {
    const [, clause = '', specifier = ''] = match;
    if (specifier !== name) names.add(`subpath ${specifier}`);
    const braces = /\{([^}]*)\}/u.exec(clause)?.[1];
    if (/\*/u.test(clause.replace(/\{[^}]*\}/u, ''))) names.add('*');
    const outside = clause.replace(/\{[^}]*\}/u, '').replace(/\*\s*as\s*[\w$]+/u, '');
    if (/[\w$]/u.test(outside.replace(/^type\b/u, ''))) names.add('default');
    for (const part of braces?.split(',') ?? []) {
      const imported = part
        .trim()
        .replace(/^type\s+/u, '')
        .split(/\s+as\s+/u)[0];
      if (imported !== undefined && imported !== '') names.add(imported);
    }
  }
  return [...names].sort();
}

describe('namesImported', () => {
  test.each([
    ['import { a, b as c } from "p";', ['a', 'b']],
    ['import{a as b,c}from"p";', ['a', 'c']],
    ['export { a as b } from "p";', ['a']],
    ['import * as ns from "p";', ['*']],
    ['import p from "p";', ['default']],
    ['import p, { a } from "p";', ['a', 'default']],
    ['import { a } from "p/sub";', ['a', 'subpath p/sub']],
    ['import { a } from "pq";', []],
  ])('%s', (source, expected) => {
    expect(namesImported(source, 'p')).toEqual(expected);
  });
});

describe.each(Object.entries(STAND_INS))('the stand-in for %s', (name, file) => {
  const standIn = path.join(ROOT, file);

  test('is imported only by packages whose use of it the stand-in was written for', () => {
    // A new importer: read what it does with the package before adding it here.
    expect(importersOf(name)).toEqual(['ai']);
  });

  test('exports every name its importers use, and they reach no subpath', async () => {
    const used = new Set(
      importersOf(name).flatMap((dep) =>
        filesUnder(path.join(NODE_MODULES, dep, 'dist')).flatMap((f) =>
          namesImported(fs.readFileSync(f, 'utf8'), name),
        ),
      ),
    );
    expect(used.size).toBeGreaterThan(0);
    const exported = Object.keys((await import(standIn)) as Record<string, unknown>);
    expect([...used].filter((n) => !exported.includes(n))).toEqual([]);
  });

  test('imports nothing, so it cannot bring code back into the bundle', () => {
    expect(
      importsOf(file.replace(/^\.\//u, ''), (rel) => fs.existsSync(path.join(ROOT, rel))),
    ).toEqual([]);
    expect(fs.readFileSync(standIn, 'utf8')).not.toMatch(/^\s*import\b/mu);
  });
});

describe('the MCP Apps sandbox frame', () => {
  // extension/entrypoints/app-frame.sandbox is built on its own and shares no chunk with the
  // pages: a package it imports (zod was 26 KiB gzipped there) ships a second time.
  test('imports no package, directly or through the files it imports', () => {
    const exists = (rel: string): boolean => fs.existsSync(path.join(ROOT, rel));
    const seen = new Set<string>();
    const todo = ['extension/entrypoints/app-frame.sandbox/main.ts'];
    const packages: string[] = [];
    for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
      if (seen.has(file)) continue;
      seen.add(file);
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const match of text.matchAll(/^import\s[^;]*?from\s*'([^.'][^']*)'/gmu)) {
        packages.push(`${file}: ${match[1] ?? ''}`);
      }
      todo.push(...importsOf(file, exists));
    }
    expect(seen.size).toBeGreaterThan(1);
    expect(packages).toEqual([]);
  });
});
