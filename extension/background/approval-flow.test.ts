import { describe, expect, it, test } from 'vitest';
import { z } from 'zod';
import approvalRequired from '../../protocol/fixtures/errors/approval-required.json';
import policySet from '../../protocol/fixtures/policy-set.json';
import toolsCall from '../../protocol/fixtures/tools-call.json';
import type { JsonRpcRequest } from '../../protocol/jsonrpc';
import type { ApprovalRequest } from '../../protocol/tools';
import type { ApprovalDecision } from '../messaging/approvals';
import { callMcpTool } from './tool-router';
import type { FakePort } from './testing/fake-port';
import { connectedHostClient } from './testing/connected-host-client';

/*
 * The approval card is the user's only say over an `ask` tool (design D8). Dangerous direction:
 * a call that runs without the user's "allow" (an approval re-sent after a deny, an abort or a
 * throwing card treated as consent, an approval for another tool accepted). An extra prompt or a
 * needless deny is only annoying.
 */

const TOOL = approvalRequired.error.data.approval.exposedName;
const ARGS = approvalRequired.error.data.approval.arguments;
const APPROVAL = {
  requestId: approvalRequired.error.data.approval.requestId,
  nonce: approvalRequired.error.data.approval.nonce,
};

interface HostScript {
  readonly policySetFails?: boolean;
  readonly approvalFor?: string;
  readonly needsApproval?: boolean;
}

const CarriesApproval = z.object({ approval: z.object({ requestId: z.string() }) });

/** Plays a host whose policy for TOOL is `ask`. */
function playHost(port: FakePort, script: HostScript = {}): void {
  port.onRequest = (request: JsonRpcRequest) => {
    switch (request.method) {
      case 'tools/call':
        if (!CarriesApproval.safeParse(request.params).success && script.needsApproval !== false) {
          const error = structuredClone(approvalRequired.error);
          error.data.approval.exposedName = script.approvalFor ?? TOOL;
          port.fail(request.id, error);
        } else {
          port.respond(request.id, toolsCall.result);
        }
        return;
      case 'policy/set':
        if (script.policySetFails === true) {
          port.fail(request.id, {
            message: 'config.json is malformed',
            data: { reason: 'config-invalid' },
          });
        } else {
          port.respond(request.id, policySet.result);
        }
        return;
      case 'approvals/deny':
        port.respond(request.id, { denied: true });
        return;
      default:
        port.fail(request.id, {
          code: -32601,
          message: 'unknown',
          data: { reason: 'unknown-method' },
        });
    }
  };
}

async function connectedClient(script: HostScript = {}) {
  const { native, host: client } = await connectedHostClient();
  playHost(native.port, script);
  const sent = () =>
    native.port
      .requests()
      .filter((r) => r.method !== 'host/hello')
      .map((r) => [r.method, r.params]);
  return { client, native, sent };
}

describe('callMcpTool approval branches', () => {
  test.each<[ApprovalDecision, unknown[][], string]>([
    [
      'allow-once',
      [
        ['tools/call', { name: TOOL, arguments: ARGS }],
        ['tools/call', { name: TOOL, arguments: ARGS, approval: APPROVAL }],
      ],
      'result',
    ],
    [
      'always',
      [
        ['tools/call', { name: TOOL, arguments: ARGS }],
        ['policy/set', { tool: TOOL, policy: 'allow' }],
        ['tools/call', { name: TOOL, arguments: ARGS, approval: APPROVAL }],
      ],
      'result',
    ],
    [
      'deny',
      [
        ['tools/call', { name: TOOL, arguments: ARGS }],
        ['approvals/deny', { requestId: APPROVAL.requestId }],
      ],
      'denied-by-user',
    ],
  ])('%s', async (decision, expectedRequests, status) => {
    const { client, sent } = await connectedClient();
    const shown: ApprovalRequest[] = [];
    const outcome = await callMcpTool(client, TOOL, ARGS, {
      ask: (request) => {
        shown.push(request);
        return Promise.resolve(decision);
      },
    });
    expect(outcome.status).toBe(status);
    expect(shown).toEqual([approvalRequired.error.data.approval]);
    expect(sent()).toEqual(expectedRequests);
  });

  it('does not ask when the policy allows the call', async () => {
    const { client, sent } = await connectedClient({ needsApproval: false });
    const outcome = await callMcpTool(client, TOOL, ARGS, {
      ask: () => Promise.reject(new Error('must not ask')),
    });
    expect(outcome).toEqual({ status: 'result', result: toolsCall.result });
    expect(sent()).toHaveLength(1);
  });

  it('a card that throws is a deny, and the error propagates', async () => {
    const { client, sent } = await connectedClient();
    await expect(
      callMcpTool(client, TOOL, ARGS, {
        ask: () => Promise.reject(new Error('the side panel closed')),
      }),
    ).rejects.toThrow('the side panel closed');
    expect(sent().map(([method]) => method)).toEqual(['tools/call', 'approvals/deny']);
  });

  it('an "allow" that arrives after an abort is a deny', async () => {
    const { client, sent } = await connectedClient();
    const controller = new AbortController();
    const outcome = await callMcpTool(client, TOOL, ARGS, {
      signal: controller.signal,
      ask: () => {
        controller.abort();
        return Promise.resolve('allow-once');
      },
    });
    expect(outcome.status).toBe('denied-by-user');
    expect(sent().map(([method]) => method)).toEqual(['tools/call', 'approvals/deny']);
  });

  it('refuses an approval request for another tool and runs nothing', async () => {
    const { client, sent } = await connectedClient({ approvalFor: 'other__tool' });
    await expect(
      callMcpTool(client, TOOL, ARGS, { ask: () => Promise.resolve('allow-once') }),
    ).rejects.toMatchObject({ kind: 'client', reason: 'invalid-response' });
    expect(sent().map(([method]) => method)).toEqual(['tools/call']);
  });

  it('"always" still runs the allowed call when the policy cannot be saved', async () => {
    const { client } = await connectedClient({ policySetFails: true });
    const outcome = await callMcpTool(client, TOOL, ARGS, {
      ask: () => Promise.resolve('always'),
    });
    expect(outcome).toMatchObject({
      status: 'result',
      policyError: { kind: 'host', reason: 'config-invalid' },
    });
  });
});
