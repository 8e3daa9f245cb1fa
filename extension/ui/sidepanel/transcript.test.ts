import { describe, expect, test } from 'vitest';
import type { ChatMessage } from '../../messaging/conversation';
import { chatReducer, initialChatState, type ChatState } from './chat-state';
import { conversation, mcpApproval, snapshot } from './test-fixtures';
import {
  elapsedText,
  notSentText,
  progressView,
  resendOffer,
  toolStatusLabel,
  transcriptItems,
  type ToolRowStatus,
} from './transcript';

const messages: ChatMessage[] = [
  { role: 'user', content: 'read it' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Reading ' },
      { type: 'text', text: 'now.' },
      { type: 'tool-call', id: 'c1', name: 'fs__read', arguments: { path: '/a' } },
      { type: 'tool-call', id: 'c2', name: 'fs__write', arguments: { path: '/b' } },
    ],
  },
  {
    role: 'tool',
    results: [
      { type: 'tool-result', callId: 'c1', name: 'fs__read', status: 'ok', content: 'data' },
      { type: 'tool-result', callId: 'c2', name: 'fs__write', status: 'pending', content: 'x' },
    ],
  },
];

function stateWith(overrides: Partial<ChatState>): ChatState {
  return {
    ...chatReducer(initialChatState, {
      type: 'snapshot',
      snapshot: snapshot({ conversation: conversation(messages) }),
    }),
    ...overrides,
  };
}

function tools(state: ChatState): [string, ToolRowStatus, string | null][] {
  return transcriptItems(state).flatMap((item) =>
    item.kind === 'tool'
      ? [[item.callId, item.status, item.result] as [string, ToolRowStatus, string | null]]
      : [],
  );
}

describe('transcriptItems', () => {
  test('draws user text, merged assistant text and one row per call', () => {
    const items = transcriptItems(stateWith({ running: true }));
    expect(items.map((i) => i.kind).slice(0, 4)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(items[1]).toMatchObject({ kind: 'assistant', text: 'Reading now.', streaming: false });
  });

  test('a pending call is queued, running, or waiting for approval while the run goes', () => {
    expect(tools(stateWith({ running: true }))[1]).toEqual(['c2', 'queued', null]);
    expect(
      tools(
        stateWith({
          running: true,
          liveCalls: new Map([['c2', { phase: 'running', name: 'fs__write' }]]),
        }),
      )[1],
    ).toEqual(['c2', 'running', null]);
    expect(
      tools(stateWith({ running: true, approvals: [mcpApproval({}, { callId: 'c2' })] }))[1],
    ).toEqual(['c2', 'waiting-approval', null]);
  });

  test('a live outcome shows before the transcript catches up', () => {
    const state = stateWith({
      running: true,
      liveCalls: new Map([['c2', { phase: 'finished', name: 'fs__write', status: 'denied' }]]),
    });
    expect(tools(state)[1]?.[1]).toBe('denied');
  });

  test('a pending call with no run behind it was interrupted', () => {
    expect(tools(stateWith({ running: false }))[1]).toEqual(['c2', 'interrupted', null]);
  });

  test('finished calls show their result', () => {
    expect(tools(stateWith({}))[0]).toEqual(['c1', 'ok', 'data']);
  });

  test('streaming text is the last bubble', () => {
    const items = transcriptItems(stateWith({ running: true, streamingText: 'Done: ' }));
    expect(items.at(-1)).toMatchObject({ kind: 'assistant', text: 'Done: ', streaming: true });
  });

  test('a running model with nothing to show yet is "thinking"', () => {
    const state = stateWith({
      conversation: conversation([{ role: 'user', content: 'hi' }]),
      running: true,
    });
    expect(transcriptItems(state).at(-1)?.kind).toBe('thinking');
  });

  test('no "thinking" while a tool runs or waits for the user', () => {
    const state = stateWith({ running: true, approvals: [mcpApproval({}, { callId: 'c2' })] });
    expect(transcriptItems(state).some((i) => i.kind === 'thinking')).toBe(false);
  });

  test('notices sit after the message they followed', () => {
    const state = stateWith({
      notices: [
        { id: 1, tone: 'error', message: 'first', afterMessage: 1 },
        { id: 2, tone: 'info', message: 'end', afterMessage: 99 },
      ],
    });
    const kinds = transcriptItems(state).map((i) =>
      i.kind === 'notice' ? i.notice.message : i.kind,
    );
    expect(kinds).toEqual(['user', 'first', 'assistant', 'tool', 'tool', 'end']);
  });
});

test('every status has a label', () => {
  const all: ToolRowStatus[] = [
    'queued',
    'waiting-approval',
    'running',
    'ok',
    'error',
    'denied',
    'cancelled',
    'interrupted',
  ];
  for (const status of all) expect(toolStatusLabel(status)).not.toBe('');
});

describe('progressView', () => {
  test.each([
    [{ progress: 3, total: 5 }, 0.6, '3 of 5'],
    [{ progress: 0.25, total: 1 }, 0.25, '25%'],
    [{ progress: 7, total: 5 }, 1, '7 of 5'],
    [{ progress: -1, total: 5 }, 0, '-1 of 5'],
    [{ progress: 3 }, null, 'step 3'],
    [{ progress: 0.5 }, null, ''],
    [{ progress: 2, total: 0 }, null, 'step 2'],
    [{ progress: Number.NaN, total: 5 }, null, ''],
    [{ progress: 1, total: Number.POSITIVE_INFINITY }, null, 'step 1'],
  ])('%o is a bar at %s reading "%s"', (progress, fraction, text) => {
    expect(progressView(progress)).toEqual({ fraction, text });
  });
});

describe('elapsedText', () => {
  test.each([
    [0, '0 s'],
    [999, '0 s'],
    [8_400, '8 s'],
    [59_999, '59 s'],
    [125_000, '2 min 5 s'],
    [-5, '0 s'],
  ])('%d ms reads "%s"', (ms, text) => {
    expect(elapsedText(ms)).toBe(text);
  });
});

describe('resendOffer', () => {
  const user: ChatMessage = { role: 'user', content: 'hi' };
  const reply: ChatMessage = { role: 'assistant', content: [{ type: 'text', text: 'hello' }] };
  const error = { id: 1, tone: 'error', message: 'HTTP 500', afterMessage: 1 } as const;
  const base = { running: false, sending: false, notices: [] };
  test.each<[string, Parameters<typeof resendOffer>[0], ReturnType<typeof resendOffer>]>([
    ['an empty chat', { ...base, conversation: conversation([]) }, null],
    ['no conversation yet', { ...base, conversation: null }, null],
    [
      'an answered turn',
      { ...base, conversation: conversation([user, reply]) },
      { index: 0, label: 'Regenerate' },
    ],
    [
      'a turn that failed',
      { ...base, notices: [error], conversation: conversation([user]) },
      { index: 0, label: 'Retry' },
    ],
    [
      'a turn never answered',
      { ...base, conversation: conversation([user, reply, user]) },
      { index: 2, label: 'Retry' },
    ],
    [
      'an error from an earlier turn',
      { ...base, notices: [error], conversation: conversation([user, reply, user, reply]) },
      { index: 2, label: 'Regenerate' },
    ],
    [
      'a failed try that a retry since answered',
      { ...base, notices: [error], conversation: conversation([user, reply]) },
      { index: 0, label: 'Regenerate' },
    ],
    ['a reply running', { ...base, running: true, conversation: conversation([user]) }, null],
    ['a message being sent', { ...base, sending: true, conversation: conversation([user]) }, null],
  ])('%s', (_, state, offer) => {
    expect(resendOffer(state)).toEqual(offer);
  });
});

describe('the model in view: usage per turn and the not-sent marker (issue 14)', () => {
  const long: ChatMessage[] = [
    { role: 'user', content: 'one' },
    {
      role: 'assistant',
      content: [{ type: 'text', text: 'a' }],
      usage: { inputTokens: 10, outputTokens: 2 },
    },
    { role: 'user', content: 'two' },
    {
      role: 'assistant',
      content: [{ type: 'text', text: 'b' }],
      usage: { inputTokens: 30, outputTokens: 4 },
    },
  ];
  const kinds = (state: ChatState): string[] =>
    transcriptItems(state).map((item) =>
      item.kind === 'usage'
        ? `usage ${item.usage.inputTokens}/${item.usage.outputTokens}`
        : item.kind === 'not-sent'
          ? `not-sent ${item.count}`
          : item.kind,
    );

  test('each finished turn ends with its usage; the marker stands where the left-out messages end', () => {
    const state = stateWith({ conversation: { ...conversation(long), notSent: 2 } });
    expect(kinds(state)).toEqual([
      'user',
      'assistant',
      'usage 10/2',
      'not-sent 2',
      'user',
      'assistant',
      'usage 30/4',
    ]);
  });

  test("the running turn's usage waits until it is over", () => {
    const state = stateWith({ conversation: conversation(long), running: true });
    expect(kinds(state)).toEqual([
      'user',
      'assistant',
      'usage 10/2',
      'user',
      'assistant',
      'thinking',
    ]);
  });

  test('no marker when nothing was left out, nor past the end after an edit', () => {
    expect(kinds(stateWith({ conversation: conversation(long) }))).not.toContain('not-sent 2');
    const cut = stateWith({ conversation: { ...conversation(long.slice(0, 1)), notSent: 2 } });
    expect(kinds(cut)).toEqual(['user']);
  });
});

test('notSentText', () => {
  expect(notSentText(1)).toMatch(/^1 earlier message not sent to the model/);
  expect(notSentText(4)).toMatch(/^4 earlier messages not sent to the model/);
});
