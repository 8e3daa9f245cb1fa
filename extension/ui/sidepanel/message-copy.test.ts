import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { chatReducer, initialChatState, type ChatState } from './chat-state';
import { messageCopies } from './message-copy';
import { conversation, snapshot } from './test-fixtures';
import { Transcript } from './Transcript';
import type { TranscriptItem } from './transcript';

/**
 * The per-message Copy buttons: where they are and what they copy. Dangerous direction: a
 * button that copies less (or other text) than the reply it sits under.
 */

const user = (key: string, text: string): TranscriptItem => ({
  kind: 'user',
  key,
  index: 0,
  text,
  attachments: [],
  images: [],
  files: [],
});
const assistant = (key: string, text: string, streaming = false): TranscriptItem => ({
  kind: 'assistant',
  key,
  text,
  streaming,
});
const tool = (key: string): TranscriptItem => ({
  kind: 'tool',
  key,
  callId: key,
  name: 'fs__read',
  arguments: {},
  status: 'ok',
  result: 'data',
  app: null,
  images: [],
  progress: null,
  cancelling: false,
});

describe('messageCopies', () => {
  test.each<[string, TranscriptItem[], [string, string][]]>([
    ['nothing', [], []],
    [
      'a user message and a reply',
      [user('u1', 'Hi *there*'), assistant('a1', '**Hello.**')],
      [
        ['u1', 'Hi *there*'],
        ['a1', '**Hello.**'],
      ],
    ],
    [
      'a reply in pieces around tool calls: one button, on the last piece, copying all',
      [
        user('u1', 'Read it'),
        assistant('a1', 'Opening it.'),
        tool('t1'),
        assistant('a2', 'It says:\n\n- a'),
        tool('t2'),
        assistant('a3', 'Done.'),
      ],
      [
        ['u1', 'Read it'],
        ['a3', 'Opening it.\n\nIt says:\n\n- a\n\nDone.'],
      ],
    ],
    [
      'a reply ending in a tool call: the last piece of text',
      [user('u1', 'Go'), assistant('a1', 'On it.'), tool('t1')],
      [
        ['u1', 'Go'],
        ['a1', 'On it.'],
      ],
    ],
    [
      'a reply still streaming: no button yet; the earlier reply keeps its own',
      [
        user('u1', 'One'),
        assistant('a1', 'First.'),
        user('u2', 'Two'),
        assistant('a2', 'Sec', true),
      ],
      [
        ['u1', 'One'],
        ['a1', 'First.'],
        ['u2', 'Two'],
      ],
    ],
    [
      'whitespace-only pieces are no text',
      [user('u1', 'x'), assistant('a1', 'Answer.'), tool('t1'), assistant('a2', '  \n')],
      [
        ['u1', 'x'],
        ['a1', 'Answer.'],
      ],
    ],
  ])('%s', (_name, items, expected) => {
    expect([...messageCopies(items)]).toEqual(expected);
  });
});

const REPLY = '| a | b |\n|---|---|\n| 1 | 2 |\n\n```sh\nls\n```';

function render(overrides: Partial<ChatState> = {}): string {
  const state: ChatState = {
    ...chatReducer(initialChatState, {
      type: 'snapshot',
      snapshot: snapshot({
        conversation: conversation([
          { role: 'user', content: 'List **it**.' },
          { role: 'assistant', content: [{ type: 'text', text: REPLY }] },
        ]),
      }),
    }),
    ...overrides,
  };
  return renderToStaticMarkup(
    createElement(Transcript, {
      state,
      onDismissNotice: () => {
        // Not under test.
      },
      onCancelCall: () => {
        // Not under test.
      },
      onResend: () => {
        // Not under test.
      },
    }),
  );
}

function buttonNames(html: string): string[] {
  return [...html.matchAll(/<button[^>]*aria-label="([^"]*)"/g)].map((m) => m[1] ?? '');
}

describe('Transcript', () => {
  test('each message has a Copy message button; a code block has its own', () => {
    const html = render();
    // Between replies the user's message can be edited, and the last turn regenerated.
    expect(buttonNames(html)).toEqual([
      'Copy message',
      'Edit message',
      'Copy code',
      'Copy message',
    ]);
    expect(html).toMatch(/<div class="sy-resend"><button[^>]*>Regenerate<\/button>/);
    // The user's words stay text; the reply is markdown.
    expect(html).toContain('List **it**.');
    expect(html).toContain('<table>');
  });

  test('a reply still being written has no Copy message button until it ends', () => {
    const html = render({ running: true, streamingText: 'Half a sen' });
    expect(buttonNames(html)).toEqual(['Copy message', 'Copy code']);
    expect(html).toContain('Half a sen');
    expect(html.match(/sy-msg--streaming/g)).toHaveLength(1);
  });
});
