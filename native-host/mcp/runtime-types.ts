import type { ProtocolEra, Transport } from '@modelcontextprotocol/client';
import type { ExitInfo } from '../../protocol/servers';
import type { ServerLaunch } from '../shared/server-spec';
import type { Cancellation } from '../shared/cancellation';

/**
 * The seams of a `ServerRuntime`: what it is given to launch, how it obtains a process (production:
 * `createLauncher` in host/launch.ts; tests: `native-host/testing/in-memory-launcher.ts`), and the
 * options and events it is built with.
 */

/**
 * A transport the v2 SDK treats as stdio. It decides by shape, `pid` and `stderr` present: on
 * stdio a `server/discover` probe that gets no answer means a 2025-era server (fall back to
 * `initialize`); on anything else it means an outage and the connect fails (decision 0016).
 */
export interface StdioTransport extends Transport {
  readonly pid: number | undefined;
  readonly stderr: unknown;
}

/** What a remote server's connection says about itself, for messages (issue 11). */
export interface RemoteLink {
  readonly url: string;
  /** Where data and tokens go: `https://mcp.example.com`. */
  readonly origin: string;
  /** The transport in use (an `auto` entry settles on one). */
  transport(): 'streamable-http' | 'sse';
  /** Why the server could last not be reached ("connection refused (ECONNREFUSED)"), if ever. */
  lastProblem(): string | undefined;
  /**
   * Set when the server asked for a sign-in the host could not give in the background (no
   * tokens, a refresh refused, a scope not granted): the message says how to sign in. The
   * runtime then fails the server as `auth-required` instead of restarting it.
   */
  signInRequired(): string | undefined;
}

/**
 * The process seam: production spawns a real process group (ProcessTransport), or, for a remote
 * server, connects over HTTP (host/remote-launch.ts).
 */
export interface ServerProcess {
  /** The SDK transport: over the child's stdio (a StdioTransport), or over HTTP. */
  readonly transport: Transport;
  readonly pid: number | undefined;
  readonly exitInfo: ExitInfo | undefined;
  /** Last stderr lines (for a remote server, its failed HTTP exchanges), oldest first, sanitized. */
  stderrTail(lines: number): string[];
  /** Stderr lines that fell out of the ring buffer. */
  readonly stderrDropped: number;
  /** Set for a remote server: there is no process, and messages speak of the connection. */
  readonly remote?: RemoteLink;
}

/** Spawns a server; rejects with `LaunchError` when the command cannot be run at all. */
export type LaunchFn = (launch: ServerLaunch) => Promise<ServerProcess>;

export class LaunchError extends Error {
  override readonly name = 'LaunchError';
  constructor(
    readonly reason: 'command-not-found' | 'spawn-failed' | 'missing-variable',
    message: string,
  ) {
    super(message);
  }
}

export interface CallOptions {
  /** The caller's cancellation (the extension's `notifications/cancelled`, host shutdown). */
  readonly cancellation?: Cancellation;
  readonly onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** While true, the host's timer does not end the request (the server waits on the user). */
  readonly holdWhile?: () => boolean;
}

/**
 * What a runtime remembers of how its server negotiated, across starts (decision 0016): a server
 * that answered the `server/discover` probe as a 2025-era server goes straight to `initialize`
 * next time. Bound to one launch definition: a changed definition probes afresh.
 */
export interface NegotiationMemory {
  /** Whether this launch is known to speak only the 2025 revisions. */
  knownLegacy(): boolean;
  /** The era a probe (or a fallback after one) settled on. */
  settled(era: ProtocolEra): void;
}
