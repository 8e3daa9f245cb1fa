import type { AgentEvent } from '../../messaging/agent-events';
import { APP_CALLS_RUN_ID, type PendingApproval } from '../../messaging/approvals';
import type { RunEndReason } from '../../messaging/agent-events';
import type { ConnectionState } from '../../messaging/connection';
import { sameTranscript, type Conversation } from '../../messaging/conversation';
import type { CallProgress, ToolOutcome } from '../../messaging/agent-events';
import type {
  ActiveProfileView,
  ContextMeter,
  PageEvent,
  SessionSnapshot,
} from '../../messaging/ui-protocol';
import type { ProviderAccess, ProviderSettingsView } from '../../messaging/provider';
import type { HistorySaveProblem } from '../../messaging/history';
import { profileGoneText } from './profile-chip';

/**
 * The side panel's state as a pure reducer over the worker's snapshot and pushed events
 * (ui-protocol.ts). The conversation is the worker's (persisted, always paired); on top of it the
 * panel keeps what only the event stream carries: the text streaming into the current assistant
 * bubble, which calls are running, the approvals waiting, and inline notices (model errors, why a
 * run ended).
 */

/** What the event stream says about one call before the transcript has its result. */
export type LiveCall =
  | {
      readonly phase: 'running';
      readonly name: string;
      /** The server's last progress report, if it sent one. */
      readonly progress?: CallProgress;
      /** The user pressed Cancel on it; its result is on the way. */
      readonly cancelling?: boolean;
    }
  | { readonly phase: 'finished'; readonly name: string; readonly status: ToolOutcome['status'] };

export interface ChatNotice {
  readonly id: number;
  readonly tone: 'error' | 'info';
  readonly message: string;
  /** Shown after this many messages of the conversation. */
  readonly afterMessage: number;
  /** The provider's site access, offered when its absence is the cause (issue 14). */
  readonly access?: ProviderAccess;
}

export interface ChatState {
  /** False until the first snapshot arrived. */
  readonly loaded: boolean;
  readonly conversation: Conversation | null;
  readonly running: boolean;
  /** The run the events belong to; null between runs (or mid-run, until its first event). */
  readonly runId: string | null;
  /** The run that ended last: its late events (if any) must not restart the spinner. */
  readonly endedRunId: string | null;
  /** A `chat/send` is on its way and not yet answered. */
  readonly sending: boolean;
  /** Text of the current model turn, not yet in the transcript. */
  readonly streamingText: string;
  readonly liveCalls: ReadonlyMap<string, LiveCall>;
  readonly approvals: readonly PendingApproval[];
  readonly connection: ConnectionState;
  readonly provider: ProviderSettingsView | null;
  readonly autopilot: boolean;
  readonly context: ContextMeter | null;
  readonly profile: ActiveProfileView | null;
  /** Whether `profile` is the host's answer; null and unsettled is "not known yet". */
  readonly profileSettled: boolean;
  /** The last save of the conversations failed (issue 14); null when it succeeded. */
  readonly saveProblem: HistorySaveProblem | null;
  readonly notices: readonly ChatNotice[];
  readonly nextNoticeId: number;
}

export type ChatAction =
  | { readonly type: 'snapshot'; readonly snapshot: SessionSnapshot }
  | { readonly type: 'event'; readonly event: PageEvent }
  | { readonly type: 'send-requested' }
  | { readonly type: 'send-settled' }
  /** A page request failed: shown inline with what the worker said. */
  | { readonly type: 'request-failed'; readonly message: string }
  | { readonly type: 'dismiss-notice'; readonly id: number }
  /** The worker answered `approval/resolve` with `resolved: false`: that card is stale. */
  | { readonly type: 'approval-gone'; readonly approvalId: string }
  /** The user pressed Cancel on one running call. */
  | { readonly type: 'cancel-requested'; readonly callId: string }
  | { readonly type: 'autopilot'; readonly on: boolean };

export const initialChatState: ChatState = {
  loaded: false,
  conversation: null,
  running: false,
  runId: null,
  endedRunId: null,
  sending: false,
  streamingText: '',
  liveCalls: new Map(),
  approvals: [],
  connection: { state: 'connecting', attempt: 0 },
  provider: null,
  autopilot: false,
  context: null,
  profile: null,
  profileSettled: false,
  saveProblem: null,
  notices: [],
  nextNoticeId: 1,
};

/** Why a run ended, for the user; null when it simply finished. */
export function endNotice(
  reason: RunEndReason,
  toolRounds: number,
): { readonly tone: 'error' | 'info'; readonly message: string } | null {
  switch (reason) {
    case 'completed':
    case 'error': // the `error` event before `done` already said what went wrong
      return null;
    case 'aborted':
      return { tone: 'info', message: 'Stopped.' };
    case 'length':
      return {
        tone: 'info',
        message: "The reply was cut off at the model's output limit. Ask it to continue.",
      };
    case 'content-filter':
      return { tone: 'error', message: "The provider's content filter stopped this reply." };
    case 'max-tool-rounds':
      return {
        tone: 'info',
        message: `Paused after ${toolRounds} rounds of tool calls (the limit per message). Ask it to continue if you want more.`,
      };
  }
}

function addNotice(
  state: ChatState,
  tone: ChatNotice['tone'],
  message: string,
  access?: ProviderAccess,
): ChatState {
  const notice: ChatNotice = {
    id: state.nextNoticeId,
    tone,
    message,
    afterMessage: state.conversation?.messages.length ?? 0,
    ...(access === undefined ? {} : { access }),
  };
  return { ...state, notices: [...state.notices, notice], nextNoticeId: state.nextNoticeId + 1 };
}

function withLiveCall(state: ChatState, callId: string, call: LiveCall): ChatState {
  const liveCalls = new Map(state.liveCalls);
  liveCalls.set(callId, call);
  return { ...state, liveCalls };
}

function endRun(state: ChatState): ChatState {
  return {
    ...state,
    running: false,
    runId: null,
    endedRunId: state.runId ?? state.endedRunId,
    sending: false,
    streamingText: '',
    liveCalls: new Map(),
    // An app's cards belong to no run: they stay until answered.
    approvals: state.approvals.filter((a) => a.fromApp !== undefined),
  };
}

function conversationChanged(state: ChatState, conversation: Conversation): ChatState {
  const previous = state.conversation;
  // The turn's text is now in the transcript, unless only the conversation's details changed.
  const kept = previous !== null && sameTranscript(previous, conversation);
  const next: ChatState = {
    ...state,
    conversation,
    streamingText: kept ? state.streamingText : '',
  };
  if (previous === null || previous.id === conversation.id) return next;
  // New Chat: the worker dropped the old run without a `done`, and its approvals with it.
  return { ...endRun(next), notices: [] };
}

/** Whether a run event belongs to the run the panel follows (or adopts it, if none). */
function followsRun(state: ChatState, runId: string): boolean {
  if (runId === state.endedRunId) return false;
  return state.runId === null || state.runId === runId;
}

function applyAgentEvent(state: ChatState, event: AgentEvent): ChatState {
  if (event.type === 'conversation-changed') return conversationChanged(state, event.conversation);
  if (event.type === 'run-started') {
    return {
      ...state,
      running: true,
      runId: event.runId,
      sending: false,
      streamingText: '',
      liveCalls: new Map(),
      approvals: state.approvals.filter((a) => a.runId === event.runId || a.fromApp !== undefined),
    };
  }
  // An MCP App's call (issue 12) asks outside any run: its card neither follows nor starts one.
  if (event.type === 'approval-needed' && event.fromApp !== undefined) {
    if (state.approvals.some((a) => a.approvalId === event.approvalId)) return state;
    const { approvalId, runId, callId, prompt, fromApp } = event;
    return {
      ...state,
      approvals: [...state.approvals, { approvalId, runId, callId, prompt, fromApp }],
    };
  }
  if (event.type === 'approval-resolved' && event.runId === APP_CALLS_RUN_ID) {
    return {
      ...state,
      approvals: state.approvals.filter((a) => a.approvalId !== event.approvalId),
    };
  }
  // Every other event belongs to a run: one the panel does not follow is stale.
  if (!followsRun(state, event.runId)) return state;
  const adopted: ChatState = { ...state, running: true, runId: event.runId };
  switch (event.type) {
    case 'text-delta':
      return { ...adopted, streamingText: adopted.streamingText + event.text };
    case 'tool-call-started':
      return withLiveCall(adopted, event.callId, { phase: 'running', name: event.name });
    case 'tool-call-progress': {
      const call = adopted.liveCalls.get(event.callId);
      if (call?.phase !== 'running') return adopted;
      return withLiveCall(adopted, event.callId, { ...call, progress: event.progress });
    }
    case 'tool-call-finished': {
      const finished = withLiveCall(adopted, event.callId, {
        phase: 'finished',
        name: event.name,
        status: event.outcome.status,
      });
      const { notice } = event.outcome;
      return notice === undefined ? finished : addNotice(finished, 'error', notice);
    }
    case 'approval-needed': {
      if (adopted.approvals.some((a) => a.approvalId === event.approvalId)) return adopted;
      const { approvalId, runId, callId, prompt } = event;
      return {
        ...adopted,
        approvals: [...adopted.approvals, { approvalId, runId, callId, prompt }],
      };
    }
    case 'approval-resolved':
      return {
        ...adopted,
        approvals: adopted.approvals.filter((a) => a.approvalId !== event.approvalId),
      };
    case 'error':
      return addNotice(adopted, 'error', event.message, event.access);
    case 'done': {
      const ended = endRun(adopted);
      const notice = endNotice(event.reason, event.toolRounds);
      return notice === null ? ended : addNotice(ended, notice.tone, notice.message);
    }
  }
}

function applyPageEvent(state: ChatState, event: PageEvent): ChatState {
  switch (event.type) {
    case 'agent':
      return applyAgentEvent(state, event.event);
    case 'connection':
      return { ...state, connection: event.state };
    case 'context':
      return { ...state, context: event.context };
    case 'profile':
      return { ...state, profile: event.profile, profileSettled: event.settled };
    case 'storage':
      return { ...state, saveProblem: event.problem };
    case 'profile-gone':
      return addNotice(state, 'info', profileGoneText(event.name, event.using));
    case 'settings':
      return { ...state, provider: event.provider, autopilot: event.autopilot };
    case 'host':
    case 'elicitation':
    case 'history':
      // Server and tool changes, servers' questions, the history: their sections re-read them.
      return state;
  }
}

function applySnapshot(state: ChatState, snapshot: SessionSnapshot): ChatState {
  const sameConversation = state.conversation?.id === snapshot.conversation.id;
  return {
    ...state,
    loaded: true,
    conversation: snapshot.conversation,
    running: snapshot.running,
    runId: snapshot.running
      ? (snapshot.run?.runId ?? snapshot.pendingApprovals[0]?.runId ?? null)
      : null,
    sending: false,
    streamingText: snapshot.running ? (snapshot.run?.streamingText ?? '') : '',
    liveCalls: new Map(),
    approvals: snapshot.pendingApprovals,
    connection: snapshot.connection,
    provider: snapshot.provider,
    autopilot: snapshot.autopilot,
    context: snapshot.context,
    profile: snapshot.profile,
    profileSettled: snapshot.profileSettled,
    saveProblem: snapshot.saveProblem,
    notices: sameConversation ? state.notices : [],
  };
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'snapshot':
      return applySnapshot(state, action.snapshot);
    case 'event':
      return applyPageEvent(state, action.event);
    case 'send-requested':
      return { ...state, sending: true };
    case 'send-settled':
      return { ...state, sending: false };
    case 'request-failed':
      return addNotice({ ...state, sending: false }, 'error', action.message);
    case 'dismiss-notice':
      return { ...state, notices: state.notices.filter((n) => n.id !== action.id) };
    case 'approval-gone':
      return {
        ...state,
        approvals: state.approvals.filter((a) => a.approvalId !== action.approvalId),
      };
    case 'cancel-requested': {
      const call = state.liveCalls.get(action.callId);
      if (call?.phase !== 'running') return state;
      return withLiveCall(state, action.callId, { ...call, cancelling: true });
    }
    case 'autopilot':
      return { ...state, autopilot: action.on };
  }
}

/** Whether the panel is busy with a reply (Send disabled, Stop shown). */
export function isBusy(state: Pick<ChatState, 'running' | 'sending'>): boolean {
  return state.running || state.sending;
}
