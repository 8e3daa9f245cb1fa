import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ExitInfo } from '../../protocol/servers';
import type { RestartPolicy } from './restart-policy';
import type { ServerRuntime } from './server-runtime';

/**
 * The seams of a `ServerRuntime`: what it is given to launch, how it obtains a process (production:
 * `createLauncher` in host/launch.ts; tests: `native-host/testing/in-memory-launcher.ts`), and the
 * options and events it is built with.
 */

/** What the runtime needs to launch a server: already validated config, unexpanded env. */
export interface ServerLaunch {
  readonly name: string;
  /** The absolute program to spawn, resolved once by the host; null when it was not found. */
  readonly executable: string | null;
  /** Why the command was not found (shown when `executable` is null). */
  readonly notFound: string | null;
  /** Whether the command was missing, or found but not runnable (not executable, relative). */
  readonly notFoundReason: 'command-not-found' | 'spawn-failed';
  /** The command as written in the configuration. */
  readonly command: string;
  readonly args: readonly string[];
  /** The entry's own variables, unexpanded (`${VAR}` is expanded at spawn time). */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string | undefined;
  readonly handshakeTimeoutMs: number;
  readonly toolTimeoutMs: number;
}

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

export interface ServerRuntimeEvents {
  onStateChange(runtime: ServerRuntime): void;
  onToolsChanged(runtime: ServerRuntime): void;
  onLog(level: 'info' | 'warning' | 'error', message: string): void;
}

export interface ServerRuntimeOptions {
  readonly launch: ServerLaunch;
  readonly spawnServer: LaunchFn;
  readonly events: ServerRuntimeEvents;
  readonly clientInfo: { readonly name: string; readonly version: string };
  /**
   * The MCP roots offered to the server (file:// URIs), read on every `roots/list`. With it the
   * client declares the `roots` capability; without it, none.
   */
  readonly roots?: () => ReadonlyArray<{ readonly uri: string; readonly name?: string }>;
  readonly restartPolicy?: RestartPolicy;
  readonly now?: () => number;
  /** Schedules `fn` after `ms`; returns a cancel function. Tests inject a manual clock. */
  readonly schedule?: (fn: () => void, ms: number) => () => void;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
}
