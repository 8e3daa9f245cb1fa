import { performance } from 'node:perf_hooks';
import { FramesClient, HostRpcError } from './frames-client';
import { ServerListViewSchema, type ServerView } from './host-views';

/**
 * Gets a host to the state the figures are about: every server trusted and running, the measured
 * tool allowed. The bench plays the user here: the config it wrote is its own, so it approves each
 * launch the host asks about (design D6) and allow-lists the tool it calls (D8), through the same
 * methods the popup uses. None of this is inside a timed region.
 */

const SETTLE_TIMEOUT_MS = 30_000;
const SETTLE_POLL_MS = 20;

export interface TrustedHost {
  readonly host: FramesClient;
  readonly servers: readonly ServerView[];
  /** Launches the bench approved on the way. */
  readonly approvals: number;
}

/** Spawns a host on `home`, approves pending launches and waits until every server runs. */
export async function startTrustedHost(options: {
  readonly bundle: string;
  readonly home: string;
  readonly origin: string;
  readonly nodeArgs?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}): Promise<TrustedHost> {
  const host = FramesClient.spawn(options);
  try {
    await host.hello();
    const { servers, approvals } = await settle(host);
    return { host, servers, approvals };
  } catch (error) {
    await host.close();
    throw error;
  }
}

/**
 * Polls `servers/list` until every server is running, approving any launch that waits for the
 * user; fails on a server that cannot start.
 */
export async function settle(
  host: FramesClient,
): Promise<{ servers: ServerView[]; approvals: number }> {
  const deadline = performance.now() + SETTLE_TIMEOUT_MS;
  let approvals = 0;
  for (;;) {
    const { servers } = await host.call('servers/list', undefined, ServerListViewSchema);
    for (const server of servers) {
      if (await approveIfAsked(host, server)) approvals += 1;
      const { state } = server.status;
      if (state === 'failed' || state === 'crashed') {
        throw new Error(`server '${server.name}' cannot start: ${JSON.stringify(server.status)}`);
      }
    }
    if (servers.every((s) => s.status.state === 'running')) return { servers, approvals };
    if (performance.now() > deadline) {
      throw new Error(
        `servers not running after ${SETTLE_TIMEOUT_MS} ms: ${JSON.stringify(servers)}\n${host.stderrTail()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}

/** Approves the launch `server` waits for, quoting the fingerprint the host showed; false if none. */
export async function approveIfAsked(host: FramesClient, server: ServerView): Promise<boolean> {
  if (server.status.state !== 'needs-approval') return false;
  await host.request('trust/approve', {
    server: server.name,
    fingerprint: server.status.consent.fingerprint,
  });
  return true;
}

/**
 * Makes sure `tool` runs without a per-call approval: tries one call, and if the host asks for an
 * approval, allow-lists the tool (as the user would from the popup) and tries again.
 */
export async function ensureAllowed(
  host: FramesClient,
  tool: string,
  args: Record<string, unknown>,
): Promise<unknown> {
  try {
    return await host.request('tools/call', { name: tool, arguments: args });
  } catch (error) {
    if (!(error instanceof HostRpcError) || error.reason !== 'approval-required') throw error;
  }
  await host.request('policy/set', { tool, policy: 'allow' });
  return host.request('tools/call', { name: tool, arguments: args });
}
