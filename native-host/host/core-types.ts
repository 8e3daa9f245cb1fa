import type { Profile, TokenBudget } from '../../protocol/profiles';
import type { ServerSummary } from '../../protocol/servers';
import type {
  ElicitationAction,
  ElicitationRequest,
  ElicitationSettledBy,
} from '../../protocol/elicitation';

/** The vocabulary the host core's parts share with the layers above them. */

export type LogLevel = 'info' | 'warning' | 'error';

/** What one profile's model-facing listing costs (`switchyard doctor`). */
export interface ProfileCost {
  readonly profile: Profile;
  /** Tools the model is sent under it. */
  readonly tools: number;
  readonly tokens: number;
  readonly budget: TokenBudget | undefined;
}

export interface HostCoreEvents {
  onServerChanged?(summary: ServerSummary): void;
  /** The server is no longer configured (a reload dropped it); `summary` is its last state. */
  onServerRemoved?(summary: ServerSummary): void;
  onToolsChanged?(server: string): void;
  onLog?(level: LogLevel, message: string, server?: string): void;
  /** A running server's resources or prompts changed, or a subscribed resource was updated. */
  onServerNotice?(notice: ServerNotice): void;
  /**
   * A server asks the user something: show the card. Without this event nobody can be asked, and
   * every question is declined (the CLI).
   */
  onElicitationRequested?(request: ElicitationRequest): void;
  /** A card ended: by the user's answer, the server, the clock, or with no page to ask. */
  onElicitationSettled?(id: string, action: ElicitationAction, by: ElicitationSettledBy): void;
}

/** What a server announced about its context (issue 12); `uri` has been through the gate. */
export type ServerNotice =
  | { readonly kind: 'resources-changed' | 'prompts-changed'; readonly server: string }
  | { readonly kind: 'resource-updated'; readonly server: string; readonly uri: string };
