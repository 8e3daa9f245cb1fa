import type { HostNotificationParams, ParamsOf, ResultOf } from '../../protocol/methods';
import type { ConnectionState } from '../messaging/connection';

/**
 * Before a run lists its tools, give servers that are still starting a moment to finish their
 * handshake: otherwise the first message after the browser starts offers the model none of their
 * tools, and it answers as if they did not exist. Bounded: a slow server costs at most
 * `timeoutMs`, and the run goes on with what is ready.
 */

export const SERVER_READY_WAIT_MS = 10_000;

/** The part of HostClient this uses. */
export interface ReadinessHost {
  readonly state: ConnectionState;
  request(
    method: 'servers/list',
    params: ParamsOf<'servers/list'>,
  ): Promise<ResultOf<'servers/list'>>;
  on(
    method: 'notifications/servers/changed',
    handler: (params: HostNotificationParams<'notifications/servers/changed'>) => void,
  ): () => void;
}

export async function waitForStartingServers(
  host: ReadinessHost,
  timeoutMs: number = SERVER_READY_WAIT_MS,
): Promise<void> {
  // While connecting, the request below waits for the handshake: a run sent the moment the
  // browser starts is the case this is for.
  const { state } = host.state;
  if (state !== 'connected' && state !== 'connecting') return;
  const starting = new Set<string>();
  let listed = false;
  let wake: () => void = () => undefined;
  // Subscribed before listing, so a server that finishes in between is not missed.
  const unsubscribe = host.on('notifications/servers/changed', ({ server }) => {
    if (server.status.state === 'starting') {
      if (!listed) starting.add(server.name);
      return;
    }
    starting.delete(server.name);
    if (listed && starting.size === 0) wake();
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const { servers } = await host.request('servers/list', {});
    for (const server of servers) {
      if (server.status.state === 'starting') starting.add(server.name);
      else starting.delete(server.name);
    }
    listed = true;
    if (starting.size === 0) return;
    await new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, timeoutMs);
    });
  } catch {
    // A host that cannot list its servers cannot list tools either: the router reports that.
  } finally {
    clearTimeout(timer);
    unsubscribe();
  }
}
