import {
  InMemoryTransport,
  ProtocolError,
  SdkErrorCode,
  SdkHttpError,
} from '@modelcontextprotocol/client';
import { describe, expect, test } from 'vitest';
import type { ExitInfo } from '../../protocol/servers';
import {
  callFailure,
  crashMessage,
  handshakeFailureMessage,
  handshakeOutcome,
  untrustedMessage,
  type CallFailureContext,
} from './runtime-errors';
import { describeExit } from '../../protocol/servers';
import type { ServerProcess } from './runtime-types';

// Which reason a failed call reports decides what the agent and the UI do next. Dangerous
// direction: a server's own error (even code -32001) read as a host timeout or a cancellation,
// or server text relayed unsanitized.

function processWith(exitInfo: ExitInfo | undefined): ServerProcess {
  return {
    transport: Object.assign(InMemoryTransport.createLinkedPair()[0], {
      pid: 1,
      stderr: undefined,
    }),
    pid: 1,
    exitInfo,
    stderrTail: () => ['boom'],
    stderrDropped: 0,
  };
}

const base: CallFailureContext = {
  server: 's',
  cancelled: false,
  timedOut: false,
  timeoutMs: 1_000,
  process: processWith(undefined),
  disconnected: false,
};
const exited = processWith({ code: 3, signal: null });
const serverError = new ProtocolError(-32001, 'request timed out on my side');

describe('callFailure', () => {
  test.each<readonly [string, Partial<CallFailureContext>, unknown, string]>([
    [
      'a cancel beats everything',
      { cancelled: true, timedOut: true, process: exited },
      serverError,
      'cancelled',
    ],
    ['the host timer beats an exit', { timedOut: true, process: exited }, serverError, 'timeout'],
    ['an exit beats the error it caused', { process: exited }, serverError, 'server-exited'],
    [
      'a closed connection reads as an exit',
      { disconnected: true },
      new Error('x'),
      'server-exited',
    ],
    ["the server's own -32001 is its error, not a timeout", {}, serverError, 'server-error'],
    ['an answer that did not parse', {}, new Error('bad'), 'server-error'],
  ])('%s', (_label, over, error, reason) => {
    expect(callFailure(error, { ...base, ...over }).reason).toBe(reason);
  });

  test('an exit quotes the exit and stderr', () => {
    const failure = callFailure(new Error('x'), { ...base, process: exited });
    expect(failure.message).toBe(
      "Server 's' exited (exit code 3) while the call was pending. Last stderr: boom",
    );
    expect(failure.details).toEqual({
      server: 's',
      exit: { code: 3, signal: null },
      stderr: ['boom'],
    });
  });
});

describe('describeExit', () => {
  test.each<readonly [ExitInfo, string]>([
    [{ code: null, signal: 'SIGKILL' }, 'signal SIGKILL'],
    [{ code: 3, signal: null }, 'exit code 3'],
    [{ code: null, signal: null }, 'no exit status'],
  ])('%j reads %s', (exit, text) => {
    expect(describeExit(exit)).toBe(text);
  });
});

test('untrustedMessage caps what a server says', () => {
  expect(untrustedMessage('x'.repeat(5_000)).length).toBeLessThan(2_100);
});

describe('a remote server (issue 11)', () => {
  function remoteProcess(problem: string | undefined, tail: string[] = []): ServerProcess {
    return {
      transport: InMemoryTransport.createLinkedPair()[0],
      pid: undefined,
      exitInfo: undefined,
      stderrTail: () => tail,
      stderrDropped: 0,
      remote: {
        url: 'https://mcp.example.com/mcp?tenant=acme',
        origin: 'https://mcp.example.com',
        transport: () => 'streamable-http',
        lastProblem: () => problem,
        signInRequired: () => undefined,
      },
    };
  }
  const refused = remoteProcess('connection refused (ECONNREFUSED)', [
    'POST /mcp: connection refused (ECONNREFUSED)',
  ]);

  test.each<[string, ServerProcess, { timedOut: boolean; error: unknown }, string]>([
    [
      'an unreachable server names the origin and the network problem',
      refused,
      { timedOut: false, error: new TypeError('fetch failed') },
      "'s' could not connect to https://mcp.example.com: connection refused (ECONNREFUSED). Last HTTP errors: POST /mcp: connection refused (ECONNREFUSED)",
    ],
    [
      'a refused handshake quotes the sanitized error',
      remoteProcess(undefined, ['POST /mcp: HTTP 403 Forbidden']),
      { timedOut: false, error: new Error('Error POSTing to endpoint: \u001b[31mforbidden') },
      "'s' could not connect to https://mcp.example.com: Error POSTing to endpoint: forbidden. Last HTTP errors: POST /mcp: HTTP 403 Forbidden",
    ],
    [
      'a timeout names the URL without a credential in its query',
      {
        ...remoteProcess(undefined),
        remote: {
          ...remoteProcess(undefined).remote!,
          url: 'https://mcp.example.com/mcp?api_key=sk-live-1234',
        },
      },
      { timedOut: true, error: new Error('x') },
      "'s' did not complete the MCP handshake with https://mcp.example.com/mcp?api_key=… within 5000 ms; check that the URL is the server's MCP endpoint (set \"timeout\" in config.json if it is slow).",
    ],
    [
      'a timeout names the URL and says what to check',
      remoteProcess(undefined),
      { timedOut: true, error: new Error('x') },
      "'s' did not complete the MCP handshake with https://mcp.example.com/mcp?tenant=acme within 5000 ms; check that the URL is the server's MCP endpoint (set \"timeout\" in config.json if it is slow).",
    ],
  ])('handshake: %s', (_label, process, failure, message) => {
    expect(handshakeFailureMessage('s', process, { ...failure, handshakeTimeoutMs: 5_000 })).toBe(
      message,
    );
  });

  test.each<[string, ServerProcess, number, string]>([
    // A first start that fails is final; a restart's, or an outage, goes to the restart policy.
    ['a local first start', { ...remoteProcess(undefined), remote: undefined }, 0, 'failed'],
    ['a local restart', { ...remoteProcess(undefined), remote: undefined }, 1, 'crashed'],
    ['a remote server out of reach at its first start', refused, 0, 'crashed'],
    [
      'one that wants a sign-in, even on a restart',
      {
        ...refused,
        remote: { ...refused.remote!, signInRequired: () => "Sign in to 's' first." },
      },
      2,
      'failed',
    ],
  ])('handshake outcome: %s', (_label, process, attempt, kind) => {
    const outcome = handshakeOutcome('s', process, {
      attempt,
      timedOut: false,
      handshakeTimeoutMs: 5_000,
      error: new Error('x'),
    });
    expect(outcome.kind).toBe(kind);
    if (outcome.kind === 'failed' && kind === 'failed' && attempt === 2) {
      expect(outcome.state).toEqual({
        state: 'failed',
        reason: 'auth-required',
        message: "Sign in to 's' first.",
      });
    }
  });

  test.each<[string, ServerProcess, string]>([
    [
      'with a problem',
      refused,
      "'s' lost its connection to https://mcp.example.com: connection refused (ECONNREFUSED). Last HTTP errors: POST /mcp: connection refused (ECONNREFUSED)",
    ],
    [
      'without one',
      remoteProcess(undefined),
      "'s' lost its connection to https://mcp.example.com.",
    ],
  ])('a lost connection %s speaks of the connection, not an exit', (_label, process, message) => {
    expect(crashMessage('s', { code: null, signal: null }, process)).toBe(message);
  });

  test('a fetch TypeError during a call reads as a lost connection', () => {
    const failure = callFailure(new TypeError('fetch failed'), { ...base, process: refused });
    expect(failure.reason).toBe('server-exited');
    expect(failure.message).toBe(
      "Server 's' lost its connection to https://mcp.example.com while the call was pending. Last HTTP errors: POST /mcp: connection refused (ECONNREFUSED)",
    );
  });

  test('a TypeError from a local server stays its own error', () => {
    expect(callFailure(new TypeError('bad'), base).reason).toBe('server-error');
  });

  test('an HTTP error status is a server error that names the status', () => {
    const error = new SdkHttpError(
      SdkErrorCode.ClientHttpNotImplemented,
      'Error POSTing to endpoint: \u202eoops',
      { status: 502, statusText: 'Bad Gateway' },
    );
    const failure = callFailure(error, { ...base, process: remoteProcess(undefined) });
    expect(failure.reason).toBe('server-error');
    expect(failure.message).toMatch(/^Server 's' answered HTTP 502 Bad Gateway: /);
    expect(failure.message).toContain('⟦U+202E⟧oops');
    expect(failure.details).toEqual({ server: 's', status: 502 });
  });
});
