import type { ParamsOf, RequestMethod, ResultOf } from '../../protocol/methods';
import {
  ApprovalRequestSchema,
  type ApprovalRequest,
  type ApprovalToken,
  type CallToolResult,
} from '../../protocol/tools';
import { ClientRequestError, HostRequestError } from './host-errors';
import type { RequestOptions } from './request-table';

/**
 * One `tools/call` to the host, as a call state. On the wire a tool whose policy is `ask`
 * answers the first call with the JSON-RPC error `approval-required` (docs/protocol.md, Errors);
 * this is the one place on the extension's side where that error becomes a state the caller
 * switches on (`approval-required`, with the ApprovalRequest bound to these exact arguments)
 * rather than a failure. Every other error still throws (HostRequestError, ClientRequestError).
 */

/** The slice of HostClient a tool call needs; tests may pass anything with this shape. */
export interface HostRequester {
  request<M extends RequestMethod>(
    method: M,
    params: ParamsOf<M>,
    options?: RequestOptions,
  ): Promise<ResultOf<M>>;
}

export type ToolCallState =
  | { readonly kind: 'result'; readonly result: CallToolResult }
  | { readonly kind: 'approval-required'; readonly request: ApprovalRequest };

/** Sends a call not bound to an approval: it runs, or the host asks for one. */
export async function sendToolCall(
  host: HostRequester,
  params: Omit<ParamsOf<'tools/call'>, 'approval'>,
  options: RequestOptions = {},
): Promise<ToolCallState> {
  try {
    return { kind: 'result', result: await host.request('tools/call', params, options) };
  } catch (error) {
    if (!(error instanceof HostRequestError) || error.reason !== 'approval-required') throw error;
    const parsed = ApprovalRequestSchema.safeParse(error.data.approval);
    // An approval for another tool must never be shown, let alone redeemed, for this one.
    if (!parsed.success || parsed.data.exposedName !== params.name) {
      throw new ClientRequestError(
        'tools/call',
        'invalid-response',
        `The host asked for an approval of '${params.name}' without a valid approval request; the call was not run. Update the host and the extension to the same release.`,
      );
    }
    return { kind: 'approval-required', request: parsed.data };
  }
}

/**
 * Re-sends a call bound to the user's approval. It is never asked about again: if the host still
 * refuses it (`approval-required`, `approval-invalid`), that is a failure and it throws.
 */
export function sendApprovedToolCall(
  host: HostRequester,
  params: Omit<ParamsOf<'tools/call'>, 'approval'>,
  /** Accepted once, for the arguments it was issued for, unexpired. */
  approval: ApprovalToken,
  options: RequestOptions = {},
): Promise<CallToolResult> {
  return host.request('tools/call', { ...params, approval }, options);
}
