import { describeConnection, type ConnectionState } from '../../messaging/connection';
import { longDate } from './format';

/**
 * What the connection banner shows for each state of the native connection: how bad it is, one
 * line that says what to do (describeConnection), the command to run if there is one, and whether
 * "Retry" makes sense. Connected with no configuration problems: no banner.
 */

export interface ConnectionBannerView {
  readonly tone: 'info' | 'warning' | 'error';
  readonly title: string;
  readonly message: string;
  /** A command the user should run in a terminal, shown copyable. */
  readonly command: string | null;
  readonly canRetry: boolean;
  /** Configuration problems the host found, one line each. */
  readonly details: readonly string[];
}

export function connectionBannerView(state: ConnectionState): ConnectionBannerView | null {
  const message = describeConnection(state);
  switch (state.state) {
    case 'connected':
      if (state.configWarnings.length === 0) return null;
      return {
        tone: 'warning',
        title:
          state.configWarnings.length === 1
            ? 'A problem in your Switchyard configuration'
            : `${state.configWarnings.length} problems in your Switchyard configuration`,
        message: `The host skipped what it could not read; fix the file it names (in ${state.home}).`,
        command: null,
        canRetry: false,
        details: state.configWarnings,
      };
    case 'connecting':
      return {
        tone: 'info',
        title: 'Connecting',
        message,
        command: null,
        canRetry: false,
        details: [],
      };
    case 'not-installed':
      return {
        tone: 'error',
        title: 'Switchyard host not installed',
        message,
        command: 'switchyard install',
        canRetry: true,
        details: [],
      };
    case 'crashed':
      return {
        tone: state.retryInMs === null ? 'error' : 'warning',
        title: 'Switchyard host stopped',
        message,
        command: state.retryInMs === null ? 'switchyard doctor' : null,
        canRetry: true,
        details: [],
      };
    case 'protocol-mismatch':
      return {
        tone: 'error',
        title: 'Host and extension versions differ',
        message,
        command: 'switchyard install',
        canRetry: true,
        details: [],
      };
    case 'disconnected':
      return {
        tone: 'warning',
        title: 'Not connected',
        message,
        command: null,
        canRetry: true,
        details: [],
      };
  }
}

export interface RuntimeNoticeView {
  readonly title: string;
  readonly message: string;
  /** What to run in a terminal once a maintained Node is installed (the message ends on it). */
  readonly command: string;
  /** The Node version the notice is about: hiding it hides it for this version only. */
  readonly node: string;
}

/**
 * The notice for a host that runs on a Node past its end of life (no more security fixes), from
 * what `host/hello` said (native-host/shared/node-support.ts). Null otherwise, and for a host too
 * old to say. `switchyard install` and `doctor` say the same in the terminal.
 */
export function runtimeNoticeView(state: ConnectionState): RuntimeNoticeView | null {
  if (state.state !== 'connected' || state.runtime === null || !state.runtime.ended) return null;
  const { node, endOfLife, suggested } = state.runtime;
  const move =
    suggested === null ? 'Install a maintained Node' : `Install Node ${suggested} or later`;
  return {
    title: 'The host runs on a Node without security fixes',
    message: `Node ${node} ${endOfLife === null ? 'no longer gets security fixes' : `stopped getting security fixes on ${longDate(endOfLife)}`}. It runs the Switchyard host, which reads what your servers send and holds your sign-ins. ${move}, then run this again with it:`,
    command: 'switchyard install',
    node,
  };
}

/** Splits a message on backticks: odd pieces are code (`switchyard install`). */
export function splitCodeSpans(
  text: string,
): readonly { readonly code: boolean; readonly text: string }[] {
  const pieces = text.split('`');
  // An unmatched backtick leaves an even count: its last piece is plain text.
  return pieces
    .map((piece, index) => ({
      code: index % 2 === 1 && !(index === pieces.length - 1 && pieces.length % 2 === 0),
      text: piece,
    }))
    .filter((piece) => piece.text !== '');
}
