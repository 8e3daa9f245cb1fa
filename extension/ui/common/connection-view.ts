import { describeConnection, type ConnectionState } from '../../messaging/connection';

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
