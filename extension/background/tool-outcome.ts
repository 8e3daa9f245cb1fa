import type { BuiltinToolName } from '../../protocol/builtin-tools';
import type { ToolPolicyState, ApprovalRequest } from '../../protocol/tools';
import type { ApprovalDecision } from './approval-flow';
import type { ProviderTool } from './providers/provider';

/**
 * The agent loop's view of tools: what a run offers the model (ToolSpec), what a call comes back
 * as (ToolOutcome), how a call asks the user (ApprovalPrompt), and the router that does it.
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

/**
 * A finished call. The model reads `content`; `status` is for the UI and says which:
 * - `ok`: the tool ran (a tool that reports its own failure is `error`);
 * - `error`: it failed, or may have failed (the host crashed mid-call): `content` says which;
 * - `denied`: the user or their policy said no;
 * - `cancelled`: the user stopped the run, before or during the call.
 */
export interface ToolOutcome {
  readonly status: 'ok' | 'error' | 'denied' | 'cancelled';
  readonly content: string;
  /** Something the user should know that the model need not (e.g. "Always" was not saved). */
  readonly notice?: string;
}

/** What an approval card shows: a host approval for an MCP call, or one of our own tools. */
export type ApprovalPrompt =
  | { readonly kind: 'mcp'; readonly request: ApprovalRequest }
  | {
      readonly kind: 'builtin';
      readonly tool: BuiltinToolName;
      readonly arguments: Readonly<Record<string, unknown>>;
    };

/** Shows a prompt and resolves with the user's decision; resolves `deny` when the run stops. */
export type ApprovalPrompter = (prompt: ApprovalPrompt) => Promise<ApprovalDecision>;

export interface ToolRouter {
  /** The tools of one run: built-in tools and the host's namespaced MCP tools. */
  list(): readonly ToolSpec[] | Promise<readonly ToolSpec[]>;
  /**
   * Runs one call. Should not throw (the loop turns a throw into an `error` outcome) and should
   * settle soon after `signal` aborts (the loop stops waiting at once either way).
   */
  call(
    name: string,
    args: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
    prompt: ApprovalPrompter,
  ): Promise<ToolOutcome>;
}

/** Texts the model reads when a call did not produce a result. They say what happened. */
export const OUTCOME_TEXT = {
  userDenied: 'The user denied this call.',
  stoppedBeforeRun: 'Not run: the user stopped the conversation before this call started.',
  stoppedDuringRun:
    'The user stopped this call before it finished; it may or may not have had an effect.',
  modelFailed: 'Not run: the model response that requested this call failed before it finished.',
} as const;
