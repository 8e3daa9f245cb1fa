import {
  InMemoryTransport,
  McpServer,
  type CallToolResult,
  type ToolAnnotations,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { LaunchError, type LaunchFn } from '../mcp/runtime-types';
import { type ServerLaunch } from '../shared/server-spec';

/**
 * A launcher for tests of `ServerRuntime` and `HostCore` that spawns nothing: each launch stands
 * up a real in-process MCP server (the v2 SDK's `McpServer`, `@modelcontextprotocol/server`) behind an `InMemoryTransport` pair and
 * hands the client side to the runtime through the real seam, `LaunchFn` (style habit 8: fakes
 * implement the real seam). The handshake, listings and calls are the SDK's own.
 *
 * @example
 *   const launcher = inMemoryLauncher({ tools: () => [{ name: 'ping' }] });
 *   const core = new HostCore({ ...options, spawnServer: launcher.spawnServer });
 */

/** One tool an in-memory server registers (a zero-argument tool). */
export interface InMemoryTool {
  readonly name: string;
  /** Default: none. */
  readonly description?: string;
  /** Sent in `tools/list` as given; default: none. */
  readonly annotations?: ToolAnnotations;
  /** Runs in the server on each `tools/call`; default: answers `{ content: [] }`. */
  readonly call?: () => CallToolResult | Promise<CallToolResult>;
}

export interface InMemoryLauncherOptions {
  /** The tools the server for `launch` registers; default: none. */
  readonly tools?: (launch: ServerLaunch) => readonly InMemoryTool[];
  /**
   * Runs on each server before it connects, to add handlers of its own (e.g. asking for
   * `roots/list` once initialized). `server.server` is the low-level SDK `Server`.
   */
  readonly setup?: (server: McpServer, launch: ServerLaunch) => void;
  /**
   * Holds every launch until `release()` lets it complete (oldest first), for starts, stops and
   * restarts that overlap a spawn. Default: launches complete at once.
   */
  readonly hold?: boolean;
  /** The pid the first completed launch reports; each later one reports the next. Default 1. */
  readonly firstPid?: number;
  /**
   * Which revisions the server speaks: `'2025'` (default) answers `server/discover` with
   * "method not found", as every server on the v1 SDK does; `'2026'` serves both eras through the
   * SDK's era-deciding entry (`serveStdio` over the in-memory pair), as a server on the v2 SDK
   * does, and negotiates 2026-07-28.
   */
  readonly revisions?: '2025' | '2026';
  /** The `ttlMs` a 2026-07-28 server puts on its `tools/list` results; default 0 (none). */
  readonly listTtlMs?: number;
  /** Told the method of every request and notification the client sends a server. */
  readonly onClientMessage?: (launch: ServerLaunch, method: string) => void;
}

export interface InMemoryLauncher {
  /** The seam: pass it as `spawnServer` to `ServerRuntime` or `HostCore`. */
  readonly spawnServer: LaunchFn;
  /** Names of the servers whose launch completed, in order (a name recurs on a restart). */
  readonly launched: readonly string[];
  /** Launches held by `hold` and not yet released. */
  readonly waiting: number;
  /** Lets the oldest held launch complete; does nothing when none is held. */
  release(): void;
}

/**
 * Makes a launcher whose every launch is a fresh in-memory MCP server named after the launch
 * (version `1.0.0`) with the tools `options.tools` gives it. Like the production launcher, a
 * launch whose command was not resolved (`executable: null`) rejects with `LaunchError` and
 * starts nothing. The processes it reports never exit and have no stderr.
 */
export function inMemoryLauncher(options: InMemoryLauncherOptions = {}): InMemoryLauncher {
  const held: Array<() => void> = [];
  const launched: string[] = [];
  const firstPid = options.firstPid ?? 1;
  const spawnServer: LaunchFn = async (launch) => {
    if (launch.executable === null) {
      throw new LaunchError(launch.notFoundReason, launch.notFound ?? 'not found');
    }
    if (options.hold === true) {
      await new Promise<void>((resolve) => {
        held.push(resolve);
      });
    }
    const pid = firstPid + launched.length;
    launched.push(launch.name);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, sendOptions) => {
      if ('method' in message) options.onClientMessage?.(launch, message.method);
      return send(message, sendOptions);
    };
    if (options.revisions === '2026') {
      // The entry owns the transport and builds the one server of the connection when the
      // client's first message has chosen the era.
      serveStdio(() => buildServer(launch, options), { transport: serverSide });
    } else {
      await buildServer(launch, options).connect(serverSide);
    }
    return {
      // Shaped like a stdio transport, as the production launcher's is (runtime-types.ts).
      transport: Object.assign(clientSide, { pid, stderr: undefined }),
      pid,
      exitInfo: undefined,
      stderrTail: () => [],
      stderrDropped: 0,
    };
  };
  return {
    spawnServer,
    launched,
    get waiting() {
      return held.length;
    },
    release: () => {
      held.shift()?.();
    },
  };
}

function buildServer(launch: ServerLaunch, options: InMemoryLauncherOptions): McpServer {
  const server = new McpServer(
    { name: launch.name, version: '1.0.0' },
    options.listTtlMs === undefined
      ? {}
      : { cacheHints: { 'tools/list': { ttlMs: options.listTtlMs } } },
  );
  for (const tool of options.tools?.(launch) ?? []) {
    const call = tool.call ?? (() => ({ content: [] }));
    server.registerTool(
      tool.name,
      {
        ...(tool.description === undefined ? {} : { description: tool.description }),
        ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
      },
      () => call(),
    );
  }
  options.setup?.(server, launch);
  return server;
}
