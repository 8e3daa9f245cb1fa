import type { ParamsOf, RequestMethod, ResultOf } from '../../protocol/methods';
import {
  ApprovalRequestSchema,
  type ApprovalRequest,
  type CallToolResult,
} from '../../protocol/tools';
import { ClientRequestError, HostRequestError, type RequestFailure } from './host-errors';
import type { ApprovalDecision } from '../messaging/approvals';
import type { ProgressParams, RequestOptions } from './request-table';

/**
 * `tools/call` through the host's approval gate (design D8). A tool whose policy is `ask` fails
 * the first call with `approval-required` and an ApprovalRequest bound to these exact arguments;
 * the user decides, and:
 * - allow once: the call is re-sent with `{requestId, nonce}` (accepted once, unexpired);
 * - always: `policy/set` allow-lists the tool, then the call is re-sent with the approval (an
 *   explicit `destructiveHint` still asks even when allow-listed, so the approval must ride along);
 * - deny: `approvals/deny` retires the request, and the model is told the user said no.
 * Anything that keeps the user from deciding (an abort, a throwing callback) is a deny: a
 * missing approval is a denial (style habit 11).
 */

/** The slice of HostClient the flow needs; tests may pass anything with this shape. */
export interface HostRequester {
  request<M extends RequestMethod>(
    method: M,
    params: ParamsOf<M>,
    options?: RequestOptions,
  ): Promise<ResultOf<M>>;
}

export interface CallToolOptions {
  /** Shows the request to the user and resolves with their decision. */
  readonly onApprovalRequired: (
    request: ApprovalRequest,
    signal: AbortSignal | undefined,
  ) => Promise<ApprovalDecision>;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ProgressParams) => void;
  /** The active profile (design D10); the host refuses a tool it hides. Omitted: default. */
  readonly profile?: string;
}

export type HostToolCallOutcome =
  | {
      readonly status: 'result';
      readonly result: CallToolResult;
      /** Present when the user was asked. */
      readonly approval?: {
        readonly request: ApprovalRequest;
        readonly decision: ApprovalDecision;
      };
      /** "Always" could not be saved (the call still ran once, as the user allowed it). */
      readonly policyError?: RequestFailure;
    }
  | { readonly status: 'denied-by-user'; readonly request: ApprovalRequest };

/** Calls a tool, asking the user through `onApprovalRequired` when the host's policy says ask. */
export async function callToolWithApproval(
  host: HostRequester,
  name: string,
  args: Record<string, unknown> | undefined,
  options: CallToolOptions,
): Promise<HostToolCallOutcome> {
  const { signal, onProgress } = options;
  const requestOptions = {
    ...(signal === undefined ? {} : { signal }),
    ...(onProgress === undefined ? {} : { onProgress }),
  };
  const params: ParamsOf<'tools/call'> = {
    name,
    ...(args === undefined ? {} : { arguments: args }),
    ...(options.profile === undefined ? {} : { profile: options.profile }),
  };
  let request: ApprovalRequest;
  try {
    return { status: 'result', result: await host.request('tools/call', params, requestOptions) };
  } catch (error) {
    if (!(error instanceof HostRequestError) || error.reason !== 'approval-required') throw error;
    const parsed = ApprovalRequestSchema.safeParse(error.data.approval);
    if (!parsed.success || parsed.data.exposedName !== name) {
      throw new ClientRequestError(
        'tools/call',
        'invalid-response',
        `The host asked for an approval of '${name}' without a valid approval request; the call was not run. Update the host and the extension to the same release.`,
      );
    }
    request = parsed.data;
  }

  let decision: ApprovalDecision;
  try {
    decision =
      signal?.aborted === true ? 'deny' : await options.onApprovalRequired(request, signal);
  } catch (error) {
    await retire(host, request);
    throw error;
  }
  if (signal?.aborted === true) decision = 'deny';

  const approval = { requestId: request.requestId, nonce: request.nonce };
  switch (decision) {
    case 'deny':
      await retire(host, request);
      return { status: 'denied-by-user', request };
    case 'allow-once': {
      const result = await host.request('tools/call', { ...params, approval }, requestOptions);
      return { status: 'result', result, approval: { request, decision } };
    }
    case 'always': {
      let policyError: RequestFailure | undefined;
      try {
        await host.request('policy/set', { tool: name, policy: 'allow' });
      } catch (error) {
        if (!(error instanceof HostRequestError || error instanceof ClientRequestError))
          throw error;
        policyError = error;
      }
      const result = await host.request('tools/call', { ...params, approval }, requestOptions);
      return {
        status: 'result',
        result,
        approval: { request, decision },
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
