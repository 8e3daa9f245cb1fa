import { createAiSdkProvider } from '../extension/background/providers/ai-sdk-provider';
import type { ProviderTool } from '../extension/background/providers/provider';
import type { ProviderSettings } from '../extension/messaging/provider';
import { isRecord } from '../protocol/guards';
import { estimateTokens } from '../protocol/token-estimate';

/**
 * The tool listing in each provider's own wire format, as the extension sends it: the tools go
 * through the extension's real provider adapter (AI SDK `streamText` and the provider package),
 * whose one HTTP request is caught by an injected `fetch` before it leaves the process. So the
 * bench counts what each provider wraps around a tool (`{"type":"function","function":{…,
 * "parameters"}}` for OpenAI Chat Completions, `{…,"input_schema"}` for Anthropic), not a guess.
 */

export type ProviderFormat = 'openai-chat' | 'anthropic';

export const PROVIDER_FORMATS: Readonly<Record<ProviderFormat, ProviderSettings>> = {
  'openai-chat': { kind: 'openai', apiKey: 'bench', model: 'gpt-4o' },
  anthropic: { kind: 'anthropic', apiKey: 'bench', model: 'claude-sonnet-4-5' },
};

/** The `tools` array of the request `settings`' provider would send for `tools`. */
export async function wireTools(
  settings: ProviderSettings,
  tools: readonly ProviderTool[],
): Promise<readonly unknown[]> {
  let body: unknown;
  const fetch: typeof globalThis.fetch = (_input, init) => {
    body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    // Refused, so the turn ends here; nothing leaves the process.
    return Promise.resolve(new Response('{}', { status: 400 }));
  };
  const provider = createAiSdkProvider(settings, { fetch, maxRetries: 0 });
  const request = provider.stream({
    system: '',
    messages: [{ role: 'user', content: 'hi' }],
    tools,
    signal: new AbortController().signal,
  });
  for await (const event of request) {
    if (event.type === 'finish' || event.type === 'error') break;
  }
  const wire = isRecord(body) ? body['tools'] : undefined;
  if (!Array.isArray(wire)) throw new Error(`no tools in the ${settings.kind} request`);
  const sent: readonly unknown[] = wire;
  return sent;
}

/**
 * Request flags a provider adapter sets on a tool that are not part of its definition and not
 * read by the model (the AI SDK turns on Anthropic's fine-grained tool streaming for every tool):
 * left out of the count, on both sides alike.
 */
const REQUEST_FLAGS: ReadonlySet<string> = new Set([
  'cache_control',
  'defer_loading',
  'eager_input_streaming',
  'strict',
]);

/** Where a wire tool keeps its name, description and schema. */
function definitionOf(format: ProviderFormat, wireTool: unknown): Record<string, unknown> {
  const inner = format === 'openai-chat' && isRecord(wireTool) ? wireTool['function'] : wireTool;
  if (!isRecord(inner)) throw new Error(`a ${format} tool without a definition`);
  return inner;
}

/** `wireTool` without the request flags. */
function withoutFlags(format: ProviderFormat, wireTool: unknown): unknown {
  const strip = (value: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(value).filter(([key]) => !REQUEST_FLAGS.has(key)));
  const inner = strip(definitionOf(format, wireTool));
  return format === 'openai-chat' && isRecord(wireTool) ? { ...wireTool, function: inner } : inner;
}

/**
 * `wireTool` with `extra` members added next to its name, description and schema: what a relay
 * that forwarded every field of the server's definition (title, annotations, outputSchema,
 * _meta) in this format would send.
 */
export function withFields(
  format: ProviderFormat,
  wireTool: unknown,
  extra: Readonly<Record<string, unknown>>,
): unknown {
  const inner = { ...definitionOf(format, wireTool), ...extra };
  return format === 'openai-chat' && isRecord(wireTool) ? { ...wireTool, function: inner } : inner;
}

/** Estimated tokens of each wire tool's compact JSON without request flags, summed. */
export function wireTokens(format: ProviderFormat, wire: readonly unknown[]): number {
  return wire.reduce<number>(
    (sum, tool) => sum + estimateTokens(JSON.stringify(withoutFlags(format, tool))),
    0,
  );
}
