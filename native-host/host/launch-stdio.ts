import { homedir } from 'node:os';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { buildChildEnv, referencedVariables, getEnvVar } from '../config/env';
import { missingVariablesMessage, resolveVariables } from '../config/variables';
import type { SecretStore } from '../secrets/secret-store';
import { LaunchError, type ServerProcess, type StdioTransport } from '../mcp/runtime-types';
import type { ServerLaunch } from '../shared/server-spec';
import { ProcessSpawnError, ProcessTransport } from '../supervisor/process-transport';
import { RingBuffer } from '../supervisor/ring-buffer';
import { safeText } from '../../protocol/untrusted/gate';

/**
 * Spawning a local (stdio) server: the half of the launcher the host's first stage also runs
 * (decision 0022), so a server spawned before the rest of the host has loaded is spawned by
 * exactly this code. It imports nothing of the MCP client beyond types.
 */

/** Something that follows the process groups of this host's servers. */
export interface GroupWatcher {
  track(pgid: number, server: string): void;
  untrack(pgid: number): void;
}

export interface StdioLaunchOptions {
  readonly hostEnv: NodeJS.ProcessEnv;
  readonly platform: NodeJS.Platform;
  /**
   * The secret store, opened on first need: `${VAR}` references the environment lacks are
   * looked up there (`switchyard secret set NAME`). Omitted, only the environment counts.
   */
  readonly secrets?: () => Promise<SecretStore>;
  readonly killGraceMs?: number;
  readonly onNoise?: (server: string, description: string) => void;
  /**
   * Told each server's process group while it lives, to kill them should this host die: the
   * guardian and the pid record (issue 13).
   */
  readonly groupWatchers?: readonly GroupWatcher[];
  /** Each stderr line of a server (for a remote one, each failed HTTP exchange) as it arrives,
   * through the untrusted-text gate. */
  readonly onStderrLine?: (server: string, line: string) => void;
}

/**
 * Whether every `${VAR}` the launch references is set in the environment: then the spawn needs
 * no secret store, and the first stage may run it (a variable only the store holds waits for the
 * full host, which opens the store).
 */
export function needsNoSecretStore(launch: ServerLaunch, options: StdioLaunchOptions): boolean {
  return referencedVariables(Object.values(launch.env)).every(
    (r) => getEnvVar(options.hostEnv, r.name, options.platform) !== undefined,
  );
}

/** Spawns `launch` (a local server) and resolves once its process runs. */
export async function spawnStdio(
  launch: ServerLaunch,
  options: StdioLaunchOptions,
): Promise<ServerProcess> {
  // The launch definition was resolved and fingerprinted once (design D6): spawn exactly it,
  // never a fresh PATH lookup that could find something else.
  if (launch.executable === null) {
    throw new LaunchError(
      launch.notFoundReason,
      launch.notFound ?? `'${launch.command}' was not found.`,
    );
  }
  // `${VAR}` from the environment, else the secret store, resolved once per start; an unset
  // one without a default fails the start by name instead of reaching the server as "".
  const variables = await resolveVariables(Object.values(launch.env), {
    env: options.hostEnv,
    platform: options.platform,
    ...(options.secrets ? { store: options.secrets } : {}),
  });
  if (variables.missing.length > 0) {
    throw new LaunchError('missing-variable', missingVariablesMessage(launch.name, variables));
  }
  const { env } = buildChildEnv(launch.env, options.hostEnv, options.platform, variables.lookup);
  const stderr = new RingBuffer({ transform: stderrRedaction() });
  const transport = new ProcessTransport({
    command: launch.executable,
    args: launch.args,
    env,
    // A server without a `cwd` runs in the user's home folder, never where the host or the CLI
    // was started: a repository the user runs `switchyard tools` in could otherwise supply the
    // package `npx` runs, the module `python -m` imports or a relative script, with no card.
    cwd: launch.cwd ?? homedir(),
    stderr,
    ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
    onProtocolNoise: (description) => options.onNoise?.(launch.name, description),
    // Lines come already redacted by the buffer's transform, in order.
    ...(options.onStderrLine
      ? { onStderrLine: (line: string) => options.onStderrLine?.(launch.name, line) }
      : {}),
  });
  try {
    await transport.start();
  } catch (error) {
    if (error instanceof ProcessSpawnError) throw new LaunchError('spawn-failed', error.message);
    throw error;
  }
  // The group's id is its leader's pid (ProcessTransport spawns each server in a group of its
  // own); the watchers forget it once the transport has swept the group and closed.
  const group = transport.pid;
  const watchers = options.groupWatchers ?? [];
  if (group !== undefined) for (const watcher of watchers) watcher.track(group, launch.name);
  const process: ServerProcess = {
    transport: new StartedTransport(transport, () => {
      if (group !== undefined) for (const watcher of watchers) watcher.untrack(group);
    }),
    get pid() {
      return transport.pid;
    },
    get exitInfo() {
      return transport.exitInfo;
    },
    get stderrDropped() {
      return stderr.droppedLines;
    },
    // Stderr is untrusted text and often carries tokens (a server echoing its config): the
    // buffer keeps each line as stderrRedaction made it.
    stderrTail: (lines) => stderr.lines().slice(-lines),
  };
  return process;
}

/**
 * The SDK calls `start()` in `connect`, but the process is already running by then: this wrapper
 * makes `start()` report what happened in between (messages are held until the SDK has installed
 * its handlers; an exit makes `start()` reject, so `connect` fails with the exit, not a timeout).
 * It exposes `pid` and `stderr` so the SDK treats it as stdio: a server that ignores the
 * `server/discover` probe is then a 2025-era server, not an outage (decision 0016).
 */
class StartedTransport implements StdioTransport {
  onmessage?: Transport['onmessage'];
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  setProtocolVersion?: Transport['setProtocolVersion'];
  private started = false;
  private closed = false;
  private readonly held: JSONRPCMessage[] = [];

  constructor(
    private readonly inner: ProcessTransport,
    private readonly onClosed: () => void,
  ) {
    inner.onmessage = (message) => {
      if (this.started) this.onmessage?.(message);
      else this.held.push(message);
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      this.closed = true;
      this.onClosed();
      if (this.started) this.onclose?.();
    };
  }

  get pid(): number | undefined {
    return this.inner.pid;
  }

  get stderr(): RingBuffer {
    return this.inner.stderr;
  }

  start(): Promise<void> {
    if (this.closed)
      return Promise.reject(new Error('the server process exited before the handshake'));
    this.started = true;
    for (const message of this.held.splice(0)) this.onmessage?.(message);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** Lines of a private key's body at most: past it, a missing END line stops hiding the rest. */
const MAX_KEY_LINES = 200;
const KEY_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/;
const KEY_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/;

/**
 * How a server's stderr lines are kept (design D9): through the untrusted-text gate, which
 * redacts secrets within a line, and across lines for a PEM private key, whose BEGIN, body and END
 * arrive as separate lines (a server printing its TLS key on a crash): every line after a BEGIN,
 * up to its END, is replaced. One per process: the state is that stream's.
 */
export function stderrRedaction(): (line: string) => string {
  let keyLinesLeft = 0;
  return (line) => {
    if (keyLinesLeft > 0) {
      keyLinesLeft = KEY_END.test(line) ? 0 : keyLinesLeft - 1;
      return '[REDACTED:private-key]';
    }
    if (KEY_BEGIN.test(line) && !KEY_END.test(line)) keyLinesLeft = MAX_KEY_LINES;
    return safeText(line);
  };
}
