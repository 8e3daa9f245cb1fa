import { z } from 'zod';

/**
 * A conversation as plain, serializable data: what the side panel shows, what the worker persists
 * across restarts, and what the provider adapters translate into their own message formats.
 *
 * The pairing invariant: every assistant message with tool calls is followed directly by one
 * `tool` message with exactly one result per call, in any order, and a `tool` message appears
 * nowhere else. Providers refuse a transcript that breaks it (Anthropic: "tool_use ids were found
 * without tool_result blocks"), and since the transcript is re-sent every turn, one unpaired call
 * poisons every later turn of the chat.
 */

export const TextPartSchema = z.object({ type: z.literal('text'), text: z.string() });

export const ToolCallPartSchema = z.object({
  type: z.literal('tool-call'),
  /** Unique within the conversation. */
  id: z.string().min(1),
  /** A name legal for every provider (design D4). */
  name: z.string().min(1),
  /** The arguments as the model sent them (`{}` when they were not a JSON object). */
  arguments: z.record(z.string(), z.json()),
});
export type ToolCallPart = z.infer<typeof ToolCallPartSchema>;

/**
 * How a call ended, for the UI; the model reads `content`. `pending` exists only while the call
 * runs: its content already says what the model must read if the worker dies before it finishes.
 */
export const ToolResultStatusSchema = z.enum(['ok', 'error', 'denied', 'cancelled', 'pending']);
export type ToolResultStatus = z.infer<typeof ToolResultStatusSchema>;

export const ToolResultPartSchema = z.object({
  type: z.literal('tool-result'),
  callId: z.string().min(1),
  name: z.string().min(1),
  status: ToolResultStatusSchema,
  /** What the model reads: the result (already wrapped as untrusted data) or what went wrong. */
  content: z.string(),
});
export type ToolResultPart = z.infer<typeof ToolResultPartSchema>;

export const UserMessageSchema = z.object({ role: z.literal('user'), content: z.string() });
export const AssistantMessageSchema = z.object({
  role: z.literal('assistant'),
  content: z.array(z.discriminatedUnion('type', [TextPartSchema, ToolCallPartSchema])),
});
export const ToolMessageSchema = z.object({
  role: z.literal('tool'),
  results: z.array(ToolResultPartSchema),
});

export const ChatMessageSchema = z.discriminatedUnion('role', [
  UserMessageSchema,
  AssistantMessageSchema,
  ToolMessageSchema,
]);
export type ChatMessage = z.infer<typeof ChatMessageSchema>;
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;
export type ToolMessage = z.infer<typeof ToolMessageSchema>;

export const ConversationSchema = z.object({
  /** Bumped when the stored shape changes incompatibly. */
  version: z.literal(1),
  id: z.string().min(1),
  createdAt: z.number(),
  updatedAt: z.number(),
  messages: z.array(ChatMessageSchema),
});
export type Conversation = z.infer<typeof ConversationSchema>;

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
