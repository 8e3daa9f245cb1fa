import type { Client } from '@modelcontextprotocol/client';
import { messageOf } from '../../protocol/guards';
import type { ScheduleFn } from './schedule';

/**
 * On a 2026-07-28 connection a server sends its list changes (tools, prompts, resources) only on
 * a `subscriptions/listen` stream, and the SDK never reopens one that ends: a proxy's idle
 * timeout or a server's own limit on a remote connection silently ended every refresh for the
 * rest of the connection. This keeps the stream open: one that ends unexpectedly (`remote`) is
 * opened again after a backoff, and each reopening counts as a change (`onReopened`), since
 * whatever changed while it was closed was never told. A stream the server ends on purpose
 * (`graceful`) or that this side closed is left closed; so is every stream of a connection that
 * is no longer current. A server that keeps closing it at once is given up on, with a warning.
 */

/** First wait before reopening; doubled on each reopening in a row, up to REOPEN_MAX_DELAY_MS. */
export const REOPEN_FIRST_DELAY_MS = 1_000;
export const REOPEN_MAX_DELAY_MS = 60_000;
/** A stream that stayed open this long was no quick failure: the next reopening starts over. */
export const STREAM_STABLE_MS = 60_000;
/** Reopenings in a row (each closed before STREAM_STABLE_MS) before giving up. */
export const MAX_QUICK_REOPENINGS = 8;

export interface ChangeStreamOptions {
  readonly client: Pick<Client, 'listen' | 'getProtocolEra' | 'getServerCapabilities'>;
  /** How long the server may take to acknowledge a listen. */
  readonly timeoutMs: number;
  readonly isCurrent: () => boolean;
  readonly schedule: ScheduleFn;
  /** Already made safe by the caller: server text in it is untrusted. */
  readonly onWarning: (message: string) => void;
  /** The stream was opened again after it ended: list again what it would have announced. */
  readonly onReopened: () => void;
  readonly now?: () => number;
}

/** Opens the connection's change stream and keeps it open; never throws. */
export function keepListening(options: ChangeStreamOptions): void {
  const { client } = options;
  if (client.getProtocolEra() !== 'modern') return;
  const capabilities = client.getServerCapabilities();
  const filter = {
    ...(capabilities?.tools?.listChanged === true ? { toolsListChanged: true } : {}),
    ...(capabilities?.prompts?.listChanged === true ? { promptsListChanged: true } : {}),
    ...(capabilities?.resources?.listChanged === true ? { resourcesListChanged: true } : {}),
  };
  if (Object.keys(filter).length === 0) return;
  const now = options.now ?? Date.now;

  const open = async (quickReopenings: number): Promise<void> => {
    if (!options.isCurrent()) return;
    let subscription;
    try {
      subscription = await client.listen(filter, { timeout: options.timeoutMs });
    } catch (error) {
      if (!options.isCurrent()) return;
      if (quickReopenings === 0) {
        options.onWarning(`could not subscribe to list changes: ${messageOf(error)}`);
        return;
      }
      reopenLater(quickReopenings);
      return;
    }
    const openedAt = now();
    if (quickReopenings > 0) options.onReopened();
    const how = await subscription.closed;
    if (how !== 'remote' || !options.isCurrent()) return;
    reopenLater(now() - openedAt >= STREAM_STABLE_MS ? 0 : quickReopenings);
  };

  const reopenLater = (quickReopenings: number): void => {
    const next = quickReopenings + 1;
    if (next > MAX_QUICK_REOPENINGS) {
      options.onWarning(
        `the server closed its list-change stream ${String(MAX_QUICK_REOPENINGS)} times in a row; tool, prompt and resource changes are no longer followed until it restarts`,
      );
      return;
    }
    const delay = Math.min(REOPEN_MAX_DELAY_MS, REOPEN_FIRST_DELAY_MS * 2 ** (next - 1));
    options.schedule(() => {
      void open(next);
    }, delay);
  };

  void open(0);
}
