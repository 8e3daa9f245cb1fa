import { z } from 'zod';
import type { SignInStatus } from '../../protocol/auth';
import type { CallToolResult } from '../../protocol/tools';
import type { AgentEvent } from './agent-events';
import type { PendingApproval } from './approvals';
import type { ConnectionState } from './connection';
import type { ConnectionTestResult } from './connection-test';
import type { ContextWindow } from './context-window';
import { AttachmentRefSchema, MAX_TITLE_CHARS, type Conversation } from './conversation';
import {
  MAX_HISTORY_LIMIT,
  MIN_HISTORY_LIMIT,
  type HistoryExport,
  type HistoryPage,
  type HistoryPruned,
  type HistorySaveProblem,
} from './history';
import { ComposerFileSchema, MAX_FILES_PER_MESSAGE } from './images';
import { ProviderSettingsInputSchema, type ProviderSettingsView } from './provider';

/**
 * The contract between the extension's pages (side panel, popup, options) and its service
 * worker, which alone holds the native port and runs the agent (design D12). A page opens one
 * long-lived `runtime.connect` port named UI_PORT_NAME; over it the page sends requests with ids
 * and the worker answers them and pushes events. The worker accepts the port only from this
 * extension's own pages (see sender.ts) and parses every request with the schemas below.
 */

export const UI_PORT_NAME = 'switchyard-ui';

/** Longest chat message a page may send (about 25k tokens: paste a file, not a book). */
export const MAX_CHAT_MESSAGE_CHARS = 100_000;

/** The profile the active tab selects (design D10), as the side panel shows it. */
export interface ActiveProfileView {
  readonly id: string;
  readonly name: string;
  /** The URL pattern that selected it; null for the default profile. */
  readonly matchedPattern: string | null;
  /** The active tab's URL the profile was resolved for; null when it has none (a new tab). */
  readonly url: string | null;
  /** The profile of the conversation opened from the history, not the tab's (issue 14). */
  readonly pinned?: boolean;
}

/** Estimated tokens one model turn costs, by part (design D11). */
export interface ContextMeter {
  readonly system: number;
  /** The transcript the latest request sent, its images included. */
  readonly conversation: number;
  /** The images' part of `conversation` (by the provider's formula; 0 where none are sent). */
  readonly images: number;
  /** All tool definitions sent to the model: built-in plus MCP. */
  readonly tools: number;
  /** The MCP part of `tools`. */
  readonly mcpTools: number;
  /** MCP tool tokens per server, largest first. */
  readonly mcpByServer: readonly { readonly server: string; readonly tokens: number }[];
  readonly total: number;
  /** The active profile's tool budget, when it sets one. */
  readonly budget: { readonly limit: number; readonly used: number } | null;
  /** The model in use and its context window (issue 14); null when no model is set up. */
  readonly window: (ContextWindow & { readonly model: string }) | null;
  /**
   * Tool search mode (docs/decisions/0027), when on: why, and how many MCP tools the model finds
   * by search rather than being offered them (`mcpTools` counts only the offered, pinned ones).
   */
  readonly toolSearch: ToolSearchView | null;
}

/** Tool search mode as the side panel shows it. */
export interface ToolSearchView {
  /** `over-budget`: the profile's listing is over its budget; `setting`: the profile says on. */
  readonly reason: 'over-budget' | 'setting';
  /** MCP tools offered in full (the profile's pinned tools). */
  readonly pinned: number;
  /** Every MCP tool the model can find, pinned or not. */
  readonly searchable: number;
}

/** The provider's models for the panel's picker (issue 14): its own list, or why there is none. */
export interface ModelListing {
  /** Model ids as the provider lists them, sorted; empty when it has no list. */
  readonly models: readonly string[];
  /** Why the list could not be read, for the picker (a model can still be typed); null: read. */
  readonly problem: string | null;
}

/** Everything a page needs to draw itself when it opens (or the worker restarted). */
export interface SessionSnapshot {
  readonly conversation: Conversation;
  readonly running: boolean;
  /** The run in progress and the text it streamed since the transcript last changed. */
  readonly run: { readonly runId: string; readonly streamingText: string } | null;
  readonly pendingApprovals: readonly PendingApproval[];
  readonly connection: ConnectionState;
  readonly provider: ProviderSettingsView | null;
  readonly autopilot: boolean;
  readonly context: ContextMeter | null;
  readonly profile: ActiveProfileView | null;
  /**
   * Whether `profile` is the host's answer for the tab as it is now. False while the question is
   * on its way (the host just connected, or has not answered yet): a null profile then means
   * "not known yet", not "none", and the side panel shows no chip rather than "No profile".
   */
  readonly profileSettled: boolean;
  /** The last save of the conversations failed (issue 14); null when it succeeded. */
  readonly saveProblem: HistorySaveProblem | null;
}

const EmptySchema = z.object({}).strict();
const HistoryIdSchema = z.string().min(1).max(128);

/** Every request a page can make: params schema (checked by the worker) and result type. */
export const pageRequests = {
  'session/snapshot': { params: EmptySchema },
  'chat/send': {
    params: z
      .object({
        /** May be empty when something is attached (an image alone is a message). */
        text: z.string().trim().max(MAX_CHAT_MESSAGE_CHARS),
        /** Resources to attach: the worker reads them through the host (issue 12). */
        attachments: z.array(AttachmentRefSchema).max(8).optional(),
        /** Images and text files from the composer (issue 14): checked and wrapped by the worker. */
        files: z.array(ComposerFileSchema).max(MAX_FILES_PER_MESSAGE).optional(),
      })
      .refine((p) => p.text !== '' || (p.attachments?.length ?? 0) + (p.files?.length ?? 0) > 0, {
        error: 'a message needs words or an attachment',
        path: ['text'],
      }),
  },
  /**
   * Retry, Regenerate, Edit and resend: the user message at `index` again (with `text`, edited),
   * what followed it dropped. Its attachments (already read when it was first sent) go again.
   */
  'chat/resend': {
    params: z.object({
      index: z.number().int().nonnegative().max(100_000),
      text: z.string().trim().min(1).max(MAX_CHAT_MESSAGE_CHARS).optional(),
    }),
  },
  'chat/stop': { params: EmptySchema },
  /** Cancel on one running call: that call ends, the run goes on (the model is told). */
  'chat/cancelCall': { params: z.object({ callId: z.string().min(1).max(256) }) },
  'chat/new': { params: EmptySchema },
  /** The provider's models, from its models endpoint (cached briefly), for the panel's picker. */
  'models/list': { params: EmptySchema },
  /** The model this conversation uses from its next request on; null: the provider's default. */
  'chat/setModel': { params: z.object({ model: z.string().trim().min(1).max(256).nullable() }) },
  'approval/resolve': {
    params: z.object({
      approvalId: z.string().min(1).max(128),
      decision: z.enum(['allow-once', 'always', 'deny']),
    }),
  },
  'autopilot/set': { params: z.object({ on: z.boolean() }) },
  'settings/get': { params: EmptySchema },
  'settings/set': {
    params: z.object({
      provider: ProviderSettingsInputSchema,
      /** Drop the stored key rather than keep it (e.g. a local server that needs none). */
      forgetApiKey: z.boolean().optional(),
    }),
  },
  /**
   * "Test connection" (issue 14): one cheap request to the provider as the form has it (an
   * omitted key is the saved one, by the same rule as `settings/set`), nothing saved.
   */
  'provider/test': { params: z.object({ provider: ProviderSettingsInputSchema }) },
  /** A host method pages may call (PAGE_HOST_METHODS). */
  'host/request': {
    params: z.object({ method: z.string().min(1).max(64), params: z.unknown() }),
  },
  /**
   * A tool call an MCP App asked for (issue 12): its own server's tool, by exposed name, through
   * the same policy and approval cards as the model's calls, the card marked as the app's.
   */
  'apps/call': {
    params: z.object({
      server: z.string().min(1).max(256),
      name: z.string().min(1).max(256),
      arguments: z.record(z.string(), z.unknown()).optional(),
    }),
  },
  /** "Add context" › the page's selection (issue 14): the active tab's, read by the worker. */
  'page/selection': { params: EmptySchema },
  /** "Retry" on the not-installed, crashed and protocol-mismatch states. */
  'host/reconnect': { params: EmptySchema },
  /** "Sign in" on a remote server: the worker runs launchWebAuthFlow for the host's flow. */
  'auth/signIn': { params: z.object({ server: z.string().min(1).max(256) }) },
  /** The history list (issue 14), newest first; with `query`, searched in the worker. */
  'history/list': {
    params: z.object({
      query: z.string().max(200).optional(),
      cursor: z.number().int().nonnegative().max(100_000).optional(),
      pageSize: z.number().int().min(1).max(50).optional(),
    }),
  },
  /** Shows a stored conversation in the chat (a run going stops, as for New Chat). */
  'history/open': { params: z.object({ id: HistoryIdSchema }) },
  'history/rename': {
    params: z.object({ id: HistoryIdSchema, title: z.string().trim().min(1).max(MAX_TITLE_CHARS) }),
  },
  /** Deleting the conversation shown starts a new chat. */
  'history/delete': { params: z.object({ id: HistoryIdSchema }) },
  /** Undo of the last deletion, within UNDO_WINDOW_MS (issue 14). */
  'history/restore': { params: z.object({ id: HistoryIdSchema }) },
  'history/export': {
    params: z.object({ id: HistoryIdSchema, format: z.enum(['markdown', 'json']) }),
  },
  /** The bound on stored conversations: read it, or (with `limit`) set it and apply it. */
  'history/bound': {
    params: z.object({
      limit: z.number().int().min(MIN_HISTORY_LIMIT).max(MAX_HISTORY_LIMIT).optional(),
    }),
  },
  /** The user read the "older conversations were removed" notice. */
  'history/dismissPruned': { params: EmptySchema },
} as const satisfies Record<string, { params: z.ZodType }>;

export type PageMethod = keyof typeof pageRequests;
/** The history's requests (issue 14), handled apart from the others (history-handlers.ts). */
export type HistoryMethod = Extract<PageMethod, `history/${string}`>;
export type PageParamsOf<M extends PageMethod> = z.infer<(typeof pageRequests)[M]['params']>;

export interface PageResults {
  'session/snapshot': SessionSnapshot;
  /** Accepted; the run's progress arrives as `agent` events. */
  'chat/send': { readonly runId: string };
  'chat/resend': { readonly runId: string };
  'chat/stop': Record<string, never>;
  /** False when that call was not running (it had just finished, or the run stopped). */
  'chat/cancelCall': { readonly cancelled: boolean };
  'chat/new': { readonly conversation: Conversation };
  'models/list': ModelListing;
  'chat/setModel': { readonly conversation: Conversation };
  /** False when that approval was no longer waiting (the run stopped). */
  'approval/resolve': { readonly resolved: boolean };
  'autopilot/set': { readonly autopilot: boolean };
  'settings/get': { readonly provider: ProviderSettingsView | null };
  'settings/set': { readonly provider: ProviderSettingsView };
  'provider/test': ConnectionTestResult;
  'host/request': unknown;
  /** The result as the host relayed it (gated), or the user's refusal on the card. */
  'apps/call':
    { readonly kind: 'result'; readonly result: CallToolResult } | { readonly kind: 'denied' };
  'page/selection': PageSelection;
  'host/reconnect': Record<string, never>;
  'auth/signIn': { readonly status: SignInStatus };
  'history/list': HistoryPage;
  'history/open': { readonly conversation: Conversation };
  'history/rename': { readonly renamed: boolean };
  /** False when there was no such conversation. */
  'history/delete': { readonly deleted: boolean };
  /** False when the undo window had passed (or another deletion came after it). */
  'history/restore': { readonly restored: boolean };
  'history/export': HistoryExport;
  'history/bound': { readonly limit: number; readonly pruned: HistoryPruned | null };
  'history/dismissPruned': Record<string, never>;
}
export type PageResultOf<M extends PageMethod> = PageResults[M];

/** The active tab's selection (sanitized, not yet wrapped: that happens on send), or why not. */
export type PageSelection =
  | { readonly ok: true; readonly text: string; readonly title: string; readonly url: string }
  | { readonly ok: false; readonly problem: string };

/** What the worker pushes to every connected page. */
export type PageEvent =
  | { readonly type: 'agent'; readonly event: AgentEvent }
  | { readonly type: 'connection'; readonly state: ConnectionState }
  /** A host notification the pages care about; they re-read what changed. */
  | {
      readonly type: 'host';
      readonly method:
        | 'notifications/servers/changed'
        | 'notifications/tools/changed'
        | 'notifications/resources/changed';
      readonly server: string;
    }
  /** A server's question was asked or ended (issue 12): the side panel re-reads the open ones. */
  | { readonly type: 'elicitation'; readonly id: string }
  | { readonly type: 'context'; readonly context: ContextMeter | null }
  /** The history changed (a message, a rename, a deletion): an open list re-reads it. */
  | { readonly type: 'history' }
  /** `settled`: see SessionSnapshot.profileSettled. */
  | {
      readonly type: 'profile';
      readonly profile: ActiveProfileView | null;
      readonly settled: boolean;
    }
  /** The opened conversation's profile was deleted: the chat goes on with `using`. */
  | { readonly type: 'profile-gone'; readonly name: string; readonly using: string | null }
  /** A save of the conversations failed, or (null) succeeded again. */
  | { readonly type: 'storage'; readonly problem: HistorySaveProblem | null }
  | {
      readonly type: 'settings';
      readonly provider: ProviderSettingsView | null;
      readonly autopilot: boolean;
    };

/** Page -> worker. */
export const PageRequestMessageSchema = z.object({
  kind: z.literal('request'),
  id: z.number().int().nonnegative(),
  method: z.string().min(1).max(64),
  params: z.unknown(),
});
export type PageRequestMessage = z.infer<typeof PageRequestMessageSchema>;

/** Worker -> page. */
export type WorkerMessage =
  | { readonly kind: 'response'; readonly id: number; readonly ok: true; readonly result: unknown }
  | {
      readonly kind: 'response';
      readonly id: number;
      readonly ok: false;
      /** A sentence for the user: what went wrong and what to do. */
      readonly error: string;
      /** The host's error reason when the error came from the host. */
      readonly reason?: string;
    }
  | { readonly kind: 'event'; readonly event: PageEvent };

export function isPageMethod(method: string): method is PageMethod {
  return Object.hasOwn(pageRequests, method);
}
