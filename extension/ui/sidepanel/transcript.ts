import type { CallProgress, Usage } from '../../messaging/agent-events';
import type { ChatMessage, ToolApp, ToolResultPart } from '../../messaging/conversation';
import type { ImagePart } from '../../messaging/images';
import type { ChatNotice, ChatState } from './chat-state';
import { turnUsages } from './usage-view';

/**
 * The transcript as the panel draws it: user and assistant bubbles, one compact row per tool
 * call (its status from the transcript, refined by the live event stream while it runs), inline
 * notices where they happened, and the text streaming into the current reply.
 */

export type ToolRowStatus =
  | 'queued'
  | 'waiting-approval'
  | 'running'
  | 'ok'
  | 'error'
  | 'denied'
  | 'cancelled'
  | 'interrupted';

export type TranscriptItem =
  | {
      readonly kind: 'user';
      readonly key: string;
      /** Its place in the conversation's messages (what Edit and Retry resend). */
      readonly index: number;
      readonly text: string;
      /** What the user attached: names and servers, never the content. */
      readonly attachments: readonly { readonly server: string; readonly name: string }[];
      /** Images and text files the user attached (issue 14). */
      readonly images: readonly ImagePart[];
      readonly files: readonly string[];
    }
  | {
      readonly kind: 'assistant';
      readonly key: string;
      readonly text: string;
      readonly streaming: boolean;
    }
  | {
      readonly kind: 'tool';
      readonly key: string;
      readonly callId: string;
      readonly name: string;
      readonly arguments: unknown;
      readonly status: ToolRowStatus;
      /** What the model read; null while the call has no result yet. */
      readonly result: string | null;
      /** The MCP App shown with the result (issue 12); null when the tool has none. */
      readonly app: ToolApp | null;
      /** The result's images, past the worker's image gate (issue 14). */
      readonly images: readonly ImagePart[];
      /** While it runs: the server's last progress report, or null if it sent none. */
      readonly progress: CallProgress | null;
      /** While it runs: the user pressed Cancel and its result is on the way. */
      readonly cancelling: boolean;
    }
  | { readonly kind: 'notice'; readonly key: string; readonly notice: ChatNotice }
  /** What the provider reported a finished turn used (issue 14). */
  | { readonly kind: 'usage'; readonly key: string; readonly usage: Usage }
  /** Where the messages the latest request left out (over the context window) end. */
  | { readonly kind: 'not-sent'; readonly key: string; readonly count: number }
  /** The model is working and nothing else shows it yet. */
  | { readonly kind: 'thinking'; readonly key: string };

/**
 * A running call's progress for its row: the bar's fraction (null: indeterminate, the server
 * gave no total or an unusable one) and a short text ("3 of 5", "40%", "step 3").
 */
export function progressView(progress: CallProgress): {
  readonly fraction: number | null;
  readonly text: string;
} {
  const { progress: done, total } = progress;
  if (!Number.isFinite(done)) return { fraction: null, text: '' };
  if (total !== undefined && Number.isFinite(total) && total > 0) {
    const fraction = Math.min(1, Math.max(0, done / total));
    const whole = Number.isInteger(done) && Number.isInteger(total);
    return {
      fraction,
      text: whole ? `${done} of ${total}` : `${Math.round(fraction * 100)}%`,
    };
  }
  return { fraction: null, text: Number.isInteger(done) ? `step ${done}` : '' };
}

/** Seconds as the row shows them: "8 s", "2 min 5 s". */
export function elapsedText(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

export function toolStatusLabel(status: ToolRowStatus): string {
  switch (status) {
    case 'queued':
      return 'queued';
    case 'waiting-approval':
      return 'waiting for your approval';
    case 'running':
      return 'running';
    case 'ok':
      return 'done';
    case 'error':
      return 'failed';
    case 'denied':
      return 'denied';
    case 'cancelled':
      return 'cancelled';
    case 'interrupted':
      return 'interrupted';
  }
}

type LiveView = Pick<ChatState, 'running' | 'liveCalls' | 'approvals'>;

function rowStatus(
  result: ToolResultPart | undefined,
  callId: string,
  live: LiveView,
): ToolRowStatus {
  if (result !== undefined && result.status !== 'pending') return result.status;
  if (live.approvals.some((a) => a.callId === callId)) return 'waiting-approval';
  const call = live.liveCalls.get(callId);
  if (call?.phase === 'finished') return call.status;
  if (!live.running) return 'interrupted';
  return call?.phase === 'running' ? 'running' : 'queued';
}

function messageItems(
  message: ChatMessage,
  index: number,
  next: ChatMessage | undefined,
  live: LiveView,
): TranscriptItem[] {
  switch (message.role) {
    case 'user':
      return [
        {
          kind: 'user',
          key: `m${index}`,
          index,
          text: message.content,
          attachments: (message.attachments ?? []).map(({ server, name }) => ({ server, name })),
          images: message.images ?? [],
          files: (message.files ?? []).map((file) => file.name),
        },
      ];
    case 'tool':
      // Drawn with the calls they answer.
      return [];
    case 'assistant': {
      const results = next?.role === 'tool' ? next.results : [];
      const items: TranscriptItem[] = [];
      message.content.forEach((part, partIndex) => {
        const key = `m${index}p${partIndex}`;
        if (part.type === 'text') {
          const previous = items.at(-1);
          if (previous?.kind === 'assistant') {
            items[items.length - 1] = { ...previous, text: `${previous.text}${part.text}` };
          } else if (part.text !== '') {
            items.push({ kind: 'assistant', key, text: part.text, streaming: false });
          }
          return;
        }
        const result = results.find((r) => r.callId === part.id);
        const status = rowStatus(result, part.id, live);
        const call = live.liveCalls.get(part.id);
        const running = status === 'running' && call?.phase === 'running' ? call : undefined;
        items.push({
          kind: 'tool',
          key,
          callId: part.id,
          name: part.name,
          arguments: part.arguments,
          status,
          result: result === undefined || result.status === 'pending' ? null : result.content,
          app: result?.app ?? null,
          images: result?.images ?? [],
          progress: running?.progress ?? null,
          cancelling: running?.cancelling === true,
        });
      });
      return items;
    }
  }
}

/**
 * What the panel offers after the last turn, when no reply is running: the last user message to
 * send again, as **Retry** when the turn ended in an error (or never got an answer), else as
 * **Regenerate**; null when there is nothing to resend.
 */
export function resendOffer(
  state: Pick<ChatState, 'conversation' | 'running' | 'sending' | 'notices'>,
): { readonly index: number; readonly label: 'Retry' | 'Regenerate' } | null {
  const messages = state.conversation?.messages ?? [];
  if (state.running || state.sending) return null;
  let index = messages.length - 1;
  while (index >= 0 && messages[index]?.role !== 'user') index -= 1;
  if (index < 0) return null;
  const answered = messages.slice(index + 1).some((m) => m.role === 'assistant');
  // An error shown after everything in the conversation: the last try failed (an older one that
  // a retry since answered does not count).
  const failed = state.notices.some(
    (n) => n.tone === 'error' && n.afterMessage > index && n.afterMessage >= messages.length,
  );
  return { index, label: failed || !answered ? 'Retry' : 'Regenerate' };
}

/** Every item of the transcript, in order. */
export function transcriptItems(state: ChatState): TranscriptItem[] {
  const messages = state.conversation?.messages ?? [];
  const items: TranscriptItem[] = [];
  const noticesAt = (count: number): void => {
    for (const notice of state.notices) {
      if (Math.min(notice.afterMessage, messages.length) === count) {
        items.push({ kind: 'notice', key: `n${notice.id}`, notice });
      }
    }
  };
  const usages = turnUsages(messages);
  const notSent = Math.min(state.conversation?.notSent ?? 0, messages.length);
  noticesAt(0);
  messages.forEach((message, index) => {
    if (index === notSent && notSent > 0) {
      items.push({ kind: 'not-sent', key: 'not-sent', count: notSent });
    }
    items.push(...messageItems(message, index, messages[index + 1], state));
    const usage = usages.get(index);
    // The running turn's figure grows with each step: shown once the turn is over.
    const over = !state.running || index < messages.length - 1;
    if (usage !== undefined && over) items.push({ kind: 'usage', key: `u${index}`, usage });
    noticesAt(index + 1);
  });
  if (state.streamingText !== '') {
    items.push({ kind: 'assistant', key: 'streaming', text: state.streamingText, streaming: true });
  } else if (state.running && !items.some((i) => i.kind === 'tool' && isActive(i.status))) {
    items.push({ kind: 'thinking', key: 'thinking' });
  }
  return items;
}

function isActive(status: ToolRowStatus): boolean {
  return status === 'running' || status === 'waiting-approval';
}

/** The marker where the messages left out of the latest request end (never silent, issue 14). */
export function notSentText(count: number): string {
  return count === 1
    ? "1 earlier message not sent to the model: the conversation is over the model's context window."
    : `${count} earlier messages not sent to the model: the conversation is over the model's context window.`;
}
