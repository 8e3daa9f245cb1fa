import { MAX_CHAT_MESSAGE_CHARS } from '../../messaging/ui-protocol';

/** The composer's rules, pure so they are tested without a DOM. */

export interface ComposerKey {
  readonly key: string;
  readonly shiftKey: boolean;
  /** An IME is composing (Enter confirms a candidate, it does not send). */
  readonly isComposing: boolean;
}

/** Enter sends; Shift+Enter (and Enter while an IME composes) inserts a newline. */
export function composerKeyAction(event: ComposerKey): 'send' | 'default' {
  if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return 'default';
  return 'send';
}

export type SendBlock =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: string | null };

/**
 * Whether the message can be sent now, and why not (null when there is nothing to say). A message
 * may be only an attachment (an image, a file, a resource, the page's selection): no words needed.
 */
export function sendCheck(input: {
  readonly text: string;
  readonly busy: boolean;
  readonly hasProvider: boolean;
  /** Attachments of every kind on the next message (default 0). */
  readonly attached?: number;
}): SendBlock {
  const text = input.text.trim();
  if (input.busy) return { ok: false, reason: null };
  if (!input.hasProvider) return { ok: false, reason: 'Set up a model provider first.' };
  if (text === '' && (input.attached ?? 0) === 0) return { ok: false, reason: null };
  if (text.length > MAX_CHAT_MESSAGE_CHARS) {
    return {
      ok: false,
      reason: `Too long: ${text.length - MAX_CHAT_MESSAGE_CHARS} characters over the limit of ${MAX_CHAT_MESSAGE_CHARS}.`,
    };
  }
  return { ok: true, text };
}

/**
 * Whether an MCP App's proposed message (ui/message) may fill the box that holds `current`: only
 * an empty one. Over a draft (the user's, or an earlier proposal they may be reading) it is left
 * out, so an app cannot swap its words in just before the user presses Enter.
 */
export function takesProposal(current: string): boolean {
  return current.trim() === '';
}

/**
 * What the box holds once the worker took the message it held as `sent` (the answer can take
 * seconds: the worker reads attached resources through the host first). The box stays editable
 * meanwhile, so whatever the user typed after pressing Send stays: the sent text alone is taken
 * out, and a box edited some other way is left as it is.
 */
export function draftAfterSend(now: string, sent: string): string {
  if (now === sent) return '';
  if (now.startsWith(sent)) return now.slice(sent.length).trimStart();
  return now;
}
