/**
 * Messages an MCP App asks to send to the chat (`ui/message`, issue 12). Nothing is sent for the
 * app: its text lands in the message box, marked as the app's, for the user to read, edit and
 * send (or not). One panel, one box: a module-level channel between the app frames and it.
 */

export interface ProposedMessage {
  readonly server: string;
  readonly text: string;
}

/** A box that hears a proposal: whether it took it (it keeps a draft over one). */
export type ProposalListener = (message: ProposedMessage) => boolean;

const listeners = new Set<ProposalListener>();

/**
 * Puts an app's message in the box; false when no box took it (none listens, or the box held a
 * draft): the app is then told its message was not placed.
 */
export function proposeMessage(message: ProposedMessage): boolean {
  let taken = false;
  for (const listener of listeners) taken = listener(message) || taken;
  return taken;
}

export function onProposedMessage(listener: ProposalListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
