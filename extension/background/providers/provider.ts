import type { Usage } from '../../messaging/agent-events';
import type { ChatMessage } from '../../messaging/conversation';
import type { ProviderAccess } from '../../messaging/provider';

/**
 * The seam between the agent loop and a model. Adapters over the AI SDK (Anthropic, OpenAI,
 * OpenAI-compatible) and the scripted test provider implement it; the loop knows no SDK.
 */

/** A tool as the model is told about it. */
export interface ProviderTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

export interface ProviderRequest {
  readonly system: string;
  /** The whole transcript so far; its tool calls and results are always paired. */
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ProviderTool[];
  /** Aborted on Stop and New Chat; an adapter stops streaming and may throw. */
  readonly signal: AbortSignal;
}

export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'other';

/** What a provider streams for one model turn, in order; `finish` or `error` comes last. */
export type ProviderEvent =
  | { readonly type: 'text-delta'; readonly text: string }
  /** A complete tool call: adapters emit it once the arguments are whole. */
  | {
      readonly type: 'tool-call';
      readonly id: string;
      readonly name: string;
      readonly arguments: unknown;
    }
  | { readonly type: 'finish'; readonly reason: FinishReason; readonly usage?: Usage }
  /**
   * The turn failed (HTTP error, refused request); `message` says what to do next, and `access`
   * is the site access to grant when its absence is the cause (issue 14).
   */
  | { readonly type: 'error'; readonly message: string; readonly access?: ProviderAccess };

export interface ModelProvider {
  stream(request: ProviderRequest): AsyncIterable<ProviderEvent>;
}
