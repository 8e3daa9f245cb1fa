import type { ToolPolicyState } from '../../protocol/tools';
import type { CallProgress, ToolOutcome } from '../messaging/agent-events';
import type { ApprovalDecision, ApprovalPrompt } from '../messaging/approvals';
import type { ProviderTool } from './providers/provider';

/**
 * The agent loop's view of tools: what a run offers the model (ToolSpec), how a call asks the
 * user (ApprovalPrompter), and the router that does it. What a call comes back as (ToolOutcome)
 * and what a card shows (ApprovalPrompt) are page vocabulary, in messaging/.
 */

export interface ToolSpec extends ProviderTool {
  /** Where calls go; the UI uses it for the approval card and the context meter. */
  readonly source:
    | { readonly kind: 'builtin' }
    | {
        readonly kind: 'mcp';
        readonly server: string;
        /** The server's own name for the tool (sanitized for display). */
        readonly tool: string;
        /** Estimated tokens this tool adds to every model turn (design D11). */
        readonly tokens: number;
        readonly policy: ToolPolicyState;
      };
}

/** Shows a prompt and resolves with the user's decision; resolves `deny` when the run stops. */
export type ApprovalPrompter = (prompt: ApprovalPrompt) => Promise<ApprovalDecision>;

export interface ToolRouter {
  /** The tools of one run: built-in tools and the host's namespaced MCP tools. */
  list(): readonly ToolSpec[] | Promise<readonly ToolSpec[]>;
  /**
   * Runs one call. Should not throw (the loop turns a throw into an `error` outcome) and should
   * settle soon after `signal` aborts (the loop stops waiting at once either way). `onProgress`
   * receives what the tool's server reports while it runs, where it reports anything.
   */
  call(
    name: string,
    args: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
    prompt: ApprovalPrompter,
    onProgress?: (progress: CallProgress) => void,
  ): Promise<ToolOutcome>;
  /**
   * Tool search mode (docs/decisions/0027): tools `list()` left out that the model has found
   * since, by `search_tools`. The loop offers them from its next model turn on.
   */
  discovered?(): readonly ToolSpec[];
}

/** Texts the model reads when a call did not produce a result. They say what happened. */
export const OUTCOME_TEXT = {
  userDenied: 'The user denied this call.',
  stoppedBeforeRun: 'Not run: the user stopped the conversation before this call started.',
  stoppedDuringRun:
    'The user stopped this call before it finished; it may or may not have had an effect.',
  cancelledBeforeRun: 'Not run: the user cancelled this call.',
  cancelledDuringRun:
    'The user cancelled this call before it finished; it may or may not have had an effect. Do not retry it unless the user asks.',
  modelFailed: 'Not run: the model response that requested this call failed before it finished.',
  profileUnknown:
    "Not run: the profile of the user's current tab could not be resolved, so this conversation has no MCP tools for now. Tell the user; they can retry once the host answers.",
} as const;
