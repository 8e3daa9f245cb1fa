import type { Profile, TokenBudget } from '../../protocol/profiles';
import type { ServerSummary } from '../../protocol/servers';

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
}
