import { describe, expect, it, test } from 'vitest';
import approvalInvalid from '../../protocol/fixtures/errors/approval-invalid.json';
import approvalRequired from '../../protocol/fixtures/errors/approval-required.json';
import denied from '../../protocol/fixtures/errors/denied.json';
import toolsCall from '../../protocol/fixtures/tools-call.json';
import type { JsonRpcRequest } from '../../protocol/jsonrpc';
import { sendApprovedToolCall, sendToolCall } from './host-tool-call';
import { connectedHostClient } from './testing/connected-host-client';
import type { FakePort } from './testing/fake-port';

/*
 * The one place where the host's `approval-required` error becomes a call state. Dangerous
 * direction: an approval request for another tool (or a malformed one) taken as a question about
 * this call, or an approval-bound call that is asked about again instead of failing.
 */

const APPROVAL = approvalRequired.error.data.approval;
const PARAMS = { name: APPROVAL.exposedName, arguments: APPROVAL.arguments };

type Answer = (port: FakePort, request: JsonRpcRequest) => void;

async function hostAnswering(answer: Answer) {
  const { native, host } = await connectedHostClient();
  native.port.onRequest = (request) => {
    answer(native.port, request);
  };
  return { native, host };
}

const approvalFor =
  (exposedName: string): Answer =>
  (port, request) => {
    const error = structuredClone(approvalRequired.error);
    error.data.approval.exposedName = exposedName;
    port.fail(request.id, error);
  };

describe('sendToolCall', () => {
  it('a result is the result state', async () => {
    const { host } = await hostAnswering((port, r) => {
      port.respond(r.id, toolsCall.result);
    });
    expect(await sendToolCall(host, PARAMS)).toEqual({ kind: 'result', result: toolsCall.result });
  });

  it('approval-required is the approval-required state, with the parsed request', async () => {
    const { host } = await hostAnswering(approvalFor(APPROVAL.exposedName));
    expect(await sendToolCall(host, PARAMS)).toEqual({
      kind: 'approval-required',
      request: APPROVAL,
    });
  });

  test.each<[string, Answer]>([
    ['an approval for another tool', approvalFor('other__tool')],
    [
      'an approval request that does not parse',
      (port, r) => {
        port.fail(r.id, { ...approvalRequired.error, data: { reason: 'approval-required' } });
      },
    ],
  ])('%s is an invalid response, never a question', async (_name, answer) => {
    const { host } = await hostAnswering(answer);
    await expect(sendToolCall(host, PARAMS)).rejects.toMatchObject({
      kind: 'client',
      reason: 'invalid-response',
    });
  });

  it('every other host error still throws, its reason kept', async () => {
    const { host } = await hostAnswering((port, r) => {
      port.fail(r.id, denied.error);
    });
    await expect(sendToolCall(host, PARAMS)).rejects.toMatchObject({
      kind: 'host',
      reason: 'denied',
    });
  });
});

describe('sendApprovedToolCall', () => {
  const token = { requestId: APPROVAL.requestId, nonce: APPROVAL.nonce };

  it('sends the call bound to the approval', async () => {
    const { native, host } = await hostAnswering((port, r) => {
      port.respond(r.id, toolsCall.result);
    });
    expect(await sendApprovedToolCall(host, PARAMS, token)).toEqual(toolsCall.result);
    expect(native.port.lastRequest('tools/call').params).toEqual({ ...PARAMS, approval: token });
  });

  test.each<[string, Answer]>([
    ['asked again', approvalFor(APPROVAL.exposedName)],
    [
      'refused',
      (port, r) => {
        port.fail(r.id, approvalInvalid.error);
      },
    ],
  ])('a bound call the host %s fails: it is never asked about twice', async (_name, answer) => {
    const { host } = await hostAnswering(answer);
    await expect(sendApprovedToolCall(host, PARAMS, token)).rejects.toMatchObject({
      kind: 'host',
    });
  });
});
