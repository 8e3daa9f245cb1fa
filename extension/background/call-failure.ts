import type { ToolOutcome } from '../messaging/agent-events';
import { ClientRequestError, HostRequestError } from './host-errors';
import { OUTCOME_TEXT } from './tool-outcome';
import { messageOf } from '../../protocol/guards';

/**
 * What the model reads when a host call failed, by the failure's `reason` (never its message,
 * docs/protocol.md, Errors): whether it ran, may have run, or did not, and what to do next.
 */

export function outcomeOfFailure(
  error: unknown,
  /** Wraps text quoted from the server as untrusted data. */
  wrapServerText: (text: string) => string,
): ToolOutcome {
  if (error instanceof HostRequestError) {
    switch (error.reason) {
      case 'denied':
        return {
          status: 'denied',
          content: `Denied by the user's tool policy. ${error.message}`,
        };
      case 'cancelled':
        return { status: 'cancelled', content: OUTCOME_TEXT.stoppedDuringRun };
      case 'server-error':
      case 'server-exited':
        // The message quotes the server (its error or its stderr): untrusted.
        return {
          status: 'error',
          content: `The tool failed (${error.reason}); it may or may not have had an effect.\n${wrapServerText(error.message)}`,
        };
      case 'timeout':
        return {
          status: 'error',
          content: `The tool did not answer in time; it may or may not have had an effect. ${error.message}`,
        };
      case 'approval-required':
      case 'approval-invalid':
      case 'unknown-tool':
      case 'unknown-profile':
      case 'server-unavailable':
      case 'not-supported':
        return { status: 'error', content: `Not run (${error.reason}): ${error.message}` };
      case 'result-too-large':
        return {
          status: 'error',
          content: `The tool ran, but its result was too large to relay: ask for less (a narrower query or a smaller range). ${error.message}`,
        };
      case 'invalid-params':
      case 'invalid-request':
      case 'unknown-method':
      case 'unknown-server':
      case 'protocol-mismatch':
      case 'config-invalid':
      case 'fingerprint-mismatch':
      case 'not-pending':
      case 'already-exists':
      case 'workspace-server':
      case 'busy':
      case 'sign-in-failed':
      case 'internal':
        return {
          status: 'error',
          content: `The call failed (${error.reason}): ${error.message}`,
        };
    }
  }
  if (error instanceof ClientRequestError) {
    switch (error.reason) {
      case 'cancelled':
        return { status: 'cancelled', content: OUTCOME_TEXT.stoppedDuringRun };
      case 'disconnected':
        return {
          status: 'error',
          content: `The call did not finish: ${error.message} It may or may not have run.`,
        };
      case 'not-connected':
        return { status: 'error', content: `Not run: ${error.message}` };
      case 'timeout':
      case 'invalid-response':
        return {
          status: 'error',
          content: `The call failed: ${error.message} It may or may not have run.`,
        };
    }
  }
  return {
    status: 'error',
    content: `The call failed: ${messageOf(error)}`,
  };
}
