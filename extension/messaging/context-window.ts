/**
 * How many tokens a model can be sent in one request (its context window), for the side panel's
 * meter and for trimming a long conversation before a request would exceed it (issue 14). The
 * table holds the published windows of common OpenAI and Anthropic models and a few families
 * often served by OpenAI-compatible servers; the user's own figure (options) wins, and a model
 * the table does not know gets DEFAULT_CONTEXT_WINDOW_TOKENS.
 */

/**
 * The window assumed for a model the table does not know. Small on purpose: trimming early is
 * better than a provider refusing the request, and local servers often run with small windows.
 */
export const DEFAULT_CONTEXT_WINDOW_TOKENS = 32_768;

/** Smallest and largest window a user may set (options). */
export const MIN_CONTEXT_WINDOW_TOKENS = 1_024;
export const MAX_CONTEXT_WINDOW_TOKENS = 10_000_000;

/** Model id prefix -> window; the longest matching prefix wins. */
const KNOWN_WINDOWS: readonly (readonly [prefix: string, tokens: number])[] = [
  // OpenAI
  ['gpt-5', 400_000],
  ['gpt-5-chat', 128_000],
  ['gpt-4.1', 1_047_576],
  ['gpt-4o', 128_000],
  ['gpt-4-turbo', 128_000],
  ['gpt-4-1106', 128_000],
  ['gpt-4-0125', 128_000],
  ['gpt-4', 8_192],
  ['gpt-4-32k', 32_768],
  ['gpt-3.5-turbo', 16_385],
  ['o1', 200_000],
  ['o1-mini', 128_000],
  ['o1-preview', 128_000],
  ['o3', 200_000],
  ['o4-mini', 200_000],
  // Anthropic
  ['claude-', 200_000],
  ['claude-2', 100_000],
  ['claude-instant', 100_000],
  // Often behind OpenAI-compatible servers (Ollama, LM Studio, OpenRouter, vLLM)
  ['gemini-', 1_048_576],
  ['llama3.1', 131_072],
  ['llama3.2', 131_072],
  ['llama3.3', 131_072],
  ['llama-3.1', 131_072],
  ['llama-3.3', 131_072],
  ['qwen2.5', 32_768],
  ['qwen3', 40_960],
  ['mistral', 32_768],
  ['deepseek-', 65_536],
];

export type ContextWindowSource = 'known' | 'setting' | 'default';

export interface ContextWindow {
  readonly tokens: number;
  /** Where the figure comes from: the table, the user's setting, or the stated default. */
  readonly source: ContextWindowSource;
}

/**
 * The published window of `model`, or null when the table does not know it. Matching ignores
 * case and a vendor prefix (`anthropic/claude-sonnet-4` on OpenRouter); `:tags` (Ollama's
 * `llama3.1:8b`) and date suffixes match by prefix.
 */
export function knownContextWindow(model: string): number | null {
  const id = model.trim().toLowerCase();
  const bare = id.slice(id.lastIndexOf('/') + 1);
  let best: readonly [string, number] | null = null;
  for (const entry of KNOWN_WINDOWS) {
    if (bare.startsWith(entry[0]) && (best === null || entry[0].length > best[0].length)) {
      best = entry;
    }
  }
  return best === null ? null : best[1];
}

/** The window to measure against: the user's setting, else the table, else the default. */
export function contextWindowFor(model: string, setting?: number): ContextWindow {
  if (setting !== undefined) return { tokens: setting, source: 'setting' };
  const known = knownContextWindow(model);
  return known === null
    ? { tokens: DEFAULT_CONTEXT_WINDOW_TOKENS, source: 'default' }
    : { tokens: known, source: 'known' };
}

/**
 * Tokens kept free for the model's answer when trimming: a request that fills the window to the
 * last token leaves the model no room to reply.
 */
export function outputReserve(windowTokens: number): number {
  return Math.min(4_096, Math.floor(windowTokens / 4));
}
