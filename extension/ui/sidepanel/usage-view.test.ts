import { describe, expect, test } from 'vitest';
import type { ChatMessage } from '../../messaging/conversation';
import { conversationUsage, turnUsages, usageLabel, usageText } from './usage-view';

const user = (text: string): ChatMessage => ({ role: 'user', content: text });
const reply = (text: string, input?: number, output?: number): ChatMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
  ...(input === undefined ? {} : { usage: { inputTokens: input, outputTokens: output ?? 0 } }),
});
const call: ChatMessage = {
  role: 'assistant',
  content: [{ type: 'tool-call', id: 'c1', name: 't', arguments: {} }],
  usage: { inputTokens: 100, outputTokens: 20 },
};
const result: ChatMessage = {
  role: 'tool',
  results: [{ type: 'tool-result', callId: 'c1', name: 't', status: 'ok', content: 'x' }],
};

describe('usage accumulation', () => {
  test.each<[string, ChatMessage[], [number, number, number][], [number, number] | null]>([
    ['nothing yet', [], [], null],
    ['one step', [user('a'), reply('b', 50, 5)], [[1, 50, 5]], [50, 5]],
    [
      'a tool round: both steps summed into the turn, at its last message',
      [user('a'), call, result, reply('b', 130, 10)],
      [[3, 230, 30]],
      [230, 30],
    ],
    [
      'two turns, the first unreported',
      [user('a'), reply('b'), user('c'), reply('d', 70, 7)],
      [[3, 70, 7]],
      [70, 7],
    ],
    ['a turn without an answer yet', [user('a'), reply('b', 1, 1), user('c')], [[1, 1, 1]], [1, 1]],
  ])('%s', (_, messages, turns, total) => {
    expect([...turnUsages(messages)].map(([i, u]) => [i, u.inputTokens, u.outputTokens])).toEqual(
      turns,
    );
    expect(conversationUsage(messages)).toEqual(
      total === null ? null : { inputTokens: total[0], outputTokens: total[1] },
    );
  });
});

test('text', () => {
  const usage = { inputTokens: 12_345, outputTokens: 85 };
  expect(usageText(usage)).toBe('12.3k in · 85 out');
  expect(usageLabel(usage)).toBe('12,345 input tokens, 85 output tokens, as the provider reported');
});
