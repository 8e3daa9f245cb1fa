import { jsonSchema, tool, type JSONSchema7, type ModelMessage, type ToolSet } from 'ai';
import { z } from 'zod';
import type { ChatMessage, ToolResultPart } from '../../messaging/conversation';
import type { ProviderTool } from './provider';
import { userModelText } from '../attachments';
import { isRecord } from '../../../protocol/guards';

/**
 * Pure translation of the conversation (conversation.ts) and tool specs into the AI SDK's
 * provider-neutral shapes; each SDK provider turns these into its own wire format.
 */

export function toModelMessages(messages: readonly ChatMessage[]): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    switch (message.role) {
      case 'user':
        return { role: 'user', content: userModelText(message) };
      case 'assistant':
        return {
          role: 'assistant',
          content: message.content.map((part) =>
            part.type === 'text'
              ? { type: 'text', text: part.text }
              : {
                  type: 'tool-call',
                  toolCallId: part.id,
                  toolName: part.name,
                  input: part.arguments,
                },
          ),
        };
      case 'tool':
        return {
          role: 'tool',
          content: message.results.map((result) => ({
            type: 'tool-result',
            toolCallId: result.callId,
            toolName: result.name,
            output: toolOutput(result),
          })),
        };
    }
  });
}

/**
 * Anything but `ok` goes as error text (Anthropic `is_error: true`), so the model knows the call
 * did not succeed; the content already says why (denied, cancelled, interrupted).
 */
function toolOutput(result: ToolResultPart): { type: 'text' | 'error-text'; value: string } {
  return { type: result.status === 'ok' ? 'text' : 'error-text', value: result.content };
}

// JSON Schema arrives as plain data (from MCP servers); it is passed through, never interpreted.
const JsonSchemaObjectSchema = z.custom<JSONSchema7>((value) => isRecord(value));

/**
 * AI SDK tools from the specs, deliberately without `execute`: the agent loop runs tools itself
 * (approval, routing, cancellation), so the SDK only reports the calls and stops after one step.
 */
export function toToolSet(tools: readonly ProviderTool[]): ToolSet {
  const set: ToolSet = {};
  for (const spec of tools) {
    set[spec.name] = tool({
      description: spec.description,
      inputSchema: jsonSchema(JsonSchemaObjectSchema.parse(spec.inputSchema)),
    });
  }
  return set;
}
