import { unwrapUntrusted } from '../../protocol/untrusted/block';
import type {
  ChatMessage,
  Conversation,
  ConversationModel,
  ToolResultPart,
} from '../messaging/conversation';
import type { HistoryExport } from '../messaging/history';
import { providerOf, titleOf } from './stores/conversation-index';

/**
 * A conversation exported (issue 14): Markdown for reading (who said what, each tool call with its
 * arguments and result, text from outside marked untrusted) and JSON for keeping (the stored
 * record, with the export format's own version).
 */

export const EXPORT_FORMAT = 'switchyard-conversation';
export const EXPORT_VERSION = 1;

/** A fence longer than any run of backticks in `text`, so the text cannot close it. */
function fenced(text: string, info = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${info}\n${text}\n${fence}`;
}

function isoMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const OPENING =
  /(?:^|\n)<untrusted-data id="([0-9a-f]{16})" source="[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+">\n/g;

/** A result's text with each well-formed untrusted block shown as a labelled quote. */
function resultMarkdown(content: string): string {
  const parts: string[] = [];
  let cursor = 0;
  OPENING.lastIndex = 0;
  for (let match = OPENING.exec(content); match !== null; match = OPENING.exec(content)) {
    const start = match[0].startsWith('\n') ? match.index + 1 : match.index;
    const closing = `\n</untrusted-data id="${match[1] ?? ''}">`;
    const closeAt = content.indexOf(closing, start);
    const block =
      closeAt === -1 ? undefined : unwrapUntrusted(content.slice(start, closeAt + closing.length));
    if (block === undefined || start < cursor) continue;
    const before = content.slice(cursor, start).trim();
    if (before !== '') parts.push(fenced(before, 'text'));
    parts.push(
      `Untrusted output from ${block.server}/${block.tool} (data, not instructions):\n\n` +
        fenced(block.payload, 'text'),
    );
    cursor = closeAt + closing.length;
    OPENING.lastIndex = cursor;
  }
  const rest = content.slice(cursor).trim();
  if (rest !== '') parts.push(fenced(rest, 'text'));
  return parts.join('\n\n');
}

function resultLine(result: ToolResultPart): string {
  const server = result.app === undefined ? '' : ` on ${result.app.server}`;
  return `**Result of \`${result.name}\`${server}** (${result.status}):\n\n${resultMarkdown(result.content)}`;
}

function messageMarkdown(message: ChatMessage): string {
  switch (message.role) {
    case 'user': {
      const attached = (message.attachments ?? []).map(
        (a) => `- Attached: ${a.name || a.uri} (from ${a.server}, ${a.bytes} characters/bytes)`,
      );
      return [
        '## You',
        message.content,
        ...(attached.length > 0 ? [attached.join('\n')] : []),
      ].join('\n\n');
    }
    case 'assistant': {
      const parts = message.content.map((part) =>
        part.type === 'text'
          ? part.text
          : `**Tool call** \`${part.name}\` with:\n\n${fenced(JSON.stringify(part.arguments, null, 2), 'json')}`,
      );
      return ['## Assistant', ...parts].join('\n\n');
    }
    case 'tool':
      return message.results.map(resultLine).join('\n\n');
  }
}

function modelLine(provider: ConversationModel | undefined): string[] {
  return provider === undefined
    ? []
    : [`- Model: ${provider.model} (${provider.name ?? provider.kind})`];
}

/** A readable transcript: a heading per turn, tool calls and results quoted in fences. */
export function conversationMarkdown(conversation: Conversation, exportedAt: number): string {
  const about = [
    `- Started: ${isoMinute(conversation.createdAt)}; last message: ${isoMinute(conversation.updatedAt)}`,
    ...(conversation.profile === undefined ? [] : [`- Profile: ${conversation.profile.name}`]),
    ...modelLine(providerOf(conversation)),
    `- Exported from Switchyard: ${isoMinute(exportedAt)}`,
  ];
  const body = conversation.messages.map(messageMarkdown);
  return [`# ${titleOf(conversation)}`, about.join('\n'), ...body].join('\n\n') + '\n';
}

/** The stored record inside a versioned envelope. */
export function conversationJson(conversation: Conversation, exportedAt: number): string {
  const envelope = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date(exportedAt).toISOString(),
    conversation,
  };
  return `${JSON.stringify(envelope, null, 2)}\n`;
}

/** A file name from the title: letters, digits and dashes, never empty. */
export function exportFilename(conversation: Conversation, extension: 'md' | 'json'): string {
  const slug = titleOf(conversation)
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  const day = new Date(conversation.createdAt).toISOString().slice(0, 10);
  return `switchyard-${day}-${slug === '' ? 'chat' : slug}.${extension}`;
}

export function exportConversation(
  conversation: Conversation,
  format: 'markdown' | 'json',
  exportedAt: number,
): HistoryExport {
  return format === 'markdown'
    ? {
        filename: exportFilename(conversation, 'md'),
        mimeType: 'text/markdown',
        text: conversationMarkdown(conversation, exportedAt),
      }
    : {
        filename: exportFilename(conversation, 'json'),
        mimeType: 'application/json',
        text: conversationJson(conversation, exportedAt),
      };
}
