import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import approvalRequired from '../../protocol/fixtures/errors/approval-required.json';
import toolsList from '../../protocol/fixtures/tools-list.json';
import { AgentSession } from './agent-session';
import type { AgentEvent } from '../messaging/agent-events';
import { createBuiltinTools, type TabsApi } from './builtin-tools';
import { pairingProblems } from './pairing';
import type { ChatMessage, Conversation } from '../messaging/conversation';
import { ScriptedProvider, textTurn, toolTurn } from './providers/scripted-provider';
import { OUTCOME_TEXT } from './tool-outcome';
import { createToolRouter } from './tool-router';
import { flush } from '../testing/flush';
import { connectedHostClient } from './testing/connected-host-client';

/*
 * The loop, the router and the host client together, over an in-memory port. Dangerous
 * direction: a host that dies mid-call, or a user who says no, leaving a tool_use without its
 * tool_result (every later turn of the chat fails) or the model believing the call ran.
 */

const noTabs: TabsApi = {
  activeTab: () => Promise.resolve(undefined),
  getTab: () => Promise.resolve(undefined),
  listTabs: () => Promise.resolve([]),
  readPageText: () => Promise.resolve(''),
  readSelection: () => Promise.resolve(''),
  captureVisible: () => Promise.reject(new Error('no capture in this test')),
};

const WithApproval = z.object({ approval: z.object({ requestId: z.string() }) });

async function connected() {
  const { native, clock, host } = await connectedHostClient();
  const router = createToolRouter({ builtins: createBuiltinTools(noTabs), host });
  return { native, clock, host, router };
}

function results(messages: readonly ChatMessage[]) {
  return messages.flatMap((m) => (m.role === 'tool' ? m.results : []));
}

function record(agent: AgentSession) {
  const events: AgentEvent[] = [];
  const saved: Conversation[] = [];
  agent.subscribe((event) => {
    events.push(event);
    if (event.type === 'conversation-changed') saved.push(event.conversation);
  });
  return { events, saved };
}

describe('the agent loop against the host', () => {
  it('a host crash during a tool call gives the model a result saying so, and the run goes on', async () => {
    const { native, host, router, clock } = await connected();
    native.port.onRequest = (request) => {
      if (request.method === 'tools/list') native.port.respond(request.id, toolsList.result);
      // tools/call: no answer; the host dies instead (below).
    };
    const provider = new ScriptedProvider([
      toolTurn([{ id: 'c1', name: 'shop-db__query_orders', arguments: { status: 'open' } }]),
      textTurn('The host stopped; run `switchyard doctor`.', (request) => {
        expect(results(request.messages)).toEqual([
          expect.objectContaining({
            callId: 'c1',
            status: 'error',
            content: expect.stringMatching(
              /Native host has exited.*may or may not have run/,
            ) as unknown,
          }),
        ]);
      }),
    ]);
    const agent = new AgentSession({ provider, tools: router });
    const { saved } = record(agent);
    const sending = agent.send('Any open orders?');
    await flush();
    expect(native.port.lastRequest('tools/call').params).toEqual({
      name: 'shop-db__query_orders',
      arguments: { status: 'open' },
    });
    native.port.drop('Native host has exited.');
    expect(await sending).toMatchObject({ reason: 'completed', toolRounds: 1 });
    expect(host.state).toMatchObject({ state: 'crashed', retryInMs: 1000 });
    for (const conversation of saved) expect(pairingProblems(conversation.messages)).toEqual([]);

    // The client reconnects on its own; the next message has the host's tools again.
    clock.advance(1000);
    native.port.answerHello();
    await flush();
    expect(host.state.state).toBe('connected');
  });

  it('a denied approval card: the host retires the request and the model is told', async () => {
    const { native, router } = await connected();
    native.port.onRequest = (request) => {
      switch (request.method) {
        case 'tools/list':
          native.port.respond(request.id, toolsList.result);
          return;
        case 'tools/call':
          if (WithApproval.safeParse(request.params).success) throw new Error('must not run');
          native.port.fail(request.id, approvalRequired.error);
          return;
        case 'approvals/deny':
          native.port.respond(request.id, { denied: true });
          return;
        default:
          throw new Error(`unexpected ${request.method}`);
      }
    };
    const provider = new ScriptedProvider([
      toolTurn([
        {
          id: 'c1',
          name: 'shop-db__refund_order',
          arguments: approvalRequired.error.data.approval.arguments,
        },
      ]),
      textTurn('Understood, no refund.'),
    ]);
    const agent = new AgentSession({ provider, tools: router });
    const { events, saved } = record(agent);
    agent.subscribe((event) => {
      if (event.type === 'approval-needed') agent.resolveApproval(event.approvalId, 'deny');
    });
    expect(await agent.send('Refund A-10483')).toMatchObject({ reason: 'completed' });
    const card = events.find((e) => e.type === 'approval-needed');
    expect(card).toMatchObject({
      callId: 'c1',
      prompt: { kind: 'mcp', request: { exposedName: 'shop-db__refund_order' } },
    });
    expect(native.port.lastRequest('approvals/deny').params).toEqual({
      requestId: approvalRequired.error.data.approval.requestId,
    });
    expect(results(agent.conversation.messages)).toEqual([
      {
        type: 'tool-result',
        callId: 'c1',
        name: 'shop-db__refund_order',
        status: 'denied',
        content: OUTCOME_TEXT.userDenied,
      },
    ]);
    for (const conversation of saved) expect(pairingProblems(conversation.messages)).toEqual([]);
  });

  it('Stop while the approval card is open denies it at the host', async () => {
    const { native, router } = await connected();
    native.port.onRequest = (request) => {
      if (request.method === 'tools/list') native.port.respond(request.id, toolsList.result);
      else if (request.method === 'tools/call')
        native.port.fail(request.id, approvalRequired.error);
      else if (request.method === 'approvals/deny')
        native.port.respond(request.id, { denied: true });
    };
    const provider = new ScriptedProvider([
      toolTurn([
        {
          id: 'c1',
          name: 'shop-db__refund_order',
          arguments: approvalRequired.error.data.approval.arguments,
        },
      ]),
    ]);
    const agent = new AgentSession({ provider, tools: router });
    const sending = agent.send('Refund it');
    await flush();
    expect(agent.pendingApprovals()).toHaveLength(1);
    await agent.stop();
    expect(await sending).toMatchObject({ reason: 'aborted' });
    await flush();
    expect(native.port.requests().map((r) => r.method)).toContain('approvals/deny');
    expect(results(agent.conversation.messages)).toMatchObject([
      { callId: 'c1', status: 'cancelled' },
    ]);
  });
});
