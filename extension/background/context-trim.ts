import type { ChatMessage } from '../messaging/conversation';

/**
 * What of a long conversation is sent when all of it would not fit the model's context window
 * (issue 14): the oldest whole turns are left out. A turn starts at a user message, so a tool
 * call is never sent without its result (the pairing invariant, messaging/conversation.ts), and
 * the latest user message is always sent; the system prompt is not part of `messages` and is
 * always sent. The caller marks what was left out (the conversation's `notSent`); nothing is
 * dropped silently. Pure: the token cost of a message is a parameter.
 */

export interface TrimResult {
  /** The messages to send: a suffix of the input that starts at a user message (or all). */
  readonly messages: readonly ChatMessage[];
  /** How many of the first messages were left out. */
  readonly dropped: number;
  /** False when even the latest turn alone is over the budget (it is sent anyway). */
  readonly fits: boolean;
}

/**
 * The longest suffix of whole turns that costs at most `budget` tokens. When no suffix fits,
 * everything before the latest user message is left out and `fits` is false: that turn is the
 * least a request can carry.
 */
export function trimToBudget(
  messages: readonly ChatMessage[],
  budget: number,
  cost: (message: ChatMessage) => number,
): TrimResult {
  const costs = messages.map(cost);
  let total = costs.reduce((sum, tokens) => sum + tokens, 0);
  if (total <= budget) return { messages, dropped: 0, fits: true };
  const starts = messages.flatMap((message, index) =>
    message.role === 'user' && index > 0 ? [index] : [],
  );
  let from = 0;
  for (const start of starts) {
    for (let index = from; index < start; index += 1) total -= costs[index] ?? 0;
    from = start;
    if (total <= budget) return { messages: messages.slice(start), dropped: start, fits: true };
  }
  return { messages: messages.slice(from), dropped: from, fits: false };
}
