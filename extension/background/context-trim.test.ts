import { describe, expect, test } from 'vitest';
import type { ChatMessage } from '../messaging/conversation';
import { trimToBudget } from './context-trim';
import { pairingProblems } from './pairing';

// Each message costs its text length here, so a table reads as arithmetic. Dropping too little
// is the dangerous direction (the provider refuses the request); dropping a call without its
// result, or the latest user message, breaks the request outright.

const user = (text: string): ChatMessage => ({ role: 'user', content: text });
const said = (text: string): ChatMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
});
const calls = (id: string, text = ''): ChatMessage => ({
  role: 'assistant',
  content: [
    ...(text === '' ? [] : [{ type: 'text' as const, text }]),
    { type: 'tool-call', id, name: 'read', arguments: {} },
  ],
});
const answers = (id: string, content: string): ChatMessage => ({
  role: 'tool',
  results: [{ type: 'tool-result', callId: id, name: 'read', status: 'ok', content }],
});

function cost(message: ChatMessage): number {
  switch (message.role) {
    case 'user':
      return message.content.length;
    case 'assistant':
      return message.content.reduce((n, p) => n + (p.type === 'text' ? p.text.length : 1), 0);
    case 'tool':
      return message.results.reduce((n, r) => n + r.content.length, 0);
  }
}

const transcript: ChatMessage[] = [
  user('aaaa'), // 4
  said('bbbb'), // 4
  user('cc'), // 2
  calls('c1'), // 1
  answers('c1', 'dddddddddd'), // 10
  said('ee'), // 2
  user('ff'), // 2
];

describe('trimToBudget', () => {
  test.each([
    // budget, dropped, fits
    [100, 0, true],
    [25, 0, true],
    [24, 2, true],
    [17, 2, true],
    [16, 6, true],
    [2, 6, true],
    [1, 6, false],
    [0, 6, false],
  ])('budget %i drops %i messages (fits: %s)', (budget, dropped, fits) => {
    const result = trimToBudget(transcript, budget, cost);
    expect(result.dropped).toBe(dropped);
    expect(result.fits).toBe(fits);
    expect(result.messages).toEqual(transcript.slice(dropped));
  });

  test('what is sent starts at a user message and stays paired, at every budget', () => {
    for (let budget = 0; budget <= 30; budget += 1) {
      const { messages } = trimToBudget(transcript, budget, cost);
      expect(messages[0]?.role).toBe('user');
      expect(pairingProblems(messages)).toEqual([]);
      expect(messages.at(-1)).toEqual(user('ff'));
    }
  });

  test('a run mid-way (its latest user message followed by tool rounds) keeps that whole turn', () => {
    const running = [...transcript, calls('c2', 'look'), answers('c2', 'x'.repeat(40))];
    const result = trimToBudget(running, 10, cost);
    expect(result).toEqual({ messages: running.slice(6), dropped: 6, fits: false });
  });

  test('a conversation of one turn is never cut', () => {
    const one = [user('a'.repeat(50)), said('b')];
    expect(trimToBudget(one, 5, cost)).toEqual({ messages: one, dropped: 0, fits: false });
  });

  test('empty', () => {
    expect(trimToBudget([], 0, cost)).toEqual({ messages: [], dropped: 0, fits: true });
  });
});
