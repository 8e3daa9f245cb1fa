import { unwrapUntrusted } from '../../../protocol/untrusted/block';

/**
 * Splits what the model read for a tool call into the untrusted-data blocks the host and the
 * worker wrapped around outside text (protocol/untrusted-block.ts) and the text between them, so
 * the panel can label each payload with its source instead of showing the wrapper lines. Only
 * well-formed blocks are taken apart (unwrapUntrusted checks the id in both lines); anything else
 * stays as it is, and all of it is shown as plain text either way.
 */

export type ResultSegment =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'untrusted';
      readonly server: string;
      readonly tool: string;
      readonly payload: string;
    };

const OPENING =
  /(?:^|\n)<untrusted-data id="([0-9a-f]{16})" source="[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+">\n/g;

function pushText(segments: ResultSegment[], text: string): void {
  const trimmed = text.replace(/^\n+|\n+$/g, '');
  if (trimmed !== '') segments.push({ kind: 'text', text: trimmed });
}

export function splitUntrustedBlocks(content: string): ResultSegment[] {
  const segments: ResultSegment[] = [];
  let cursor = 0;
  OPENING.lastIndex = 0;
  for (let match = OPENING.exec(content); match !== null; match = OPENING.exec(content)) {
    const id = match[1] ?? '';
    const start = match[0].startsWith('\n') ? match.index + 1 : match.index;
    if (start < cursor) continue;
    const closing = `\n</untrusted-data id="${id}">`;
    const closeAt = content.indexOf(closing, start);
    if (closeAt === -1) continue;
    const end = closeAt + closing.length;
    const block = unwrapUntrusted(content.slice(start, end));
    if (block === undefined) continue;
    pushText(segments, content.slice(cursor, start));
    segments.push({
      kind: 'untrusted',
      server: block.server,
      tool: block.tool,
      payload: block.payload,
    });
    cursor = end;
    OPENING.lastIndex = end;
  }
  pushText(segments, content.slice(cursor));
  return segments;
}
