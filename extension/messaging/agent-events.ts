import type { ApprovalDecision, PendingApproval } from './approvals';
import type { Conversation, ToolApp } from './conversation';
import type { ImagePart } from './images';
import type { ProviderAccess } from './provider';

/**
 * What the worker's agent reports while it runs, as the side panel receives it: the events of one
 * run (background/agent-loop.ts) and of the session around it (background/agent-session.ts).
 */

/** Tokens one model turn (or a whole run) used. */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export type RunEndReason =
  'completed' | 'length' | 'content-filter' | 'max-tool-rounds' | 'aborted' | 'error';

export interface RunSummary {
  readonly reason: RunEndReason;
  readonly usage: Usage;
  readonly toolRounds: number;
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
  /** The MCP App the result is shown with (issue 12). */
  readonly app?: ToolApp;
  /** Images the result carries, past the image gate (issue 14); `content` names each one. */
  readonly images?: readonly ImagePart[];
}

/**
 * How far a running call is, as its server reported it (`notifications/progress`, relayed by the
 * host with its message through the untrusted-text gate). `total` may be absent (unknown).
 */
export interface CallProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** What a run reports for the UI; it always ends with exactly one `done`. */
export type AgentRunEvent =
  | { readonly type: 'text-delta'; readonly text: string }
  | {
      readonly type: 'tool-call-started';
      readonly callId: string;
      readonly name: string;
      readonly arguments: unknown;
    }
  | {
      readonly type: 'tool-call-progress';
      readonly callId: string;
      readonly progress: CallProgress;
    }
  /** Also sent for calls that never started (stopped, over the limit, invalid). */
  | {
      readonly type: 'tool-call-finished';
      readonly callId: string;
      readonly name: string;
      readonly outcome: ToolOutcome;
    }
  /** `access`: the provider's site access, when its absence made the request fail (issue 14). */
  | { readonly type: 'error'; readonly message: string; readonly access?: ProviderAccess }
  | ({ readonly type: 'done' } & RunSummary);

/** What the session pushes: run events tagged with their run, approvals, transcript changes. */
export type AgentEvent =
  | ({ readonly runId: string } & AgentRunEvent)
  | { readonly type: 'run-started'; readonly runId: string }
  | ({ readonly type: 'approval-needed' } & PendingApproval)
  | {
      readonly type: 'approval-resolved';
      readonly runId: string;
      readonly approvalId: string;
      readonly decision: ApprovalDecision;
    }
  /** The conversation to persist (it is always paired). */
  | { readonly type: 'conversation-changed'; readonly conversation: Conversation };
