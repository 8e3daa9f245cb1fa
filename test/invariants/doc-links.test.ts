import fs from 'node:fs';
import path from 'node:path';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { ROOT } from './source-files';

/**
 * Every relative link and image in the README and docs/ goes somewhere: the file exists and, when
 * the link names an anchor, a heading of that file makes it (as GitHub spells anchors) or an
 * `<a id="…">` does. A renamed heading or a moved file otherwise leaves a link that looks fine
 * and lands on the top of a page.
 */

interface MdNode {
  readonly type: string;
  readonly value?: string;
  readonly url?: string;
  readonly depth?: number;
  readonly children?: readonly MdNode[];
  readonly position?: { readonly start: { readonly line: number } };
}

function markdownFiles(): string[] {
  const out = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.md')) out.push(rel);
    }
  };
  walk('docs');
  return out.sort();
}

const parser = unified().use(remarkParse);

function parse(file: string): MdNode {
  return parser.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));
}

function walk(node: MdNode, visit: (node: MdNode) => void): void {
  visit(node);
  for (const child of node.children ?? []) walk(child, visit);
}

function textOf(node: MdNode): string {
  if (node.value !== undefined && node.type !== 'html') return node.value;
  return (node.children ?? []).map(textOf).join('');
}

/**
 * GitHub's anchor for a heading: lower case, everything but letters, digits, spaces, `-` and `_`
 * dropped, each space a `-`. (A repeated heading is numbered by anchorsOf.)
 */
function slugOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

const anchorCache = new Map<string, ReadonlySet<string>>();

/** The anchors a file offers: its headings' slugs (a repeated one numbered), and `<a id>`s. */
function anchorsOf(file: string): ReadonlySet<string> {
  const cached = anchorCache.get(file);
  if (cached !== undefined) return cached;
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  walk(parse(file), (node) => {
    if (node.type === 'heading') {
      const slug = slugOf(textOf(node));
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    if (node.type === 'html' && node.value !== undefined) {
      for (const match of node.value.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) {
        if (match[1] !== undefined) anchors.add(match[1]);
      }
    }
  });
  anchorCache.set(file, anchors);
  return anchors;
}

interface Link {
  readonly from: string;
  readonly line: number;
  readonly url: string;
}

function relativeLinks(file: string): Link[] {
  const links: Link[] = [];
  walk(parse(file), (node) => {
    const line = node.position?.start.line ?? 0;
    const urls =
      node.type === 'link' || node.type === 'definition' || node.type === 'image'
        ? [node.url ?? '']
        : node.type === 'html'
          ? [...(node.value ?? '').matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '')
          : [];
    for (const url of urls) {
      if (url === '' || /^[a-z][a-z0-9+.-]*:/i.test(url)) continue; // https:, mailto:, data:
      links.push({ from: file, line, url });
    }
  });
  return links;
}

/** Why `link` goes nowhere, or null when it lands. */
function problemOf(link: Link): string | null {
  const [target = '', anchor] = link.url.split('#', 2);
  const file =
    target === ''
      ? link.from
      : path.posix.normalize(path.posix.join(path.posix.dirname(link.from), target));
  if (!fs.existsSync(path.join(ROOT, file))) return `no file ${file}`;
  if (anchor === undefined || anchor === '' || !file.endsWith('.md')) return null;
  return anchorsOf(file).has(decodeURIComponent(anchor))
    ? null
    : `no heading #${anchor} in ${file}`;
}

describe('links in the README and docs/', () => {
  it('spells anchors as GitHub does', () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ['`apps/read`', 'appsread'],
      ['Error reasons', 'error-reasons'],
      [
        'What each gate promises (and what it does not)',
        'what-each-gate-promises-and-what-it-does-not',
      ],
      ['0021. Minified tool schemas', '0021-minified-tool-schemas'],
      ['host → browser', 'host--browser'],
      ['snake_case and-dashes', 'snake_case-and-dashes'],
    ];
    for (const [heading, slug] of cases) {
      const node = parser.parse(`## ${heading}\n`) as MdNode;
      const first = node.children?.[0];
      expect(first === undefined ? '' : slugOf(textOf(first)), heading).toBe(slug);
    }
  });

  // It parses every Markdown file (docs/protocol.md alone is over 4,000 lines): about 2 s on a
  // quiet machine, past vitest's default 5 s on a busy one. A bound on a hang, not a figure.
  it('go to a file that exists and a heading it has', { timeout: 60_000 }, () => {
    const broken = markdownFiles()
      .flatMap(relativeLinks)
      .flatMap((link) => {
        const problem = problemOf(link);
        return problem === null ? [] : [`${link.from}:${link.line} ${link.url}: ${problem}`];
      });
    expect(broken).toEqual([]);
  });
});
