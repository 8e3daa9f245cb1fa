import { estimateTokens, estimateToolTokens } from '../../protocol/token-estimate';
import type { ContextMeter, ToolSearchView } from '../messaging/ui-protocol';
import type { ChatMessage } from '../messaging/conversation';
import type { ToolSpec } from './tool-outcome';
import { userModelText } from './attachments';

/**
 * What one model turn costs, by part (design D11), from the same estimate the host uses for tool
 * listings: the system prompt, the transcript so far, and the tool definitions, with the MCP
 * tools carved out of the tools total and named by server.
 */

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
  readonly budget?: { readonly limit: number; readonly used: number } | null;
  readonly toolSearch?: ToolSearchView | null;
}): ContextMeter {
  const system = estimateTokens(input.system);
  const conversation = input.messages.reduce(
    (sum, message) => sum + estimateTokens(messageText(message)),
    0,
  );
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
    tools,
    mcpTools,
    mcpByServer,
    total: system + conversation + tools,
    budget: input.budget ?? null,
    toolSearch: input.toolSearch ?? null,
  };
}
