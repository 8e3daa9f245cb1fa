import type { BuiltinToolName } from '../../protocol/builtin-tools';
import type { ApprovalRequest } from '../../protocol/tools';

/**
 * Approval cards as pages and the worker both see them: what a card shows, and what the user
 * answers. The worker decides what an answer does (background/approval-flow.ts).
 */

/** The user's answer to an approval card. A card nobody answers resolves `deny` (style habit 11). */
export type ApprovalDecision = 'allow-once' | 'always' | 'deny';

/** What an approval card shows: a host approval for an MCP call, or one of our own tools. */
export type ApprovalPrompt =
  | { readonly kind: 'mcp'; readonly request: ApprovalRequest }
  | {
      readonly kind: 'builtin';
      readonly tool: BuiltinToolName;
      readonly arguments: Readonly<Record<string, unknown>>;
    };

/** An approval a run is waiting for, as the side panel shows it. */
export interface PendingApproval {
  readonly approvalId: string;
  readonly runId: string;
  readonly callId: string;
  readonly prompt: ApprovalPrompt;
  /**
   * Present when an MCP App asked for the call, not the model (issue 12): the app's server. Such
   * a card belongs to no run: it stays until answered or expired, whatever the chat does.
   */
  readonly fromApp?: string;
}

/** The run id app-initiated approvals carry: they belong to no run of the agent. */
export const APP_CALLS_RUN_ID = 'app-calls';
