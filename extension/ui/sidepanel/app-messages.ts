/**
 * Messages an MCP App asks to send to the chat (`ui/message`, issue 12). Nothing is sent for the
 * app: its text lands in the message box, marked as the app's, for the user to read, edit and
 * send (or not). One panel, one box: a module-level channel between the app frames and it.
 */

export interface ProposedMessage {
  readonly server: string;
  readonly text: string;
}

const listeners = new Set<(message: ProposedMessage) => void>();

/** Puts an app's message in the box; false when no box listens (nothing happened). */
export function proposeMessage(message: ProposedMessage): boolean {
  for (const listener of listeners) listener(message);
  return listeners.size > 0;
}

export function onProposedMessage(listener: (message: ProposedMessage) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
