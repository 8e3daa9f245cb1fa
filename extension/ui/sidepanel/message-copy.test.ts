import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { chatReducer, initialChatState, type ChatState } from './chat-state';
import { conversation, snapshot } from './test-fixtures';
import { Transcript } from './Transcript';

/** The per-message Copy buttons, as the e2e journeys and a screen reader find them. */

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
    }),
  );
}

function buttonNames(html: string): string[] {
  return [...html.matchAll(/<button[^>]*aria-label="([^"]*)"/g)].map((m) => m[1] ?? '');
}

describe('Transcript', () => {
  test('each message has a Copy message button; a code block has its own', () => {
    const html = render();
    expect(buttonNames(html)).toEqual(['Copy message', 'Copy code', 'Copy message']);
    // The user's words stay text; the reply is markdown.
    expect(html).toContain('List **it**.');
    expect(html).toContain('<table>');
  });

  test('a reply still streaming has no Copy message button yet', () => {
    const html = render({ running: true, streamingText: 'Half a sen' });
    expect(buttonNames(html)).toEqual(['Copy message', 'Copy code', 'Copy message']);
    expect(html).toContain('Half a sen');
    expect(html.match(/sy-msg--streaming/g)).toHaveLength(1);
  });
});
