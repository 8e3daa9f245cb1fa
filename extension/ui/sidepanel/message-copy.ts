import type { TranscriptItem } from './transcript';

/**
 * Where the side panel puts "Copy message" and what it copies. One reply is everything the model
 * wrote between two user messages, often in pieces around its tool calls; it gets one button, on
 * its last piece, which copies the pieces' markdown as the model wrote it, a blank line between
 * them (a button under every piece would crowd the tool rows). A piece still streaming gets none
 * yet. Each user message copies its text as typed.
 */
export function messageCopies(items: readonly TranscriptItem[]): ReadonlyMap<string, string> {
  const copies = new Map<string, string>();
  let reply: { key: string; text: string; streaming: boolean }[] = [];
  const endReply = (): void => {
    const last = reply.at(-1);
    if (last !== undefined && !last.streaming) {
      copies.set(last.key, reply.map((piece) => piece.text).join('\n\n'));
    }
    reply = [];
  };
  for (const item of items) {
    if (item.kind === 'user') {
      endReply();
      copies.set(item.key, item.text);
    } else if (item.kind === 'assistant' && item.text.trim() !== '') {
      reply.push({ key: item.key, text: item.text, streaming: item.streaming });
    }
  }
  endReply();
  return copies;
}
