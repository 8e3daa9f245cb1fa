import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { CallToolResultSchema } from '../protocol/tools';
import { ROOT, makeHome } from '../test/integration/host-harness';
import { startListening, stopListening } from '../test/support/listening-process';
import { cpuMeter } from './cpu-time';
import { connectDirectRemote } from './direct-client';
import { BARE_HOP_PARAMS } from './frames-client';
import { ToolListingViewSchema } from './host-views';
import { readMemory, type ProcessMemory } from './memory';
import { measureRelay, type RelayResult, type RelaySettings } from './relay';
import { ensureAllowed, startTrustedHost } from './trusted-host';

/**
 * Remote relay overhead (issue 11): the same `tools/call` to one Streamable HTTP server on
 * 127.0.0.1, through a host that has it as a remote entry (`{"type": "http", "url": ...}`) and
 * from a direct v2 SDK client over its own `StreamableHTTPClientTransport`, with the bare hop
 * beside them: the three paths of `measureRelay`, alternating, against one server process. The
 * server is the integration tests' v2 fixture (`remote-modern-server.mjs`), which speaks
 * 2026-07-28 to both sides; the host runs on its own home with only that entry, trusted the way
 * the bench trusts its stdio servers (`startTrustedHost` approves the launch it asks about).
 */

export const REMOTE_SERVER = 'remote';
export const REMOTE_TOOL = 'echo';
const REMOTE_FIXTURE = join(ROOT, 'test/fixtures/remote-modern-server.mjs');

export interface RemoteRelayReport {
  /** The fixture and the URL both sides called. */
  readonly server: { readonly fixture: string; readonly url: string };
  /** The revision each side settled on with the server; they should be the same. */
  readonly protocolVersion: { readonly host: string | null; readonly direct: string | null };
  readonly relay: RelayResult;
  /** The remote host's memory (one remote entry, no server process) once running and after. */
  readonly hostMemory: {
    readonly serverUp: ProcessMemory | null;
    readonly afterRelay: ProcessMemory | null;
  };
}

export async function measureRemoteRelay(options: {
  readonly bundle: string;
  readonly origin: string;
  readonly settings: RelaySettings;
}): Promise<RemoteRelayReport> {
  const cleanup: Array<() => unknown> = [];
  try {
    const server = await startListening([REMOTE_FIXTURE]);
    cleanup.push(() => stopListening(server));
    const url = `http://127.0.0.1:${server.port}/mcp`;
    const home = makeHome({ mcpServers: { [REMOTE_SERVER]: { type: 'http', url } } });
    cleanup.push(() => {
      rmSync(home, { recursive: true, force: true });
    });

    const trusted = await startTrustedHost({
      bundle: options.bundle,
      home,
      origin: options.origin,
    });
    const { host } = trusted;
    cleanup.push(() => host.close());
    const memory = () => (host.pid === undefined ? null : (readMemory(host.pid) ?? null));
    const serverUp = memory();
    const status = trusted.servers.find((s) => s.name === REMOTE_SERVER)?.status;
    const listing = ToolListingViewSchema.parse(await host.request('tools/list', undefined));
    const tool = listing.tools.find((t) => t.server === REMOTE_SERVER && t.tool === REMOTE_TOOL);
    if (!tool) throw new Error(`the host lists no '${REMOTE_TOOL}' tool for '${REMOTE_SERVER}'`);

    const direct = await connectDirectRemote(url);
    cleanup.push(() => direct.close());
    const args = { message: 'x' };
    // One checked call each way, so the timed loops measure working calls, not error replies.
    const relayed = CallToolResultSchema.parse(await ensureAllowed(host, tool.name, args));
    const straight = await direct.client.callTool({ name: REMOTE_TOOL, arguments: args });
    if (relayed.isError === true || straight.isError === true) {
      throw new Error(
        `the remote echo failed: relayed ${JSON.stringify(relayed)}, direct ${JSON.stringify(straight)}`,
      );
    }

    const relay = await measureRelay(
      {
        relay: () => host.request('tools/call', { name: tool.name, arguments: args }),
        direct: () => direct.client.callTool({ name: REMOTE_TOOL, arguments: args }),
        bare: () => host.request('host/hello', BARE_HOP_PARAMS),
      },
      options.settings,
      // One server process answers both paths, so its CPU is per path, not per process.
      cpuMeter({ bench: process.pid, host: host.pid, server: server.child.pid }),
    );
    return {
      server: { fixture: 'test/fixtures/remote-modern-server.mjs', url },
      protocolVersion: {
        host: status?.state === 'running' ? status.protocolVersion : null,
        direct: direct.protocolVersion ?? null,
      },
      relay,
      hostMemory: { serverUp, afterRelay: memory() },
    };
  } finally {
    for (const step of cleanup.reverse()) {
      try {
        await step();
      } catch (error) {
        process.stderr.write(
          `bench: remote cleanup: ${error instanceof Error ? error.message : String(error)}\n`,
        );
      }
    }
  }
}
