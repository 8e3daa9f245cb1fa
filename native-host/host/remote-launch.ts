import {
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type FetchLike,
  type JSONRPCMessage,
  type OAuthClientProvider,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { expandEnvValue, type VariableLookup } from '../config/env';
import { headerValueProblem } from '../../protocol/remote-url';
import { LaunchError, type RemoteLink, type ServerProcess } from '../mcp/runtime-types';
import type { RemoteEndpoint, RemoteTransport } from '../shared/server-spec';
import { RingBuffer } from '../supervisor/ring-buffer';
import { safeText } from '../../protocol/untrusted/gate';
import { describeAuthError } from '../auth/auth-errors';
import { observedFetch } from './observed-fetch';

/**
 * The remote launcher (issue 11): where a local server is spawned, a remote one is connected to,
 * over Streamable HTTP or the legacy HTTP+SSE transport, through the SDK's own transports. What
 * is ours is around them:
 *
 * - headers are expanded (`${VAR}`) here, at connect time, and sent to the server's origin only,
 *   never to an authorization server or a redirect target (the SDK refuses cross-origin
 *   redirects by default: `redirectPolicy: 'same-origin'`);
 * - every failed HTTP exchange is kept (status, the server's error body sanitized, redacted and
 *   cut) in a ring like a process's stderr, so errors, `doctor` and `logs` can say what happened;
 *   header values and query strings never reach it;
 * - a network failure closes the connection, so the runtime restarts it with backoff as it
 *   restarts a crashed process;
 * - `auto` (an entry that names only a URL) tries Streamable HTTP and falls back to HTTP+SSE
 *   when the server refuses the `initialize` POST with 400, 404 or 405;
 * - with an OAuth provider (auth/oauth-provider.ts, non-interactive in the background), the SDK
 *   sends the stored token, refreshes it, and runs discovery on a 401; a server that needs a
 *   sign-in the host cannot give without the user is reported through
 *   `RemoteLink.signInRequired()`, so it fails as `auth-required` rather than crash-looping.
 *
 * The transport has no `pid` and no `stderr`, so the SDK treats it as HTTP: a `server/discover`
 * probe answered with 4xx means a 2025-era server, one not answered at all an outage.
 */

export interface RemoteLaunchOptions {
  /** Where `${VAR}` in a header value comes from (config/variables.ts: the environment, then
   * the secret store), resolved for this start; the caller has failed it on a missing one. */
  readonly lookup: VariableLookup;
  readonly platform: NodeJS.Platform;
  /** The fetch the transports use; default the global one. Tests pass their own. */
  readonly fetch?: FetchLike;
  /** Each line of the HTTP log as it is written (already through the untrusted-text gate). */
  readonly onLogLine?: (server: string, line: string) => void;
  /** Signs requests with the server's stored OAuth tokens (absent: no OAuth). */
  readonly authProvider?: OAuthClientProvider;
}

/** HTTP statuses of a refused `initialize` POST that mean "not Streamable HTTP" (spec, backwards
 * compatibility). */
const NOT_STREAMABLE = new Set([400, 404, 405]);

/**
 * The connection to one remote server, not yet started (the SDK's `connect` starts it). Throws
 * LaunchError when its headers cannot be built.
 */
export function connectRemote(
  name: string,
  endpoint: RemoteEndpoint,
  options: RemoteLaunchOptions,
): ServerProcess {
  const headers = expandHeaders(name, endpoint.headers, options);
  const url = new URL(endpoint.url);
  const log = new RingBuffer();
  const write = (line: string) => {
    const safe = safeText(line);
    log.write(`${safe}\n`);
    options.onLogLine?.(name, safe);
  };
  let lost: string | undefined;
  const onNetworkFailure = (problem: string): void => {
    lost = problem;
    // Asynchronously: the failing request reports its own error first.
    setImmediate(() => {
      void connection.close();
    });
  };
  const observed = observedFetch(options.fetch ?? fetch, url, headers, { write, onNetworkFailure });
  let signIn: string | undefined;
  const onAuthError = (error: unknown): void => {
    // A request that went through: whatever was refused before is not the state now.
    if (error === null) {
      signIn = undefined;
      return;
    }
    const described = describeAuthError(error, name);
    if (described.kind !== 'sign-in-required') return;
    signIn = described.message;
    write(`sign-in required: ${described.message}`);
    // With its tokens gone (revoked, or past refreshing: the SDK deleted them), the server can
    // answer nothing until the user signs in again: closing has the runtime reconnect, which then
    // fails it as `auth-required`, so the popup offers Sign in instead of a "running" server
    // whose every call fails. A step-up (403, a scope not granted) keeps its tokens, and runs on.
    const provider = options.authProvider;
    if (provider === undefined) return;
    void Promise.resolve(provider.tokens()).then(
      (tokens) => {
        if (tokens === undefined) void connection.close();
      },
      () => undefined,
    );
  };
  const connection = new RemoteConnection(endpoint.transport, url, {
    fetch: observed,
    write,
    onAuthError,
    ...(options.authProvider ? { authProvider: options.authProvider } : {}),
  });
  const link: RemoteLink = {
    url: endpoint.url,
    origin: url.origin,
    transport: () => connection.current,
    lastProblem: () => lost,
    signInRequired: () => signIn,
  };
  return {
    transport: connection,
    pid: undefined,
    exitInfo: undefined,
    remote: link,
    get stderrDropped() {
      return log.droppedLines;
    },
    stderrTail: (lines) => log.lines().slice(-lines),
  };
}

/** The entry's headers with `${VAR}` expanded; a missing variable or a value that would break
 * the header is an error naming the header and the variable, never the value. */
function expandHeaders(
  name: string,
  headers: Readonly<Record<string, string>>,
  options: RemoteLaunchOptions,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [header, raw] of Object.entries(headers)) {
    const expanded = expandEnvValue(raw, options.lookup, options.platform);
    if (expanded.missing.length > 0) {
      const vars = expanded.missing.map((v) => `\${${v}}`).join(', ');
      throw new LaunchError(
        'missing-variable',
        `'${name}': header ${header} uses ${vars}, which is not set. Set it with 'switchyard secret set NAME', or export it before starting the browser.`,
      );
    }
    const problem = headerValueProblem(expanded.value);
    if (problem !== undefined) {
      throw new LaunchError('spawn-failed', `'${name}': header ${header}: ${problem}.`);
    }
    result[header] = expanded.value;
  }
  return result;
}

/**
 * The one transport the SDK client holds for a remote server. For `auto` it starts as Streamable
 * HTTP and, should the server refuse `initialize` as a non-Streamable server does, swaps in an
 * HTTP+SSE transport and sends `initialize` again there; the client never sees the swap.
 */
interface ConnectionOptions {
  readonly fetch: FetchLike;
  readonly write: (line: string) => void;
  /** Sees every error of a start or a send, to tell a needed sign-in from an outage; null after
   * a send that went through. */
  readonly onAuthError: (error: unknown) => void;
  readonly authProvider?: OAuthClientProvider;
}

class RemoteConnection implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  private inner: Transport;
  private kind: 'streamable-http' | 'sse';
  /** Whether the transport may still fall back to HTTP+SSE (`auto`, nothing answered yet). */
  private canFallBack: boolean;
  private closed = false;
  private protocolVersion: string | undefined;

  private readonly write: (line: string) => void;

  constructor(
    transport: RemoteTransport,
    private readonly url: URL,
    private readonly options: ConnectionOptions,
  ) {
    this.write = options.write;
    this.kind = transport === 'sse' ? 'sse' : 'streamable-http';
    this.canFallBack = transport === 'auto';
    this.inner = this.create(this.kind);
  }

  /** Which transport is in use now (`auto` settles on one). */
  get current(): 'streamable-http' | 'sse' {
    return this.kind;
  }

  /**
   * Whether the transport in use opens one HTTP request per JSON-RPC request (Streamable HTTP
   * does, HTTP+SSE does not): the SDK reads it before each request. On a 2026-07-28 connection it
   * then cancels a request by closing that request's stream, as that revision says; without it
   * the SDK POSTed `notifications/cancelled`, which a v2 server ignores there, and the call ran on.
   * The cost, on Node 20 and 22: the SDK joins each request's signal to the transport's with
   * `AbortSignal.any`, and those Nodes keep a WeakRef per joined signal on the transport's until
   * the connection closes (66 and 167 bytes of heap per call, measured; the SDK's own client does
   * the same). Node 26 lets go of them (13 bytes per call): docs/architecture.md, Remote servers.
   */
  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    try {
      await this.inner.start();
    } catch (error) {
      this.options.onAuthError(error);
      throw error;
    }
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    try {
      await this.inner.send(message, options);
      this.options.onAuthError(null);
      if ('method' in message && message.method === 'initialize') this.canFallBack = false;
    } catch (error) {
      this.options.onAuthError(error);
      if (this.sessionLost(message, error)) {
        // The spec's answer to a 404 on a session: a new one. Closing has the runtime reconnect;
        // kept open, every later request would carry the dead session id and fail the same way.
        this.write('the server no longer knows this session (HTTP 404); starting a new one');
        await this.close().catch(() => undefined);
        throw error;
      }
      if (!this.shouldFallBack(message, error)) throw error;
      this.canFallBack = false;
      this.write(
        'the server refused Streamable HTTP; trying the legacy HTTP+SSE transport at the same URL',
      );
      const old = this.inner;
      old.onclose = undefined;
      old.onerror = undefined;
      old.onmessage = undefined;
      await old.close().catch(() => undefined);
      this.kind = 'sse';
      this.inner = this.create('sse');
      await this.inner.start();
      await this.inner.send(message, options);
    }
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.inner.setProtocolVersion?.(version);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.inner.close();
  }

  /** A 404 to a request on a Streamable HTTP session: the server ended it (restarted, expired). */
  private sessionLost(message: JSONRPCMessage, error: unknown): boolean {
    const initialize = 'method' in message && message.method === 'initialize';
    const on = this.kind === 'streamable-http' && this.inner.sessionId !== undefined;
    return on && !initialize && error instanceof SdkHttpError && error.status === 404;
  }

  private shouldFallBack(message: JSONRPCMessage, error: unknown): boolean {
    return (
      this.canFallBack &&
      !this.closed &&
      'method' in message &&
      message.method === 'initialize' &&
      error instanceof SdkHttpError &&
      NOT_STREAMABLE.has(error.status)
    );
  }

  private create(kind: 'streamable-http' | 'sse'): Transport {
    const provider = this.options.authProvider;
    const auth = provider === undefined ? {} : { authProvider: provider };
    const transport =
      kind === 'sse'
        ? // eslint-disable-next-line @typescript-eslint/no-deprecated -- the legacy transport is for the servers that still speak only it (issue 11).
          new SSEClientTransport(this.url, { fetch: this.options.fetch, ...auth })
        : new StreamableHTTPClientTransport(this.url, {
            fetch: this.options.fetch,
            ...auth,
            // A 403 insufficient_scope runs the step-up through the provider: in the background
            // it records the scope wanted, so the next sign-in asks for it.
            onInsufficientScope: 'reauthorize',
            // Resumption of an interrupted stream (Last-Event-ID) where the server supports it.
            reconnectionOptions: {
              initialReconnectionDelay: 1_000,
              maxReconnectionDelay: 30_000,
              reconnectionDelayGrowFactor: 1.5,
              maxRetries: 5,
            },
          });
    transport.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
      this.onmessage?.(message, extra);
    };
    transport.onerror = (error) => this.onerror?.(error);
    transport.onclose = () => {
      this.closed = true;
      this.onclose?.();
    };
    if (this.protocolVersion !== undefined) transport.setProtocolVersion(this.protocolVersion);
    return transport;
  }
}
