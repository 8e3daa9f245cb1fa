import { ProtocolError, SdkHttpError } from '@modelcontextprotocol/client';
import { describeExit, type ExitInfo, type ServerState } from '../../protocol/servers';
import { displayUrl } from '../../protocol/remote-url';
import { safeText } from '../../protocol/untrusted/gate';
import { HostError } from '../shared/host-error';
import { LaunchError, type ServerProcess } from './runtime-types';
import { messageOf } from '../../protocol/guards';

/**
 * How a server runtime's failures read: launch, handshake, crash and call failures turned into
 * messages and `HostError`s, with every word the server supplied treated as a stranger's text
 * (sanitized, secrets redacted, capped: design D9).
 */

/** How many stderr lines an error message quotes. */
export const STDERR_LINES_IN_ERRORS = 10;
/** Longest server-supplied name or version the host relays. */
const MAX_INFO_CHARS = 200;
/** Longest server-supplied error or progress message the host relays. */
const MAX_SERVER_MESSAGE_CHARS = 2_000;

/** A server's own words, made safe to show: sanitized, secrets redacted, capped. */
export function untrustedMessage(text: string): string {
  return safeText(text, { maxChars: MAX_SERVER_MESSAGE_CHARS });
}

/** A server's self-reported name and version (from `initialize`), through the same gate. */
export function untrustedServerInfo(
  info: { readonly name?: string; readonly version?: string } | undefined,
): { readonly name: string; readonly version: string } {
  return {
    name: safeText(info?.name ?? 'unknown', { maxChars: MAX_INFO_CHARS }),
    version: safeText(info?.version ?? 'unknown', { maxChars: MAX_INFO_CHARS }),
  };
}

/** " Last stderr: a | b" for the process's recent stderr, or '' when it printed none. For a
 * remote server the ring holds its failed HTTP exchanges instead. */
function stderrSuffix(stderr: readonly string[], remote = false): string {
  if (stderr.length === 0) return '';
  return ` ${remote ? 'Last HTTP errors' : 'Last stderr'}: ${stderr.join(' | ')}`;
}

/** The recent-output suffix of `process`, labelled for what it holds. */
function tailOf(process: ServerProcess): string {
  return stderrSuffix(process.stderrTail(STDERR_LINES_IN_ERRORS), process.remote !== undefined);
}

/** Why a spawn failed, as the `failed` state reports it. */
export function launchFailure(error: unknown): {
  readonly reason: LaunchError['reason'];
  readonly message: string;
} {
  const reason = error instanceof LaunchError ? error.reason : 'spawn-failed';
  const message = messageOf(error);
  return { reason, message };
}

/** What a handshake that did not complete says: timed out, exited, or refused. */
export function handshakeFailureMessage(
  server: string,
  process: ServerProcess,
  failure: {
    readonly timedOut: boolean;
    readonly handshakeTimeoutMs: number;
    readonly error: unknown;
  },
): string {
  const exit = process.exitInfo;
  const tail = tailOf(process);
  const reason =
    failure.error instanceof Error ? untrustedMessage(failure.error.message) : 'unknown error';
  const remote = process.remote;
  if (remote !== undefined) {
    return failure.timedOut
      ? `'${server}' did not complete the MCP handshake with ${displayUrl(remote.url)} within ${failure.handshakeTimeoutMs} ms; check that the URL is the server's MCP endpoint (set "timeout" in config.json if it is slow).${tail}`
      : `'${server}' could not connect to ${remote.origin}: ${remote.lastProblem() ?? reason}.${tail}`;
  }
  return failure.timedOut
    ? `'${server}' did not complete the MCP handshake within ${failure.handshakeTimeoutMs} ms; check that it is an MCP server speaking stdio (set "timeout" in config.json if it is slow to start).${tail}`
    : exit
      ? `'${server}' exited during the handshake (${describeExit(exit)}).${tail}`
      : `'${server}' failed the MCP handshake: ${reason}.${tail}`;
}

/**
 * What a handshake that did not complete leads to: `failed` for good (a sign-in is needed, or a
 * first start failed), or a crash that the restart policy decides on (an automatic restart's
 * handshake, or a remote server out of reach even at its first start: an outage).
 */
export function handshakeOutcome(
  server: string,
  process: ServerProcess,
  failure: {
    readonly attempt: number;
    readonly timedOut: boolean;
    readonly handshakeTimeoutMs: number;
    readonly error: unknown;
  },
):
  | { readonly kind: 'failed'; readonly state: Extract<ServerState, { state: 'failed' }> }
  | { readonly kind: 'crashed'; readonly exit: ExitInfo; readonly message: string } {
  const exit = process.exitInfo;
  const signIn = process.remote?.signInRequired();
  if (signIn !== undefined) {
    // Retrying cannot help until the user signs in: no backoff, no crash loop.
    return { kind: 'failed', state: { state: 'failed', reason: 'auth-required', message: signIn } };
  }
  const message = handshakeFailureMessage(server, process, failure);
  if (failure.attempt > 0 || process.remote?.lastProblem() !== undefined) {
    return { kind: 'crashed', exit: exit ?? { code: null, signal: null }, message };
  }
  const reason = failure.timedOut ? 'handshake-timeout' : 'handshake-failed';
  return { kind: 'failed', state: { state: 'failed', reason, message, ...(exit ? { exit } : {}) } };
}

/** What a running server that exited says (before the restart decision is appended). */
export function crashMessage(server: string, exit: ExitInfo, process: ServerProcess): string {
  const tail = tailOf(process);
  const remote = process.remote;
  if (remote !== undefined) {
    const problem = remote.lastProblem();
    return `'${server}' lost its connection to ${remote.origin}${problem === undefined ? '' : `: ${problem}`}.${tail}`;
  }
  return `'${server}' exited (${describeExit(exit)}).${tail}`;
}

/** A call to a server that is not running. */
export function unavailableError(server: string, state: ServerState['state']): HostError {
  const advice =
    state === 'starting'
      ? 'try again in a moment'
      : state === 'crashed'
        ? 'it restarts by itself: try again in a moment'
        : "start it from the popup or with 'switchyard doctor'";
  return new HostError('server-unavailable', `Server '${server}' is ${state}; ${advice}.`, {
    server,
    state,
  });
}

/** What the runtime knew when a `tools/call` failed, checked in this order. */
export interface CallFailureContext {
  readonly server: string;
  /** The caller aborted the call. */
  readonly cancelled: boolean;
  /** The host's own timer, not the caller, ended the call. */
  readonly timedOut: boolean;
  readonly timeoutMs: number;
  /** The process the call went to. */
  readonly process: ServerProcess;
  /** The connection the call went out on is no longer the runtime's current one. */
  readonly disconnected: boolean;
}

/**
 * Turns a failed `tools/call` into a HostError with a protocol reason: cancelled, timeout,
 * server-exited, or server-error (the server's own error, or an answer that did not parse).
 */
export function callFailure(error: unknown, context: CallFailureContext): HostError {
  const server = context.server;
  if (context.cancelled) {
    return new HostError('cancelled', `The call to '${server}' was cancelled.`, { server });
  }
  if (context.timedOut) {
    return new HostError(
      'timeout',
      `Server '${server}' did not answer within ${context.timeoutMs} ms (set "toolTimeout" in config.json to allow longer).`,
      { server, timeoutMs: context.timeoutMs },
    );
  }
  // fetch throws a TypeError when the server cannot be reached at all.
  const unreachable = context.process.remote !== undefined && error instanceof TypeError;
  if (context.process.exitInfo || context.disconnected || unreachable) {
    return exitedError(server, context.process);
  }
  // The token was refused and could not be renewed, or the tool needs a scope not granted.
  const signIn = context.process.remote?.signInRequired();
  if (signIn !== undefined) {
    return new HostError('server-unavailable', signIn, { server });
  }
  if (error instanceof SdkHttpError) {
    return new HostError(
      'server-error',
      `Server '${server}' answered HTTP ${error.status}${error.statusText ? ` ${error.statusText}` : ''}: ${untrustedMessage(error.message)}`,
      { server, status: error.status },
    );
  }
  if (error instanceof ProtocolError) {
    return new HostError(
      'server-error',
      `Server '${server}' answered with an error: ${untrustedMessage(error.message)}`,
      { server, code: error.code },
    );
  }
  const message = untrustedMessage(messageOf(error));
  return new HostError('server-error', `Server '${server}' sent a malformed answer: ${message}`, {
    server,
  });
}

function exitedError(server: string, process: ServerProcess): HostError {
  const exit = process.exitInfo ?? { code: null, signal: null };
  const stderr = process.stderrTail(STDERR_LINES_IN_ERRORS);
  const what =
    process.remote === undefined
      ? `exited (${describeExit(exit)})`
      : `lost its connection to ${process.remote.origin}`;
  return new HostError(
    'server-exited',
    `Server '${server}' ${what} while the call was pending.` +
      stderrSuffix(stderr, process.remote !== undefined),
    { server, exit, stderr },
  );
}
