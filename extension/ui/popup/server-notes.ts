import { describeExit, type ServerSummary } from '../../../protocol/servers';

/**
 * Lines a server's row adds to its state (issue 14): the trace a crash leaves once the host has
 * restarted the server, what a Revoke or Remove will do before it is done, and whether the row
 * offers Edit. Pure.
 */

/**
 * "Restarted after a crash (2 times); last: signal SIGKILL." while the server is back (running,
 * starting again, stopped by the user, or at the gate), from `crashes`; null when it has not
 * crashed since the user last started it, and in `crashed` and `failed`, whose own line says it.
 */
export function crashLine(server: ServerSummary): string | null {
  const crashes = server.crashes;
  if (crashes === null) return null;
  const state = server.status.state;
  if (state === 'crashed' || state === 'failed') return null;
  const times = crashes.count === 1 ? 'once' : `${crashes.count} times`;
  return `Restarted after a crash (${times}); last: ${describeExit(crashes.lastExit)}. Its logs have what it wrote.`;
}

/** The actions a row asks about first, because they cannot be undone with one click. */
export type ConfirmedAction = 'revoke' | 'remove';

/** The question a confirmation asks, in plain words: what happens, and what it takes to undo. */
export function confirmQuestion(action: ConfirmedAction, server: ServerSummary): string {
  const name = server.name;
  const running = server.status.state === 'running' || server.status.state === 'starting';
  switch (action) {
    case 'revoke':
      return `Revoke launch trust for ${name}? ${running ? 'It stops now and' : 'It'} will not start again until you approve it.`;
    case 'remove':
      return `Remove ${name} from your configuration? ${running ? 'It stops now; its' : 'Its'} approval and tool pins are forgotten.`;
  }
}

/**
 * Whether the row offers Edit: a local server of the user's own config.json. A workspace server
 * lives in the repository's file (the host does not write it); a remote one is changed by adding
 * it again with its URL.
 */
export function canEdit(server: ServerSummary): boolean {
  return server.provenance === 'user' && server.remote === null;
}
