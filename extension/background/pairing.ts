import {
  ConversationSchema,
  type ChatMessage,
  type Conversation,
  type ToolCallPart,
  type ToolResultPart,
} from '../messaging/conversation';

/**
 * The pairing invariant of messaging/conversation.ts, kept by the worker: check it, and restore
 * it in a transcript read back from storage.
 */

/** What the model reads for a call the worker lost track of (it restarted while the call ran). */
export const INTERRUPTED_RESULT =
  'The browser stopped this call before it finished (the extension restarted); it may or may not have run.';

export function newConversation(id: string, now: number): Conversation {
  return { version: 1, id, createdAt: now, updatedAt: now, messages: [] };
}

export function toolCallsOf(message: ChatMessage): ToolCallPart[] {
  if (message.role !== 'assistant') return [];
  return message.content.filter((part) => part.type === 'tool-call');
}

/** Every break of the pairing invariant, as sentences for a test failure; empty when it holds. */
export function pairingProblems(messages: readonly ChatMessage[]): string[] {
  const problems: string[] = [];
  messages.forEach((message, index) => {
    const previous = index > 0 ? messages[index - 1] : undefined;
    if (message.role === 'tool') {
      const calls = previous === undefined ? [] : toolCallsOf(previous);
      if (calls.length === 0) problems.push(`message ${index}: tool results without tool calls`);
      return;
    }
    const calls = toolCallsOf(message);
    if (calls.length === 0) return;
    const next = messages[index + 1];
    const results = next?.role === 'tool' ? next.results : [];
    for (const call of calls) {
      const count = results.filter((r) => r.callId === call.id).length;
      if (count !== 1) problems.push(`message ${index}: call ${call.id} has ${count} results`);
    }
    for (const result of results) {
      if (!calls.some((c) => c.id === result.callId)) {
        problems.push(`message ${index + 1}: result ${result.callId} answers no call`);
      }
    }
  });
  return problems;
}

/**
 * Restores the pairing invariant in a transcript read back from storage: a call without a result
 * gets INTERRUPTED_RESULT, a `pending` result becomes an `error` (its content already says it
 * was interrupted), and results that answer no call are dropped.
 */
export function repairPairing(messages: readonly ChatMessage[]): ChatMessage[] {
  const repaired: ChatMessage[] = [];
  messages.forEach((message, index) => {
    if (message.role === 'tool') return; // re-emitted after the assistant message it answers
    repaired.push(message);
    const calls = toolCallsOf(message);
    if (calls.length === 0) return;
    const next = messages[index + 1];
    const stored = next?.role === 'tool' ? next.results : [];
    const results = calls.map((call): ToolResultPart => {
      const found = stored.find((r) => r.callId === call.id);
      if (found === undefined) {
        return {
          type: 'tool-result',
          callId: call.id,
          name: call.name,
          status: 'error',
          content: INTERRUPTED_RESULT,
        };
      }
      return found.status === 'pending' ? { ...found, status: 'error' } : found;
    });
    repaired.push({ role: 'tool', results });
  });
  return repaired;
}

/** Parses a conversation read back from storage; undefined when it is not one. Repairs pairing. */
export function restoreConversation(stored: unknown): Conversation | undefined {
  const parsed = ConversationSchema.safeParse(stored);
  if (!parsed.success) return undefined;
  return { ...parsed.data, messages: repairPairing(parsed.data.messages) };
}
