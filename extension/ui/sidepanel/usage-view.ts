import type { Usage } from '../../messaging/agent-events';
import type { ChatMessage } from '../../messaging/conversation';
import { formatTokens } from './context-meter-view';

/**
 * Tokens as the provider reported them (issue 14), for the panel: per turn (a user message and
 * every model step that answered it, tool rounds included) and for the whole conversation.
 * Steps the provider reported nothing for add nothing; a turn with no report shows none.
 */

function add(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
  };
}

/** Each turn's usage, keyed by the index of the turn's last message. */
export function turnUsages(messages: readonly ChatMessage[]): ReadonlyMap<number, Usage> {
  const byTurn = new Map<number, Usage>();
  let sum: Usage | null = null;
  messages.forEach((message, index) => {
    if (message.role === 'assistant' && message.usage !== undefined) {
      sum = sum === null ? message.usage : add(sum, message.usage);
    }
    const next = messages[index + 1];
    if ((next === undefined || next.role === 'user') && sum !== null) {
      byTurn.set(index, sum);
      sum = null;
    }
  });
  return byTurn;
}

/** The whole conversation's usage, or null when the provider reported none. */
export function conversationUsage(messages: readonly ChatMessage[]): Usage | null {
  let sum: Usage | null = null;
  for (const message of messages) {
    if (message.role === 'assistant' && message.usage !== undefined) {
      sum = sum === null ? message.usage : add(sum, message.usage);
    }
  }
  return sum;
}

/** "1.2k in · 85 out": short enough for a muted line under a reply at 360 px. */
export function usageText(usage: Usage): string {
  return `${formatTokens(usage.inputTokens)} in · ${formatTokens(usage.outputTokens)} out`;
}

/** The same, spelled out for a screen reader and a tooltip. */
export function usageLabel(usage: Usage): string {
  return `${usage.inputTokens.toLocaleString('en-US')} input tokens, ${usage.outputTokens.toLocaleString('en-US')} output tokens, as the provider reported`;
}
