import { estimateTokens, estimateToolTokens } from '../../protocol/token-estimate';
import type { ContextWindow } from '../messaging/context-window';
import type { ContextMeter, ToolSearchView } from '../messaging/ui-protocol';
import type { ChatMessage } from '../messaging/conversation';
import type { ToolSpec } from './tool-outcome';
import { userModelText } from './attachments';
import { imageTokens, type ImageTokenRule } from './image-tokens';

/**
 * What one model turn costs, by part (design D11), from the same estimate the host uses for tool
 * listings: the system prompt, the transcript so far, and the tool definitions, with the MCP
 * tools carved out of the tools total and named by server.
 */

/**
 * What one message costs on every turn it is sent (the same estimate as the meter's): its text,
 * and its images by the provider's formula (image-tokens.ts; 'none': images are not sent).
 */
export function messageTokens(message: ChatMessage, images: ImageTokenRule = 'none'): number {
  const cost = messageCost(message, images);
  return cost.text + cost.images;
}

/** `messageTokens` in its two parts: the text and the images. */
function messageCost(
  message: ChatMessage,
  images: ImageTokenRule,
): { readonly text: number; readonly images: number } {
  return {
    text: estimateTokens(messageText(message)),
    images: imagesOf(message).reduce((sum, image) => sum + imageTokens(images, image), 0),
  };
}

function imagesOf(message: ChatMessage) {
  switch (message.role) {
    case 'user':
      return message.images ?? [];
    case 'assistant':
      return [];
    case 'tool':
      return message.results.flatMap((result) => result.images ?? []);
  }
}

/** What the tool definitions cost per turn: the host's figure for MCP tools, an estimate for ours. */
export function toolTokens(tools: readonly ToolSpec[]): number {
  return tools.reduce(
    (sum, tool) =>
      sum + (tool.source.kind === 'mcp' ? tool.source.tokens : estimateToolTokens(tool)),
    0,
  );
}

function messageText(message: ChatMessage): string {
  switch (message.role) {
    case 'user':
      // Attachments count: they are sent on every turn after.
      return userModelText(message);
    case 'assistant':
      return message.content
        .map((part) =>
          part.type === 'text' ? part.text : `${part.name}(${JSON.stringify(part.arguments)})`,
        )
        .join('\n');
    case 'tool':
      return message.results.map((result) => result.content).join('\n');
  }
}

export function contextMeter(input: {
  readonly system: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolSpec[];
  /** How many of the first messages the latest request left out (Conversation.notSent). */
  readonly notSent?: number;
  readonly budget?: { readonly limit: number; readonly used: number } | null;
  /** The model in use and its context window (issue 14); null when no model is set up. */
  readonly window?: (ContextWindow & { readonly model: string }) | null;
  readonly toolSearch?: ToolSearchView | null;
  /** Whose formula images are counted by (the provider in use); default 'none'. */
  readonly images?: ImageTokenRule;
}): ContextMeter {
  const system = estimateTokens(input.system);
  // Only what the latest request sent: the messages it left out cost nothing any more.
  let conversation = 0;
  let images = 0;
  for (const message of input.messages.slice(input.notSent ?? 0)) {
    const cost = messageCost(message, input.images ?? 'none');
    images += cost.images;
    conversation += cost.text + cost.images;
  }
  let tools = 0;
  let mcpTools = 0;
  const byServer = new Map<string, number>();
  for (const tool of input.tools) {
    if (tool.source.kind === 'mcp') {
      // The host's own figure for what this tool costs the model.
      const { server, tokens } = tool.source;
      tools += tokens;
      mcpTools += tokens;
      byServer.set(server, (byServer.get(server) ?? 0) + tokens);
    } else {
      tools += estimateToolTokens(tool);
    }
  }
  const mcpByServer = [...byServer]
    .map(([server, tokens]) => ({ server, tokens }))
    .sort((a, b) => b.tokens - a.tokens || (a.server < b.server ? -1 : 1));
  return {
    system,
    conversation,
    images,
    tools,
    mcpTools,
    mcpByServer,
    total: system + conversation + tools,
    budget: input.budget ?? null,
    window: input.window ?? null,
    toolSearch: input.toolSearch ?? null,
  };
}
