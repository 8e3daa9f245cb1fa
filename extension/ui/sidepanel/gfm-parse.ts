import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
// remark-parse declares the processor data this plugin extends (its micromark and mdast lists).
import type {} from 'remark-parse';
import type { Processor } from 'unified';

/**
 * GitHub-flavoured markdown (tables, strikethrough, task lists, bare URLs, footnotes) for
 * reading only: what `remark-gfm` adds to the parser, without its serializer extensions, which
 * pull `mdast-util-to-markdown` into the bundle (7 KiB gzipped) for a panel that never writes
 * markdown back out (decision 0028). Same extensions, same defaults as `remark-gfm`.
 */
export default function gfmParse(this: Processor): void {
  const data = this.data();
  (data.micromarkExtensions ??= []).push(gfm());
  (data.fromMarkdownExtensions ??= []).push(gfmFromMarkdown());
}
