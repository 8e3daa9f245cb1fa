import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport, type Tool } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ListToolsResultSchema } from '@modelcontextprotocol/core';
import type { ServerLaunchSpec } from './reference-servers';

/**
 * The baseline: the official SDK client (v2, `@modelcontextprotocol/client`, the one the host
 * runs) talking to a server over its own stdio transport, with no host in between. Timed from
 * spawn to `initialize` done and to the tool listing done. It connects in the SDK's default
 * `'legacy'` mode: the reference servers speak 2025-11-25, and in `'auto'` mode the SDK's own
 * stdio transport would spawn every server twice (decision 0016), which is no baseline.
 */

export interface DirectServer {
  readonly name: string;
  readonly client: Client;
  readonly pid: number | null;
  /** Spawn to `initialize` answered (and `notifications/initialized` sent), in ms. */
  readonly handshakeMs: number;
  /** Spawn to the complete `tools/list` answered, in ms: what "ready" means for the host too. */
  readonly readyMs: number;
  /** The server's tool definitions exactly as it listed them. */
  readonly tools: readonly Tool[];
  close(): Promise<void>;
}

/** Longest the bench waits for a server to become ready before it gives up. */
const READY_TIMEOUT_MS = 30_000;
const MAX_LIST_PAGES = 20;

export async function connectDirect(spec: ServerLaunchSpec): Promise<DirectServer> {
  const startedAt = performance.now();
  const transport = new StdioClientTransport({
    command: spec.command,
    args: [...spec.args],
    env: { ...spec.env },
    // The servers announce themselves on stderr; keep the report clean.
    stderr: 'ignore',
  });
  const client = new Client({ name: 'switchyard-bench', version: '0' }, { capabilities: {} });
  try {
    await client.connect(transport, { timeout: READY_TIMEOUT_MS });
    const handshakeMs = performance.now() - startedAt;
    // `request` with the SDK's own schema, as the host does, rather than `listTools`, which
    // also compiles an output-schema validator per tool: the baseline should be the floor.
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
      const result = await client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        ListToolsResultSchema,
        { timeout: READY_TIMEOUT_MS },
      );
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    const readyMs = performance.now() - startedAt;
    return {
      name: spec.name,
      client,
      pid: transport.pid,
      handshakeMs,
      readyMs,
      tools,
      close: () => client.close(),
    };
  } catch (error) {
    await client.close();
    throw new Error(
      `direct SDK client could not start '${spec.name}': ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

export interface DirectRemote {
  readonly client: Client;
  /** The revision the client settled on (the host's own for the same server is reported beside it). */
  readonly protocolVersion: string | undefined;
  close(): Promise<void>;
}

/**
 * The baseline for a remote server: the same v2 SDK client over its own
 * `StreamableHTTPClientTransport`, no host in between. Unlike the stdio baseline it negotiates in
 * `'auto'` mode, as the host does (a `server/discover` probe over HTTP costs no second process),
 * so both sides speak the same revision to the server.
 */
export async function connectDirectRemote(url: string): Promise<DirectRemote> {
  const client = new Client(
    { name: 'switchyard-bench', version: '0' },
    { capabilities: {}, versionNegotiation: { mode: 'auto' } },
  );
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)), {
      timeout: READY_TIMEOUT_MS,
    });
    return {
      client,
      protocolVersion: client.getNegotiatedProtocolVersion(),
      close: () => client.close(),
    };
  } catch (error) {
    await client.close();
    throw new Error(
      `direct SDK client could not connect to ${url}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}
