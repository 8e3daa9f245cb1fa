import { InMemoryTransport, ProtocolError } from '@modelcontextprotocol/client';
import { describe, expect, test } from 'vitest';
import type { ExitInfo } from '../../protocol/servers';
import { callFailure, untrustedMessage, type CallFailureContext } from './runtime-errors';
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
