import { z } from 'zod';
import { MAX_CONTEXT_WINDOW_TOKENS, MIN_CONTEXT_WINDOW_TOKENS } from './context-window';

/**
 * Which model the agent talks to, as the user configured it. Parsed once at the boundary (storage,
 * options form) with `ProviderSettingsSchema`; everything downstream trusts the type.
 */

const ModelSchema = z.string().trim().min(1, 'Choose a model.');
/** One message for a blank key and a missing one (a saved key is dropped for another server). */
function apiKeySchema(message: string) {
  return z.string({ error: message }).trim().min(1, message);
}
const BaseUrlSchema = z.url({
  protocol: /^https?$/,
  error: 'The base URL must be an http(s) URL.',
});

/**
 * The user's figure for the model's context window in tokens (issue 14), over the table's
 * (context-window.ts): a local server may run a model with a smaller window than published.
 */
const ContextWindowSettingSchema = z
  .number({ error: 'The context window must be a whole number of tokens.' })
  .int('The context window must be a whole number of tokens.')
  .min(
    MIN_CONTEXT_WINDOW_TOKENS,
    `The context window must be at least ${MIN_CONTEXT_WINDOW_TOKENS} tokens.`,
  )
  .max(
    MAX_CONTEXT_WINDOW_TOKENS,
    `The context window must be at most ${MAX_CONTEXT_WINDOW_TOKENS} tokens.`,
  )
  .optional();

/** OpenAI's two APIs (issue 14): Chat Completions (absent: settings saved before the choice) or Responses. */
export const OpenAiApiSchema = z.enum(['chat', 'responses']);
export type OpenAiApi = z.infer<typeof OpenAiApiSchema>;

export const OpenAiSettingsSchema = z.object({
  kind: z.literal('openai'),
  apiKey: apiKeySchema('Enter an OpenAI API key.'),
  model: ModelSchema,
  baseURL: BaseUrlSchema.optional(),
  api: OpenAiApiSchema.optional(),
  contextWindow: ContextWindowSettingSchema,
});

export const AnthropicSettingsSchema = z.object({
  kind: z.literal('anthropic'),
  apiKey: apiKeySchema('Enter an Anthropic API key.'),
  model: ModelSchema,
  baseURL: BaseUrlSchema.optional(),
  contextWindow: ContextWindowSettingSchema,
});

/** Any server speaking OpenAI chat completions: Ollama, LM Studio, OpenRouter, vLLM. */
export const OpenAiCompatibleSettingsSchema = z.object({
  kind: z.literal('openai-compatible'),
  /** Shown in messages and used as the SDK's provider id. */
  name: z.string().trim().min(1, 'Name this provider.'),
  baseURL: BaseUrlSchema,
  /** Local servers (Ollama, LM Studio) need none. */
  apiKey: z.string().trim().min(1).optional(),
  model: ModelSchema,
  contextWindow: ContextWindowSettingSchema,
  /** The user says this model accepts images (issue 14); absent: it does not, images go as text. */
  acceptsImages: z.boolean().optional(),
});

export const ProviderSettingsSchema = z.discriminatedUnion('kind', [
  OpenAiSettingsSchema,
  AnthropicSettingsSchema,
  OpenAiCompatibleSettingsSchema,
]);
export type ProviderSettings = z.infer<typeof ProviderSettingsSchema>;

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1';

/** The URL requests go to, for messages such as "Cannot reach …". */
export function effectiveBaseUrl(
  settings: Pick<ProviderSettings, 'kind'> & { readonly baseURL?: string | undefined },
): string {
  switch (settings.kind) {
    case 'openai':
      return settings.baseURL ?? DEFAULT_OPENAI_BASE_URL;
    case 'anthropic':
      return settings.baseURL ?? DEFAULT_ANTHROPIC_BASE_URL;
    case 'openai-compatible':
      return settings.baseURL ?? '';
  }
}

/**
 * The host permission pattern for the provider's origin (`https://api.openai.com/*`), or null
 * when the URL does not parse. With it the worker's requests do not depend on the server's CORS
 * headers (a local Ollama or vLLM may send none).
 */
export function providerOriginPattern(
  settings: Pick<ProviderSettings, 'kind'> & { readonly baseURL?: string | undefined },
): string | null {
  try {
    const url = new URL(effectiveBaseUrl(settings));
    return url.protocol === 'http:' || url.protocol === 'https:' ? `${url.origin}/*` : null;
  } catch {
    return null;
  }
}

/** Access to the provider's origin (`optional_host_permissions`), as the page asks for it. */
export interface ProviderAccess {
  /** `127.0.0.1:11434`, for the button's label. */
  readonly origin: string;
  /** `http://127.0.0.1:11434/*`, for `permissions.request`. */
  readonly pattern: string;
}

/**
 * The site access that lets the worker reach the provider whatever CORS headers it sends, for
 * the page's `permissions.request` and its button's label; null when the URL does not parse.
 */
export function providerAccess(
  settings: Pick<ProviderSettings, 'kind'> & { readonly baseURL?: string | undefined },
): ProviderAccess | null {
  const pattern = providerOriginPattern(settings);
  if (pattern === null) return null;
  return { origin: new URL(effectiveBaseUrl(settings)).host, pattern };
}

/** A human name for the provider, for messages. */
export function providerLabel(settings: ProviderSettings): string {
  switch (settings.kind) {
    case 'openai':
      return 'OpenAI';
    case 'anthropic':
      return 'Anthropic';
    case 'openai-compatible':
      return settings.name;
  }
}

/**
 * Provider settings as the options page sends them: like ProviderSettings, except that an
 * omitted `apiKey` keeps the stored one. The worker never sends a stored key back to a page.
 */
export const ProviderSettingsInputSchema = z.discriminatedUnion('kind', [
  OpenAiSettingsSchema.extend({ apiKey: OpenAiSettingsSchema.shape.apiKey.optional() }),
  AnthropicSettingsSchema.extend({ apiKey: AnthropicSettingsSchema.shape.apiKey.optional() }),
  OpenAiCompatibleSettingsSchema,
]);
export type ProviderSettingsInput = z.infer<typeof ProviderSettingsInputSchema>;

/** Provider settings as pages see them: everything but the key. */
export type ProviderSettingsView =
  | (Omit<Extract<ProviderSettings, { kind: 'openai' }>, 'apiKey'> & {
      readonly hasApiKey: boolean;
    })
  | (Omit<Extract<ProviderSettings, { kind: 'anthropic' }>, 'apiKey'> & {
      readonly hasApiKey: boolean;
    })
  | (Omit<Extract<ProviderSettings, { kind: 'openai-compatible' }>, 'apiKey'> & {
      readonly hasApiKey: boolean;
    });

/** Strips the key for pages. */
export function viewOfProviderSettings(settings: ProviderSettings): ProviderSettingsView {
  const { apiKey, ...rest } = settings;
  return { ...rest, hasApiKey: apiKey !== undefined && apiKey.length > 0 };
}
