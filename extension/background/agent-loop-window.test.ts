import { describe, expect, it } from 'vitest';
import { AgentSession } from './agent-session';
import type { ChatMessage, Conversation } from '../messaging/conversation';
import { pairingProblems } from './pairing';
import { ScriptedProvider, textTurn, toolTurn } from './providers/scripted-provider';
import { FakeTools, answers } from './testing/fake-tools';
import { unwrapUntrusted, wrapUntrusted } from '../../protocol/untrusted/block';
import { outputReserve } from '../messaging/context-window';
import { messageTokens } from './context-meter';

/*
 * The model in view (issue 14) through the agent loop with the scripted provider: usage per
 * step, the context window (the oldest whole turns left out before a request would exceed it,
 * and marked, never silently), and the per-conversation model. Dangerous direction: a request
 * that still exceeds the window (the provider refuses it), or a dropped turn nobody is told of.
 */

/** `n` tokens by the estimate: one short word each, single spaces are free. */
const words = (n: number): string => Array.from({ length: n }, () => 'word').join(' ');

function conversationOf(messages: ChatMessage[]): Conversation {
  return { version: 1, id: 'c', createdAt: 1, updatedAt: 1, messages };
}

const earlier: ChatMessage[] = [
  { role: 'user', content: words(300) },
  { role: 'assistant', content: [{ type: 'text', text: 'first' }] },
  { role: 'user', content: words(300) },
  { role: 'assistant', content: [{ type: 'text', text: 'second' }] },
];

function session(provider: ScriptedProvider, window: { tokens: number | undefined }) {
  const agent = new AgentSession({
    provider,
    tools: new FakeTools({ files__read: answers(words(50)) }),
    system: 'test system',
    conversation: conversationOf([...earlier]),
    contextWindow: () => window.tokens,
  });
  const saved: Conversation[] = [];
  agent.subscribe((event) => {
    if (event.type === 'conversation-changed') saved.push(event.conversation);
  });
  return { agent, saved };
}

describe('the context window', () => {
  it('leaves out the oldest whole turns, marks them, and sends everything again once it fits', async () => {
    const sent: (readonly ChatMessage[])[] = [];
    const provider = new ScriptedProvider([
      toolTurn([{ id: 'c1', name: 'files__read', arguments: {} }], (r) => sent.push(r.messages)),
      textTurn('third', (r) => sent.push(r.messages)),
      textTurn('fourth', (r) => sent.push(r.messages)),
    ]);
    // 1000 tokens: 250 kept for the answer, the tool and system prompt about 12; three turns of
    // 300 words do not fit, two do.
    const window: { tokens: number | undefined } = { tokens: 1000 };
    const { agent, saved } = session(provider, window);
    await agent.send(words(300));

    // Both requests of the run (before and after the tool round) left out the first turn only.
    expect(sent.map((messages) => messages.length)).toEqual([3, 5]);
    expect(sent[0]?.[0]).toEqual(earlier[2]);
    for (const messages of sent) expect(pairingProblems(messages)).toEqual([]);
    expect(agent.conversation.notSent).toBe(2);
    // The conversation itself keeps every message: only the request left them out.
    expect(agent.conversation.messages.slice(0, 4)).toEqual(earlier);
    // The mark was persisted before the first request went.
    expect(saved.find((c) => c.notSent === 2)?.messages).toHaveLength(5);

    window.tokens = 100_000;
    await agent.send('short');
    expect(sent[2]).toHaveLength(agent.conversation.messages.length - 1);
    expect(agent.conversation.notSent).toBeUndefined();
  });

  it('without a window everything is sent and nothing is marked', async () => {
    const sent: (readonly ChatMessage[])[] = [];
    const provider = new ScriptedProvider([textTurn('ok', (r) => sent.push(r.messages))]);
    const { agent } = session(provider, { tokens: undefined });
    await agent.send(words(300));
    expect(sent[0]).toHaveLength(5);
    expect(agent.conversation.notSent).toBeUndefined();
  });

  it('a latest turn that alone is over the window is still sent, whole', async () => {
    const sent: (readonly ChatMessage[])[] = [];
    const provider = new ScriptedProvider([textTurn('ok', (r) => sent.push(r.messages))]);
    const { agent } = session(provider, { tokens: 200 });
    await agent.send(words(300));
    expect(sent[0]).toEqual([{ role: 'user', content: words(300) }]);
    expect(agent.conversation.notSent).toBe(4);
  });
});

describe('a result larger than the window', () => {
  it('is cut inside its block to what the turn has left, so the next request still fits', async () => {
    const sent: (readonly ChatMessage[])[] = [];
    const provider = new ScriptedProvider([
      toolTurn([{ id: 'c1', name: 'files__dump', arguments: {} }]),
      textTurn('summed up', (r) => sent.push(r.messages)),
    ]);
    // About 200,000 tokens of server text, well inside the host's 1 MiB cap.
    const huge = wrapUntrusted(words(200_000), { server: 'files', tool: 'dump' }, () =>
      new Uint8Array(8).fill(0x5a),
    );
    const agent = new AgentSession({
      provider,
      tools: new FakeTools({ files__dump: answers(huge) }),
      system: 'test system',
      contextWindow: () => 20_000,
    });
    await agent.send('Dump it.');
    const [request] = sent;
    const result = request?.flatMap((m) => (m.role === 'tool' ? m.results : []))[0];
    const payload = unwrapUntrusted(result?.content ?? '')?.payload ?? '';
    expect(payload).toMatch(/^word word .*…\[truncated: showing [\d,]+ of 999,999 characters\]$/);
    const tokens = (request ?? []).reduce((sum, m) => sum + messageTokens(m, 'none'), 0);
    expect(tokens).toBeLessThanOrEqual(20_000 - outputReserve(20_000));
    expect(agent.conversation.notSent).toBeUndefined();
  });
});

describe('usage', () => {
  it('is kept with each message the model wrote and summed for the run', async () => {
    const provider = new ScriptedProvider([
      toolTurn([{ id: 'c1', name: 'files__read', arguments: {} }]),
      {
        steps: [
          { type: 'text-delta', text: 'done' },
          { type: 'finish', reason: 'stop', usage: { inputTokens: 120, outputTokens: 7 } },
        ],
      },
      // A provider that reports nothing: nothing is invented.
      {
        steps: [
          { type: 'text-delta', text: 'quiet' },
          { type: 'finish', reason: 'stop' },
        ],
      },
    ]);
    const { agent } = session(provider, { tokens: undefined });
    const summary = await agent.send('go');
    expect(summary.usage).toEqual({ inputTokens: 130, outputTokens: 12 });
    const written = agent.conversation.messages
      .slice(4)
      .flatMap((m) => (m.role === 'assistant' ? [m.usage] : []));
    expect(written).toEqual([
      { inputTokens: 10, outputTokens: 5 },
      { inputTokens: 120, outputTokens: 7 },
    ]);
    await agent.send('again');
    expect(agent.conversation.messages.at(-1)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'quiet' }],
    });
  });
});

describe('the conversation model', () => {
  it('is set and cleared on the conversation, and a new chat starts without one', () => {
    const { agent, saved } = session(new ScriptedProvider([]), { tokens: undefined });
    agent.setModel('gpt-4.1-mini');
    expect(agent.conversation.model).toBe('gpt-4.1-mini');
    expect(saved.at(-1)?.model).toBe('gpt-4.1-mini');
    agent.setModel(undefined);
    expect(agent.conversation.model).toBeUndefined();
    agent.setModel('claude-haiku-4-5');
    expect(agent.newChat().model).toBeUndefined();
  });
});
