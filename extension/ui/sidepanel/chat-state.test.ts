import { describe, expect, test } from 'vitest';
import type { AgentEvent } from '../../messaging/agent-events';
import { APP_CALLS_RUN_ID } from '../../messaging/approvals';
import type { ChatMessage } from '../../messaging/conversation';
import {
  chatReducer,
  endNotice,
  initialChatState,
  isBusy,
  type ChatAction,
  type ChatState,
} from './chat-state';
import { conversation, mcpApproval, snapshot } from './test-fixtures';

function agent(event: AgentEvent): ChatAction {
  return { type: 'event', event: { type: 'agent', event } };
}

function run(state: ChatState, ...actions: ChatAction[]): ChatState {
  return actions.reduce(chatReducer, state);
}

const loaded = chatReducer(initialChatState, { type: 'snapshot', snapshot: snapshot() });
const userAsked: ChatMessage = { role: 'user', content: 'hi' };

describe('snapshot', () => {
  test('loads everything the worker knows', () => {
    expect(loaded.loaded).toBe(true);
    expect(loaded.conversation?.id).toBe('c1');
    expect(loaded.provider?.kind).toBe('openai');
    expect(loaded.running).toBe(false);
  });

  test('mid-stream: adopts the run and the text streamed so far', () => {
    const state = chatReducer(initialChatState, {
      type: 'snapshot',
      snapshot: snapshot({ running: true, run: { runId: 'r7', streamingText: 'Half of' } }),
    });
    expect(state).toMatchObject({ running: true, runId: 'r7', streamingText: 'Half of' });
  });

  test('mid-run: follows the run its pending approvals belong to', () => {
    const state = chatReducer(initialChatState, {
      type: 'snapshot',
      snapshot: snapshot({ running: true, pendingApprovals: [mcpApproval({}, { runId: 'r9' })] }),
    });
    expect(state).toMatchObject({ running: true, runId: 'r9' });
    expect(state.approvals).toHaveLength(1);
  });

  test('a re-read after reconnect keeps notices of the same conversation, drops others', () => {
    const withNotice = chatReducer(loaded, { type: 'request-failed', message: 'oops' });
    const same = chatReducer(withNotice, { type: 'snapshot', snapshot: snapshot() });
    expect(same.notices).toHaveLength(1);
    const other = chatReducer(withNotice, {
      type: 'snapshot',
      snapshot: snapshot({ conversation: conversation([], 'c2') }),
    });
    expect(other.notices).toHaveLength(0);
  });
});

describe('a run', () => {
  const started = run(
    loaded,
    { type: 'send-requested' },
    agent({ type: 'conversation-changed', conversation: conversation([userAsked]) }),
    agent({ type: 'run-started', runId: 'run1' }),
  );

  test('run-started marks it running', () => {
    expect(started).toMatchObject({ running: true, runId: 'run1', sending: false });
    expect(isBusy(started)).toBe(true);
  });

  test("a finished call's notice for the user becomes an error notice", () => {
    const notice = '"Always allow" could not be saved for x__y (disk full).';
    const state = run(
      started,
      agent({
        type: 'tool-call-finished',
        runId: 'run1',
        callId: 'c1',
        name: 'x__y',
        outcome: { status: 'ok', content: 'done', notice },
      }),
      agent({
        type: 'tool-call-finished',
        runId: 'run1',
        callId: 'c2',
        name: 'x__z',
        outcome: { status: 'ok', content: 'done' },
      }),
    );
    expect(state.notices.map((n) => [n.tone, n.message])).toEqual([['error', notice]]);
  });

  test('text deltas stream into the current bubble', () => {
    const state = run(
      started,
      agent({ type: 'text-delta', runId: 'run1', text: 'Hel' }),
      agent({ type: 'text-delta', runId: 'run1', text: 'lo' }),
    );
    expect(state.streamingText).toBe('Hello');
  });

  test('the transcript update that carries the text ends the streaming bubble', () => {
    const state = run(
      started,
      agent({ type: 'text-delta', runId: 'run1', text: 'Hello' }),
      agent({
        type: 'conversation-changed',
        conversation: conversation([
          userAsked,
          { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
        ]),
      }),
    );
    expect(state.streamingText).toBe('');
    expect(state.conversation?.messages).toHaveLength(2);
    expect(state.running).toBe(true);
  });

  test('a rename or another model mid-turn keeps the text streamed so far', () => {
    const asked = conversation([userAsked]);
    const state = run(
      started,
      agent({ type: 'text-delta', runId: 'run1', text: 'Here is a long answer ' }),
      agent({ type: 'conversation-changed', conversation: { ...asked, model: 'gpt-4o-mini' } }),
      agent({ type: 'conversation-changed', conversation: { ...asked, title: 'Answers' } }),
      agent({ type: 'text-delta', runId: 'run1', text: 'continued' }),
    );
    expect(state.streamingText).toBe('Here is a long answer continued');
    expect(state.conversation?.title).toBe('Answers');
  });

  test('tool calls are tracked live', () => {
    const state = run(
      started,
      agent({
        type: 'tool-call-started',
        runId: 'run1',
        callId: 'c1',
        name: 'fs__read',
        arguments: {},
      }),
    );
    expect(state.liveCalls.get('c1')).toEqual({ phase: 'running', name: 'fs__read' });
    const finished = chatReducer(
      state,
      agent({
        type: 'tool-call-finished',
        runId: 'run1',
        callId: 'c1',
        name: 'fs__read',
        outcome: { status: 'denied', content: 'no' },
      }),
    );
    expect(finished.liveCalls.get('c1')).toEqual({
      phase: 'finished',
      name: 'fs__read',
      status: 'denied',
    });
  });

  test('a running call keeps its server’s last progress, and a Cancel pressed on it', () => {
    const startedCall = agent({
      type: 'tool-call-started',
      runId: 'run1',
      callId: 'c1',
      name: 'fs__index',
      arguments: {},
    });
    const progress = (n: number) =>
      agent({
        type: 'tool-call-progress',
        runId: 'run1',
        callId: 'c1',
        progress: { progress: n, total: 4 },
      });
    const state = run(started, startedCall, progress(1), progress(2), {
      type: 'cancel-requested',
      callId: 'c1',
    });
    expect(state.liveCalls.get('c1')).toEqual({
      phase: 'running',
      name: 'fs__index',
      progress: { progress: 2, total: 4 },
      cancelling: true,
    });
    // Progress for a call that is not running (finished, or never seen) changes nothing.
    const stray = run(started, progress(3), { type: 'cancel-requested', callId: 'c1' });
    expect(stray.liveCalls.get('c1')).toBeUndefined();
  });

  test('a call id like __proto__ or constructor is just a key', () => {
    const state = run(
      started,
      agent({
        type: 'tool-call-started',
        runId: 'run1',
        callId: '__proto__',
        name: 'x',
        arguments: {},
      }),
    );
    expect(state.liveCalls.get('__proto__')).toEqual({ phase: 'running', name: 'x' });
    expect(state.liveCalls.get('constructor')).toBeUndefined();
  });

  test('approvals appear once and disappear when resolved', () => {
    const needed = agent({ type: 'approval-needed', ...mcpApproval() });
    const state = run(started, needed, needed);
    expect(state.approvals).toHaveLength(1);
    const resolved = chatReducer(
      state,
      agent({ type: 'approval-resolved', runId: 'run1', approvalId: 'a1', decision: 'deny' }),
    );
    expect(resolved.approvals).toHaveLength(0);
  });

  test('errors become inline notices where they happened', () => {
    const state = run(
      started,
      agent({ type: 'error', runId: 'run1', message: 'HTTP 401: bad key' }),
    );
    expect(state.notices).toEqual([
      { id: 1, tone: 'error', message: 'HTTP 401: bad key', afterMessage: 1 },
    ]);
  });

  test('an error for want of site access keeps the access, for the notice to offer it', () => {
    const access = { origin: '127.0.0.1:11434', pattern: 'http://127.0.0.1:11434/*' };
    const state = run(
      started,
      agent({ type: 'error', runId: 'run1', message: 'no permission', access }),
    );
    expect(state.notices).toEqual([
      { id: 1, tone: 'error', message: 'no permission', afterMessage: 1, access },
    ]);
  });

  test('done ends the run and drops what it was waiting for', () => {
    const state = run(
      started,
      agent({ type: 'approval-needed', ...mcpApproval() }),
      agent({ type: 'text-delta', runId: 'run1', text: 'partial' }),
      agent({
        type: 'done',
        runId: 'run1',
        reason: 'aborted',
        usage: { inputTokens: 0, outputTokens: 0 },
        toolRounds: 0,
      }),
    );
    expect(state).toMatchObject({ running: false, runId: null, streamingText: '', approvals: [] });
    expect(state.notices.map((n) => n.message)).toEqual(['Stopped.']);
    expect(isBusy(state)).toBe(false);
  });

  test('late events of an ended run do not restart it', () => {
    const done = run(
      started,
      agent({
        type: 'done',
        runId: 'run1',
        reason: 'completed',
        usage: { inputTokens: 0, outputTokens: 0 },
        toolRounds: 0,
      }),
      agent({ type: 'text-delta', runId: 'run1', text: 'late' }),
    );
    expect(done).toMatchObject({ running: false, streamingText: '' });
  });

  test('events of another run are ignored while one is followed', () => {
    const state = chatReducer(started, agent({ type: 'text-delta', runId: 'old', text: 'stale' }));
    expect(state.streamingText).toBe('');
  });

  test('an app’s approval belongs to no run: it neither starts one nor ends with one', () => {
    const fromApp = agent({
      type: 'approval-needed',
      ...mcpApproval(),
      approvalId: 'app1',
      runId: APP_CALLS_RUN_ID,
      fromApp: 'pdf',
    });
    // Outside a run: the card shows, and the panel is not made to think a reply is running.
    const idle = run(loaded, fromApp);
    expect(idle.approvals.map((a) => a.fromApp)).toEqual(['pdf']);
    expect(idle).toMatchObject({ running: false, runId: null });
    // A run that starts and ends around it leaves it in place.
    const after = run(
      idle,
      agent({ type: 'run-started', runId: 'run1' }),
      agent({
        type: 'done',
        runId: 'run1',
        reason: 'completed',
        usage: { inputTokens: 0, outputTokens: 0 },
        toolRounds: 0,
      }),
    );
    expect(after.approvals.map((a) => a.approvalId)).toEqual(['app1']);
    const answered = run(
      after,
      agent({
        type: 'approval-resolved',
        runId: APP_CALLS_RUN_ID,
        approvalId: 'app1',
        decision: 'allow-once',
      }),
    );
    expect(answered.approvals).toEqual([]);
  });

  test('a new run drops approvals of an older one', () => {
    const state = run(
      started,
      agent({ type: 'approval-needed', ...mcpApproval() }),
      agent({ type: 'run-started', runId: 'run2' }),
    );
    expect(state.approvals).toHaveLength(0);
  });

  test('New Chat (another conversation id) ends the run, approvals and notices', () => {
    const state = run(
      started,
      agent({ type: 'approval-needed', ...mcpApproval() }),
      { type: 'request-failed', message: 'x' },
      agent({ type: 'conversation-changed', conversation: conversation([], 'c2') }),
    );
    expect(state).toMatchObject({ running: false, runId: null, approvals: [], notices: [] });
    expect(state.conversation?.id).toBe('c2');
  });
});

describe('page events', () => {
  test('connection, context, profile and settings replace their part', () => {
    const state = run(
      loaded,
      {
        type: 'event',
        event: { type: 'connection', state: { state: 'not-installed', message: 'x' } },
      },
      {
        type: 'event',
        event: {
          type: 'profile',
          profile: { id: 'p', name: 'Work', matchedPattern: '*://github.com/*', url: null },
          settled: true,
        },
      },
      { type: 'event', event: { type: 'settings', provider: null, autopilot: true } },
    );
    expect(state.connection.state).toBe('not-installed');
    expect(state.profile?.name).toBe('Work');
    expect(state.profileSettled).toBe(true);
    expect(state.provider).toBeNull();
    expect(state.autopilot).toBe(true);
  });

  test('host notifications leave the chat alone', () => {
    const state = chatReducer(loaded, {
      type: 'event',
      event: { type: 'host', method: 'notifications/servers/changed', server: 'fs' },
    });
    expect(state).toBe(loaded);
  });
});

describe('a failed save (issue 14)', () => {
  test('comes with the snapshot and the storage event, and goes when a save succeeds', () => {
    const problem = {
      kind: 'quota' as const,
      detail: 'QUOTA_BYTES quota exceeded',
      currentUnsaved: true,
    };
    const opened = chatReducer(initialChatState, {
      type: 'snapshot',
      snapshot: snapshot({ saveProblem: problem }),
    });
    expect(opened.saveProblem).toEqual(problem);
    const saved = chatReducer(opened, { type: 'event', event: { type: 'storage', problem: null } });
    expect(saved.saveProblem).toBeNull();
    // The chat on screen is untouched either way.
    expect(saved.conversation).toBe(opened.conversation);
  });
});

describe('local actions', () => {
  test('a failed send clears sending and says why', () => {
    const state = run(
      loaded,
      { type: 'send-requested' },
      { type: 'request-failed', message: 'No provider' },
    );
    expect(state.sending).toBe(false);
    expect(state.notices[0]?.message).toBe('No provider');
  });

  test('notices can be dismissed', () => {
    const state = run(
      loaded,
      { type: 'request-failed', message: 'x' },
      { type: 'dismiss-notice', id: 1 },
    );
    expect(state.notices).toEqual([]);
  });

  test('a stale approval card can be removed', () => {
    const state = run(loaded, agent({ type: 'approval-needed', ...mcpApproval() }), {
      type: 'approval-gone',
      approvalId: 'a1',
    });
    expect(state.approvals).toEqual([]);
  });
});

test.each([
  ['completed', null],
  ['error', null],
  ['aborted', 'info'],
  ['length', 'info'],
  ['content-filter', 'error'],
  ['max-tool-rounds', 'info'],
] as const)('endNotice(%s)', (reason, tone) => {
  expect(endNotice(reason, 10)?.tone ?? null).toBe(tone);
});
