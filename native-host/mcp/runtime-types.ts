import type { Transport } from '@modelcontextprotocol/client';
import type { ExitInfo } from '../../protocol/servers';
import type { ServerLaunch } from '../shared/server-spec';

/**
 * The seams of a `ServerRuntime`: what it is given to launch, how it obtains a process (production:
 * `createLauncher` in host/launch.ts; tests: `native-host/testing/in-memory-launcher.ts`), and the
 * options and events it is built with.
 */

/** The process seam: production spawns a real process group (ProcessTransport). */
export interface ServerProcess {
  /** The SDK transport over the child's stdio. */
  readonly transport: Transport;
  readonly pid: number | undefined;
  readonly exitInfo: ExitInfo | undefined;
  /** Last stderr lines, oldest first, sanitized. */
  stderrTail(lines: number): string[];
  /** Stderr lines that fell out of the ring buffer. */
  readonly stderrDropped: number;
}

/** Spawns a server; rejects with `LaunchError` when the command cannot be run at all. */
export type LaunchFn = (launch: ServerLaunch) => Promise<ServerProcess>;

export class LaunchError extends Error {
  override readonly name = 'LaunchError';
  constructor(
    readonly reason: 'command-not-found' | 'spawn-failed',
    message: string,
  ) {
    super(message);
  }
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
}
