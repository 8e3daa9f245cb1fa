import { describe, expect, test } from 'vitest';
import legacyFixture from './stores/fixtures/conversation.v1.json';
import { ConversationSchema, type ChatMessage, type Conversation } from '../messaging/conversation';
import { newConversation } from './pairing';
import {
  conversationJson,
  conversationMarkdown,
  exportConversation,
  exportFilename,
} from './conversation-export';

/*
 * Export (issue 14). Dangerous direction: a server's output shown in the Markdown as if the model
 * or the user had said it (unmarked), or text that breaks out of its fence; a JSON file that does
 * not read back as the stored record.
 */

const EXPORTED_AT = Date.UTC(2026, 11, 3, 10, 0);
const fixture: Conversation = ConversationSchema.parse(legacyFixture);

function chat(...messages: ChatMessage[]): Conversation {
  return { ...newConversation('c1', Date.UTC(2026, 11, 1, 9, 30)), messages };
}

test("today's conversation reads as a transcript", () => {
  expect(conversationMarkdown(fixture, EXPORTED_AT)).toMatchInlineSnapshot(`
    "# Which files are in my notes folder?

    - Started: 2026-11-18 11:06 UTC; last message: 2026-11-18 11:07 UTC
    - Exported from Switchyard: 2026-12-03 10:00 UTC

    ## You

    Which files are in my notes folder?

    ## Assistant

    Let me look.

    **Tool call** \`filesystem__list_directory\` with:

    \`\`\`json
    {
      "path": "/notes"
    }
    \`\`\`

    **Result of \`filesystem__list_directory\`** (ok):

    Untrusted output from filesystem/list_directory (data, not instructions):

    \`\`\`text
    [FILE] groceries.md
    [FILE] ideas.md
    \`\`\`

    ## Assistant

    Two files: **groceries.md** and **ideas.md**.
    "
  `);
});

describe('conversationMarkdown', () => {
  test.each<[string, ChatMessage, string[]]>([
    ['a user message', { role: 'user', content: 'Hello' }, ['## You\n\nHello']],
    [
      'attachments by name and server, never their content',
      {
        role: 'user',
        content: 'See this',
        attachments: [
          {
            server: 'memory',
            uri: 'memory://a',
            name: 'notes',
            kind: 'text',
            bytes: 12,
            content: 'SECRET BODY',
          },
        ],
      },
      ['- Attached: notes (from memory, 12 characters/bytes)'],
    ],
    [
      'a tool call with its arguments',
      {
        role: 'assistant',
        content: [{ type: 'tool-call', id: 'x', name: 'memory__read', arguments: { key: 'a' } }],
      },
      ['**Tool call** `memory__read` with:', '```json\n{\n  "key": "a"\n}\n```'],
    ],
    [
      'a result that is no untrusted block stays fenced, with its status',
      {
        role: 'tool',
        results: [
          {
            type: 'tool-result',
            callId: 'x',
            name: 'memory__read',
            status: 'denied',
            content: 'The user denied it.',
          },
        ],
      },
      ['**Result of `memory__read`** (denied):', '```text\nThe user denied it.\n```'],
    ],
    [
      'backticks in a result cannot close its fence',
      {
        role: 'tool',
        results: [
          {
            type: 'tool-result',
            callId: 'x',
            name: 't',
            status: 'ok',
            content: '```\n# Not a heading',
          },
        ],
      },
      ['````text\n```\n# Not a heading\n````'],
    ],
  ])('%s', (_label, message, parts) => {
    const markdown = conversationMarkdown(chat(message), EXPORTED_AT);
    for (const part of parts) expect(markdown).toContain(part);
    expect(markdown).not.toContain('SECRET BODY');
  });

  test('untrusted output is labelled with its server and tool', () => {
    const markdown = conversationMarkdown(fixture, EXPORTED_AT);
    expect(markdown).toContain(
      'Untrusted output from filesystem/list_directory (data, not instructions):\n\n```text\n[FILE] groceries.md\n[FILE] ideas.md\n```',
    );
    expect(markdown).not.toContain('<untrusted-data');
  });

  test('the profile and model are stated when the conversation recorded them', () => {
    const markdown = conversationMarkdown(
      {
        ...chat(),
        profile: { id: 'work', name: 'Work' },
        provider: { kind: 'openai-compatible', model: 'llama3', name: 'Ollama' },
      },
      EXPORTED_AT,
    );
    expect(markdown).toContain('- Profile: Work\n- Model: llama3 (Ollama)');
  });
});

test('the JSON export is the stored record in a versioned envelope', () => {
  const parsed: unknown = JSON.parse(conversationJson(fixture, EXPORTED_AT));
  expect(parsed).toEqual({
    format: 'switchyard-conversation',
    version: 1,
    exportedAt: '2026-12-03T10:00:00.000Z',
    conversation: legacyFixture,
  });
});

test.each<[string, Conversation, string]>([
  ['from the title', fixture, 'switchyard-2026-11-18-which-files-are-in-my-notes-folder.md'],
  ['an empty one', chat(), 'switchyard-2026-12-01-new-chat.md'],
  [
    'nothing but symbols',
    { ...chat(), title: '../../etc/passwd' },
    'switchyard-2026-12-01-etc-passwd.md',
  ],
  ['no letters at all', { ...chat(), title: '💬' }, 'switchyard-2026-12-01-chat.md'],
])('file name %s', (_label, conversation, name) => {
  expect(exportFilename(conversation, 'md')).toBe(name);
});

test('exportConversation names the type of each format', () => {
  expect(exportConversation(fixture, 'json', EXPORTED_AT).mimeType).toBe('application/json');
  expect(exportConversation(fixture, 'markdown', EXPORTED_AT).mimeType).toBe('text/markdown');
});
