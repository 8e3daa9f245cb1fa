import type { ApprovalRequest, ApprovalToken } from '../../protocol/tools';
import type { ApprovalDecision } from '../messaging/approvals';
import { isRequestFailure, type RequestFailure } from './host-errors';
import type { HostRequester } from './host-tool-call';

/**
 * What the user's answer to a host approval (design D8) does, before the router re-sends the
 * call (tool-router.ts, `callMcpTool`):
 * - allow once: the call may be re-sent with `{requestId, nonce}` (accepted once, unexpired);
 * - always: `policy/set` allow-lists the tool, and the call is still re-sent with the approval
 *   (an explicit `destructiveHint` still asks even when allow-listed, so the approval must ride
 *   along);
 * - deny: `approvals/deny` retires the request, and the model is told the user said no.
 * Anything that keeps the user from deciding (an abort, a throwing card) is a deny: a missing
 * approval is a denial (style habit 11).
 */

export type ApprovalResolution =
  | {
      readonly kind: 'approved';
      readonly decision: Exclude<ApprovalDecision, 'deny'>;
      /** Binds the re-sent call to this approval. */
      readonly approval: ApprovalToken;
      /** "Always" could not be saved (the call may still run once, as the user allowed it). */
      readonly policyError?: RequestFailure;
    }
  | { readonly kind: 'denied' };

/**
 * Asks the user about one approval request through `ask` and carries out the answer. A card that
 * throws retires the request, then the error propagates.
 */
export async function resolveApproval(
  host: HostRequester,
  request: ApprovalRequest,
  ask: (request: ApprovalRequest) => Promise<ApprovalDecision>,
  signal?: AbortSignal,
): Promise<ApprovalResolution> {
  let decision: ApprovalDecision;
  try {
    decision = signal?.aborted === true ? 'deny' : await ask(request);
  } catch (error) {
    await retire(host, request);
    throw error;
  }
  // An "allow" that arrives after the run stopped is too late: nobody is waiting for the call.
  if (signal?.aborted === true) decision = 'deny';

  const approval = { requestId: request.requestId, nonce: request.nonce };
  switch (decision) {
    case 'deny':
      await retire(host, request);
      return { kind: 'denied' };
    case 'allow-once':
      return { kind: 'approved', decision, approval };
    case 'always': {
      let policyError: RequestFailure | undefined;
      try {
        await host.request('policy/set', { tool: request.exposedName, policy: 'allow' });
      } catch (error) {
        if (!isRequestFailure(error)) throw error;
        policyError = error;
      }
      return {
        kind: 'approved',
        decision,
        approval,
        ...(policyError === undefined ? {} : { policyError }),
      };
    }
  }
}

/** Best effort: a host that is gone has forgotten the request anyway, and it expires regardless. */
async function retire(host: HostRequester, request: ApprovalRequest): Promise<void> {
  try {
    await host.request('approvals/deny', { requestId: request.requestId });
  } catch {
    // Nothing to do: the approval can no longer be redeemed once the host restarts or it expires.
  }
}
