import { describe, expect, it, test } from 'vitest';
import { EXPOSED_TOOL_NAME_PATTERN } from '../../protocol/tools';
import { AgentSession } from './agent-session';
import { MAX_CALLS_PER_TURN } from './model-turn';
import type { AgentEvent } from '../messaging/agent-events';
import { INTERRUPTED_RESULT, pairingProblems, restoreConversation, toolCallsOf } from './pairing';
import type { ChatMessage, Conversation } from '../messaging/conversation';
import type { ModelProvider, ProviderEvent } from './providers/provider';
import {
  ScriptedProvider,
  textTurn,
  toolTurn,
  type ScriptedTurn,
} from './providers/scripted-provider';
import { FakeTools, answers, blocks } from './testing/fake-tools';
import { OUTCOME_TEXT, type ToolRouter } from './tool-outcome';
import { flush } from '../testing/flush';

/*
 * The tool_use / tool_result pairing invariant. Dangerous direction: an unpaired tool_use (or a
 * result for no call) poisons every later turn of the chat, because the transcript is re-sent
 * each turn and providers refuse it with a 400. A result that claims success for a call that was
 * stopped, denied or lost to a crash misleads the model about what happened on the user's machine.
 * Every test here ends by checking pairing on the conversation the session would persist.
 */

function session(
  script: readonly ScriptedTurn[] | ModelProvider,
  tools: ToolRouter = new FakeTools({}),
  maxToolRounds?: number,
) {
  const provider = 'stream' in script ? script : new ScriptedProvider(script);
  let n = 0;
  const agent = new AgentSession({
    provider,
    tools,
    system: 'test system',
    newId: () => `id-${++n}`,
    now: () => 1_700_000_000_000,
    ...(maxToolRounds === undefined ? {} : { maxToolRounds }),
  });
  const events: AgentEvent[] = [];
  const saved: Conversation[] = [];
  agent.subscribe((event) => {
    events.push(event);
    if (event.type === 'conversation-changed') saved.push(event.conversation);
  });
  return { agent, provider, events, saved };
}

/** Every conversation the session ever asked to persist was paired. */
function expectAlwaysPaired(saved: readonly Conversation[]): void {
  for (const conversation of saved) expect(pairingProblems(conversation.messages)).toEqual([]);
}

function results(messages: readonly ChatMessage[]) {
  return messages.flatMap((m) => (m.role === 'tool' ? m.results : []));
}

function eventTypes(events: readonly AgentEvent[]): string[] {
  return events.filter((e) => e.type !== 'conversation-changed').map((e) => e.type);
}

describe('agent loop', () => {
  it('answers in plain text', async () => {
    const turns = [
      textTurn('Hello!', (request) => {
        expect(request.system).toBe('test system');
        expect(request.messages).toEqual([{ role: 'user', content: 'Hi' }]);
        expect(request.tools.map((t) => t.name)).toEqual(['echo']);
      }),
    ];
    const { agent, events, saved } = session(turns, new FakeTools({ echo: answers('x') }));
    const summary = await agent.send('Hi');
    expect(summary).toEqual({
      reason: 'completed',
      usage: { inputTokens: 10, outputTokens: 5 },
      toolRounds: 0,
    });
    expect(agent.conversation.messages).toEqual([
      { role: 'user', content: 'Hi' },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'Hello!' }],
        // The provider's own figures for the step, kept with the message it wrote (issue 14).
        usage: { inputTokens: 10, outputTokens: 5 },
      },
    ]);
    expect(eventTypes(events)).toEqual(['run-started', 'text-delta', 'done']);
    expectAlwaysPaired(saved);
  });

  it('runs one tool round and gives the model the result', async () => {
    const tools = new FakeTools({ files__read: answers('file contents') });
    const turns = [
      toolTurn([{ id: 'c1', name: 'files__read', arguments: { path: '/a' } }]),
      textTurn('It says: file contents', (request) => {
        expect(results(request.messages)).toEqual([
          {
            type: 'tool-result',
            callId: 'c1',
            name: 'files__read',
            status: 'ok',
            content: 'file contents',
          },
        ]);
      }),
    ];
    const { agent, events, saved } = session(turns, tools);
    const summary = await agent.send('Read /a');
    expect(summary.toolRounds).toBe(1);
    expect(tools.calls).toEqual([{ name: 'files__read', args: { path: '/a' } }]);
    expect(agent.conversation.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(eventTypes(events)).toEqual([
      'run-started',
      'tool-call-started',
      'tool-call-finished',
      'text-delta',
      'done',
    ]);
    // While the call ran, the persisted transcript already paired it with an "interrupted" result.
    const midCall = saved.find((c) => results(c.messages).some((r) => r.status === 'pending'));
    expect(results(midCall!.messages)).toEqual([
      {
        type: 'tool-result',
        callId: 'c1',
        name: 'files__read',
        status: 'pending',
        content: INTERRUPTED_RESULT,
      },
    ]);
    expectAlwaysPaired(saved);
  });

  it('stops at the tool-round limit and still answers the calls it did not run', async () => {
    const tools = new FakeTools({ t: answers('ok') });
    const turns = [1, 2, 3].map((i) => toolTurn([{ id: `c${i}`, name: 't', arguments: {} }]));
    const { agent, provider, saved } = session(turns, tools, 2);
    const summary = await agent.send('Loop');
    expect(summary).toMatchObject({ reason: 'max-tool-rounds', toolRounds: 2 });
    expect(tools.calls).toHaveLength(2);
    expect(provider instanceof ScriptedProvider && provider.remaining).toBe(0);
    expect(results(agent.conversation.messages).at(-1)).toMatchObject({
      callId: 'c3',
      status: 'error',
      content: expect.stringContaining('limit of 2 tool rounds') as unknown,
    });
    expectAlwaysPaired(saved);
  });

  it('uses 10 tool rounds by default', async () => {
    const turns = Array.from({ length: 11 }, (_, i) =>
      toolTurn([{ id: `c${i}`, name: 't', arguments: {} }]),
    );
    const { agent } = session(turns, new FakeTools({ t: answers('ok') }));
    expect(await agent.send('Loop')).toMatchObject({ reason: 'max-tool-rounds', toolRounds: 10 });
  });
});

describe('stop', () => {
  it('mid-stream: keeps the partial text and answers the calls already streamed', async () => {
    const tools = new FakeTools({ t: answers('ok') });
    const turns: ScriptedTurn[] = [
      {
        steps: [
          { type: 'text-delta', text: 'Let me look' },
          { type: 'tool-call', id: 'c1', name: 't', arguments: {} },
          { type: 'hang' },
        ],
      },
    ];
    const { agent, events, saved } = session(turns, tools);
    const sending = agent.send('Go');
    await flush();
    await agent.stop();
    expect(await sending).toMatchObject({ reason: 'aborted' });
    expect(tools.calls).toEqual([]);
    expect(agent.conversation.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look' },
          { type: 'tool-call', id: 'c1', name: 't', arguments: {} },
        ],
      },
      {
        role: 'tool',
        results: [
          {
            type: 'tool-result',
            callId: 'c1',
            name: 't',
            status: 'cancelled',
            content: OUTCOME_TEXT.stoppedBeforeRun,
          },
        ],
      },
    ]);
    expect(eventTypes(events).at(-1)).toBe('done');
    expectAlwaysPaired(saved);
  });

  it('mid-stream: ends even when the provider ignores the abort signal', async () => {
    const stuck: ModelProvider = {
      stream: () => ({
        [Symbol.asyncIterator]: () => ({
          next: () => new Promise<IteratorResult<ProviderEvent>>(() => undefined),
        }),
      }),
    };
    const { agent, saved } = session(stuck);
    const sending = agent.send('Go');
    await flush();
    await agent.stop();
    expect(await sending).toMatchObject({ reason: 'aborted' });
    expect(agent.conversation.messages).toEqual([{ role: 'user', content: 'Go' }]);
    expectAlwaysPaired(saved);
  });

  test.each([
    ['a tool that honours the signal', true],
    ['a tool that ignores the signal', false],
  ])(
    'mid-tool, with %s: the running call and the ones after it get results',
    async (_, honours: boolean) => {
      const tools = new FakeTools({ slow: blocks(honours), next: answers('never') });
      const turns = [
        toolTurn([
          { id: 'c1', name: 'slow', arguments: {} },
          { id: 'c2', name: 'next', arguments: {} },
        ]),
      ];
      const { agent, saved } = session(turns, tools);
      const sending = agent.send('Go');
      await flush();
      await agent.stop();
      expect(await sending).toMatchObject({ reason: 'aborted' });
      expect(tools.calls.map((c) => c.name)).toEqual(['slow']);
      // The loop stops waiting at the abort, whether or not the tool answers it.
      expect(
        results(agent.conversation.messages).map((r) => [r.callId, r.status, r.content]),
      ).toEqual([
        ['c1', 'cancelled', OUTCOME_TEXT.stoppedDuringRun],
        ['c2', 'cancelled', OUTCOME_TEXT.stoppedBeforeRun],
      ]);
      expectAlwaysPaired(saved);
    },
  );

  it('while an approval waits: the approval resolves to deny', async () => {
    const decisions: string[] = [];
    const tools = new FakeTools({
      ask: async (_args, _signal, prompt) => {
        decisions.push(await prompt({ kind: 'builtin', tool: 'browser_read_page', arguments: {} }));
        return { status: 'denied', content: OUTCOME_TEXT.userDenied };
      },
    });
    const { agent, events, saved } = session(
      [toolTurn([{ id: 'c1', name: 'ask', arguments: {} }])],
      tools,
    );
    const sending = agent.send('Go');
    await flush();
    expect(agent.pendingApprovals()).toHaveLength(1);
    await agent.stop();
    await sending;
    expect(decisions).toEqual(['deny']);
    expect(agent.pendingApprovals()).toEqual([]);
    expect(events.some((e) => e.type === 'approval-resolved' && e.decision === 'deny')).toBe(true);
    // It never ran: the model must not be told it may have had an effect.
    expect(results(agent.conversation.messages).map((r) => [r.status, r.content])).toEqual([
      ['cancelled', OUTCOME_TEXT.stoppedBeforeRun],
    ]);
    expectAlwaysPaired(saved);
  });

  it('after the user allowed the call: it may have run, and the model is told so', async () => {
    const tools = new FakeTools({
      ask: async (_args, signal, prompt) => {
        await prompt({ kind: 'builtin', tool: 'browser_read_page', arguments: {} });
        return blocks(false)({}, signal, prompt, () => undefined);
      },
    });
    const { agent, events, saved } = session(
      [toolTurn([{ id: 'c1', name: 'ask', arguments: {} }])],
      tools,
    );
    const sending = agent.send('Go');
    await flush();
    const [pending] = agent.pendingApprovals();
    agent.resolveApproval(pending?.approvalId ?? '', 'allow-once');
    await flush();
    await agent.stop();
    await sending;
    expect(events.some((e) => e.type === 'approval-resolved' && e.decision === 'allow-once')).toBe(
      true,
    );
    expect(results(agent.conversation.messages).map((r) => [r.status, r.content])).toEqual([
      ['cancelled', OUTCOME_TEXT.stoppedDuringRun],
    ]);
    expectAlwaysPaired(saved);
  });
});

describe('resending a message (Retry, Regenerate, Edit)', () => {
  const usage = { inputTokens: 10, outputTokens: 5 };
  it('drops what followed the message, sends it again (edited), and stays paired', async () => {
    const tools = new FakeTools({ files__read: answers('contents') });
    const turns = [
      toolTurn([{ id: 'c1', name: 'files__read', arguments: {} }]),
      textTurn('First answer.'),
      textTurn('Second answer.'),
      textTurn('Edited answer.', (request) => {
        expect(request.messages).toEqual([{ role: 'user', content: 'Read b instead.' }]);
      }),
    ];
    const { agent, saved } = session(turns, tools);
    await agent.send('Read a.');
    expect(agent.conversation.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    await agent.resend(0);
    expect(agent.conversation.messages).toEqual([
      { role: 'user', content: 'Read a.' },
      { role: 'assistant', content: [{ type: 'text', text: 'Second answer.' }], usage },
    ]);
    await agent.resend(0, 'Read b instead.');
    expect(agent.conversation.messages).toEqual([
      { role: 'user', content: 'Read b instead.' },
      { role: 'assistant', content: [{ type: 'text', text: 'Edited answer.' }], usage },
    ]);
    expectAlwaysPaired(saved);
  });

  it('refuses an index that is not a user message, and a resend while a run is going', async () => {
    const tools = new FakeTools({ slow: blocks(true) });
    const { agent } = session(
      [textTurn('Hi.'), toolTurn([{ id: 'c1', name: 'slow', arguments: {} }])],
      tools,
    );
    await agent.send('Hello');
    await expect(agent.resend(1)).rejects.toThrow(/not one of yours/);
    await expect(agent.resend(7)).rejects.toThrow(/not one of yours/);
    const running = agent.send('Go slow');
    await flush();
    await expect(agent.resend(0)).rejects.toThrow(/still running/);
    await agent.stop();
    await running;
  });
});

describe('one call cancelled, not the run', () => {
  it('reports progress, ends the cancelled call alone, tells the model, and the run goes on', async () => {
    const tools = new FakeTools({
      slow: (_args, signal, _prompt, onProgress) => {
        onProgress({ progress: 1, total: 4, message: 'indexing' });
        return blocks(true)({}, signal, _prompt, onProgress);
      },
    });
    const turns = [
      toolTurn([{ id: 'c1', name: 'slow', arguments: {} }]),
      textTurn('Understood, I stopped there.', (request) => {
        const last = request.messages.at(-1);
        expect(last?.role === 'tool' ? last.results[0]?.content : '').toBe(
          OUTCOME_TEXT.cancelledDuringRun,
        );
      }),
    ];
    const { agent, events, saved } = session(turns, tools);
    const sending = agent.send('Go');
    await flush();
    expect(events).toContainEqual({
      type: 'tool-call-progress',
      runId: agent.runId,
      callId: 'c1',
      progress: { progress: 1, total: 4, message: 'indexing' },
    });
    expect(agent.cancelCall('nope')).toBe(false);
    expect(agent.cancelCall('c1')).toBe(true);
    expect(await sending).toMatchObject({ reason: 'completed', toolRounds: 1 });
    expect(results(agent.conversation.messages).map((r) => [r.status, r.content])).toEqual([
      ['cancelled', OUTCOME_TEXT.cancelledDuringRun],
    ]);
    expect(agent.cancelCall('c1')).toBe(false);
    expectAlwaysPaired(saved);
  });

  it('a call cancelled while its approval waits was not run, and its card resolves deny', async () => {
    const tools = new FakeTools({
      ask: async (_args, signal, prompt, onProgress) => {
        const decision = await prompt({
          kind: 'builtin',
          tool: 'browser_read_page',
          arguments: {},
        });
        if (decision === 'deny') return { status: 'denied', content: OUTCOME_TEXT.userDenied };
        return blocks(true)({}, signal, prompt, onProgress);
      },
    });
    const turns = [toolTurn([{ id: 'c1', name: 'ask', arguments: {} }]), textTurn('OK.')];
    const { agent, events, saved } = session(turns, tools);
    const sending = agent.send('Go');
    await flush();
    expect(agent.pendingApprovals()).toHaveLength(1);
    agent.cancelCall('c1');
    expect(await sending).toMatchObject({ reason: 'completed' });
    expect(agent.pendingApprovals()).toEqual([]);
    expect(events.some((e) => e.type === 'approval-resolved' && e.decision === 'deny')).toBe(true);
    expect(results(agent.conversation.messages).map((r) => r.content)).toEqual([
      OUTCOME_TEXT.cancelledBeforeRun,
    ]);
    expectAlwaysPaired(saved);
  });
});

describe('new chat', () => {
  it('aborts in-flight work, and the old run cannot write into the new conversation', async () => {
    const tools = new FakeTools({ slow: blocks(true), t: answers('ok') });
    const turns = [toolTurn([{ id: 'c1', name: 'slow', arguments: {} }]), textTurn('fresh start')];
    const { agent, saved } = session(turns, tools);
    const first = agent.send('Old question');
    await flush();
    const old = agent.conversation;
    const fresh = agent.newChat();
    expect(fresh.messages).toEqual([]);
    expect(fresh.id).not.toBe(old.id);
    expect(await first).toMatchObject({ reason: 'aborted' });
    await flush();
    expect(agent.conversation).toEqual(fresh);
    expect(agent.running).toBe(false);
    await agent.send('New question');
    expect(agent.conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expectAlwaysPaired(saved);
  });
});

describe('failures', () => {
  it('a tool that throws gives the model an error result, and the run goes on', async () => {
    const tools = new FakeTools({ boom: () => Promise.reject(new Error('kaboom')) });
    const turns = [toolTurn([{ id: 'c1', name: 'boom', arguments: {} }]), textTurn('That failed.')];
    const { agent, saved } = session(turns, tools);
    expect(await agent.send('Go')).toMatchObject({ reason: 'completed', toolRounds: 1 });
    expect(results(agent.conversation.messages)).toEqual([
      {
        type: 'tool-result',
        callId: 'c1',
        name: 'boom',
        status: 'error',
        content: 'The call failed: kaboom',
      },
    ]);
    expectAlwaysPaired(saved);
  });

  test.each<[string, ScriptedTurn]>([
    [
      'an error event',
      {
        steps: [
          { type: 'tool-call', id: 'c1', name: 't', arguments: {} },
          { type: 'error', message: 'HTTP 529: overloaded' },
        ],
      },
    ],
    [
      'a thrown stream',
      {
        steps: [
          { type: 'tool-call', id: 'c1', name: 't', arguments: {} },
          { type: 'throw', error: new Error('HTTP 529: overloaded') },
        ],
      },
    ],
  ])('the model failing mid-turn (%s) ends the run with the calls answered', async (_, turn) => {
    const tools = new FakeTools({ t: answers('ok') });
    const { agent, events, saved } = session([turn], tools);
    expect(await agent.send('Go')).toMatchObject({ reason: 'error' });
    expect(tools.calls).toEqual([]);
    expect(results(agent.conversation.messages)).toMatchObject([
      { callId: 'c1', status: 'error', content: OUTCOME_TEXT.modelFailed },
    ]);
    expect(events).toContainEqual({
      type: 'error',
      runId: 'id-2',
      message: 'HTTP 529: overloaded',
    });
    expectAlwaysPaired(saved);
  });

  it('a tool list that throws ends the run with an error and no half-written turn', async () => {
    const tools: ToolRouter = {
      list: () => Promise.reject(new Error('no tools')),
      call: () => Promise.reject(new Error('unreachable')),
    };
    const { agent } = session([textTurn('unused')], tools);
    expect(await agent.send('Go')).toMatchObject({ reason: 'error' });
    expect(agent.conversation.messages).toEqual([{ role: 'user', content: 'Go' }]);
  });

  it('refuses a second message while a run is going', async () => {
    const { agent } = session([{ steps: [{ type: 'hang' }] }]);
    const first = agent.send('One');
    await expect(agent.send('Two')).rejects.toThrow(/still running/);
    await agent.stop();
    await first;
  });
});

/*
 * Dangerous direction: a call the model made up (unknown name, illegal characters, reused id,
 * non-object arguments) stored as-is breaks the transcript for the provider on every later turn,
 * or reaches a tool it was never offered.
 */
describe('calls the model got wrong', () => {
  test.each([
    ['an unknown tool', { id: 'c1', name: 'nope', arguments: {} }, /no tool named 'nope'/],
    [
      'an illegal name',
      { id: 'c1', name: 'functions.t', arguments: {} },
      /no tool named 'functions_t'/,
    ],
    ['array arguments', { id: 'c1', name: 't', arguments: [1, 2] }, /must be a JSON object/],
    ['non-JSON arguments', { id: 'c1', name: 't', arguments: () => 1 }, /must be a JSON object/],
  ])('%s gets an error result and runs nothing', async (_, call, message) => {
    const tools = new FakeTools({ t: answers('ok') });
    const { agent, saved } = session([toolTurn([call]), textTurn('Sorry.')], tools);
    await agent.send('Go');
    expect(tools.calls).toEqual([]);
    const [result] = results(agent.conversation.messages);
    expect(result).toMatchObject({
      status: 'error',
      content: expect.stringMatching(message) as unknown,
    });
    // What is stored must be legal for every provider on every later turn.
    const stored = agent.conversation.messages.flatMap((m) => toolCallsOf(m));
    for (const part of stored) {
      expect(part.name).toMatch(EXPOSED_TOOL_NAME_PATTERN);
      expect(Array.isArray(part.arguments)).toBe(false);
    }
    expectAlwaysPaired(saved);
  });

  it('runs at most MAX_CALLS_PER_TURN calls of one reply and answers the rest unrun', async () => {
    const tools = new FakeTools({ t: answers('ok') });
    const many = Array.from({ length: MAX_CALLS_PER_TURN + 4 }, (_, i) => ({
      id: `c${String(i)}`,
      name: 't',
      arguments: {},
    }));
    const { agent, saved } = session([toolTurn(many), textTurn('Done.')], tools);
    await agent.send('Go');
    expect(tools.calls).toHaveLength(MAX_CALLS_PER_TURN);
    const answered = results(agent.conversation.messages);
    expect(answered).toHaveLength(MAX_CALLS_PER_TURN + 4);
    expect(answered.slice(MAX_CALLS_PER_TURN).map((r) => r.status)).toEqual(
      Array<string>(4).fill('error'),
    );
    expect(answered.at(-1)?.content).toMatch(/at most 16 tool calls/);
    expectAlwaysPaired(saved);
  });

  it('renames a reused or malformed call id, in the call and its result alike', async () => {
    const tools = new FakeTools({ t: answers('ok') });
    const turns = [
      toolTurn([{ id: 'same', name: 't', arguments: {} }]),
      toolTurn([
        { id: 'same', name: 't', arguments: {} },
        { id: 'has spaces!', name: 't', arguments: {} },
      ]),
      textTurn('Done.'),
    ];
    const { agent, saved } = session(turns, tools);
    await agent.send('Go');
    const ids = results(agent.conversation.messages).map((r) => r.callId);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toBe('same');
    expectAlwaysPaired(saved);
  });
});

describe('serialization', () => {
  it('round-trips a conversation through JSON unchanged', async () => {
    const tools = new FakeTools({ t: answers('ok') });
    const turns = [
      toolTurn([{ id: 'c1', name: 't', arguments: { deep: { list: [1, 'two', null] } } }]),
      textTurn('Done.'),
    ];
    const { agent } = session(turns, tools);
    await agent.send('Go');
    const stored: unknown = JSON.parse(JSON.stringify(agent.conversation));
    expect(restoreConversation(stored)).toEqual(agent.conversation);
  });

  // The store parses every transcript it reads back: one figure its schema refuses made the whole
  // conversation unreadable after a worker restart, and in the history list.
  it('keeps usage a provider reported out of shape storable', async () => {
    const turn: ScriptedTurn = {
      steps: [
        { type: 'text-delta', text: 'Hi.' },
        { type: 'finish', reason: 'stop', usage: { inputTokens: 12.6, outputTokens: -3 } },
      ],
    };
    const { agent, saved } = session([turn]);
    expect(await agent.send('Go')).toMatchObject({ usage: { inputTokens: 13, outputTokens: 0 } });
    const stored: unknown = JSON.parse(JSON.stringify(saved.at(-1)));
    expect(restoreConversation(stored)?.messages.at(-1)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Hi.' }],
      usage: { inputTokens: 13, outputTokens: 0 },
    });
  });

  it('a conversation saved mid-call restores paired, the call marked interrupted', async () => {
    const tools = new FakeTools({ slow: blocks(false) });
    const { agent, saved } = session(
      [toolTurn([{ id: 'c1', name: 'slow', arguments: {} }])],
      tools,
    );
    void agent.send('Go');
    await flush();
    // The worker dies here: the last thing persisted is the snapshot with the pending result.
    const lastSaved = saved.at(-1)!;
    const restored = restoreConversation(JSON.parse(JSON.stringify(lastSaved)));
    expect(pairingProblems(restored!.messages)).toEqual([]);
    expect(results(restored!.messages)).toEqual([
      {
        type: 'tool-result',
        callId: 'c1',
        name: 'slow',
        status: 'error',
        content: INTERRUPTED_RESULT,
      },
    ]);
    const resumed = new AgentSession({
      provider: new ScriptedProvider([
        textTurn('Picking up.', (request) => {
          expect(pairingProblems(request.messages)).toEqual([]);
        }),
      ]),
      tools,
      conversation: restored!,
    });
    expect(await resumed.send('Are you there?')).toMatchObject({ reason: 'completed' });
    await agent.stop();
  });

  test.each<[string, unknown[]]>([
    [
      'a call without results',
      [{ role: 'assistant', content: [{ type: 'tool-call', id: 'a', name: 't', arguments: {} }] }],
    ],
    [
      'results for no call',
      [
        { role: 'user', content: 'x' },
        {
          role: 'tool',
          results: [{ type: 'tool-result', callId: 'z', name: 't', status: 'ok', content: '' }],
        },
      ],
    ],
    [
      'a partial result set',
      [
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', id: 'a', name: 't', arguments: {} },
            { type: 'tool-call', id: 'b', name: 't', arguments: {} },
          ],
        },
        {
          role: 'tool',
          results: [{ type: 'tool-result', callId: 'a', name: 't', status: 'ok', content: '' }],
        },
      ],
    ],
  ])('repairs %s on restore', (_, messages) => {
    const restored = restoreConversation({
      version: 1,
      id: 'c',
      createdAt: 0,
      updatedAt: 0,
      messages,
    });
    expect(pairingProblems(restored!.messages)).toEqual([]);
  });

  it('refuses stored data that is not a conversation', () => {
    expect(restoreConversation({ version: 2, id: 'c' })).toBeUndefined();
    expect(restoreConversation('nope')).toBeUndefined();
  });
});
