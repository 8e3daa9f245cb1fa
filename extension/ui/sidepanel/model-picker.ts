import type { ProviderSettingsView } from '../../messaging/provider';

/**
 * The composer's model picker (issue 14), as plain view logic: what its button says, which of
 * the provider's listed models a search shows, and whether the typed text is a model of its own
 * (a provider with no list, or a model it does not list, is typed in).
 */

/** Most choices drawn at once: a search narrows a long list (OpenRouter lists hundreds). */
export const MAX_SHOWN_MODELS = 50;

export interface ModelInView {
  /** "OpenAI", "Anthropic", or the compatible server's name. */
  readonly provider: string;
  /** The model this conversation uses. */
  readonly model: string;
  /** The model saved in options (a new conversation uses it). */
  readonly defaultModel: string;
}

export function providerName(provider: ProviderSettingsView): string {
  switch (provider.kind) {
    case 'openai':
      return 'OpenAI';
    case 'anthropic':
      return 'Anthropic';
    case 'openai-compatible':
      return provider.name;
  }
}

/** The provider and model in use, or null when no provider is set up. */
export function modelInView(
  provider: ProviderSettingsView | null,
  conversationModel: string | undefined,
): ModelInView | null {
  if (provider === null) return null;
  return {
    provider: providerName(provider),
    model: conversationModel ?? provider.model,
    defaultModel: provider.model,
  };
}

export interface ModelChoice {
  readonly id: string;
  readonly inUse: boolean;
  readonly isDefault: boolean;
}

/**
 * The listed models matching `query` (case-insensitive, anywhere in the id), the one in use and
 * the default first, at most MAX_SHOWN_MODELS. The model in use is offered even when the
 * provider does not list it (it was typed in).
 */
export function modelChoices(
  listed: readonly string[],
  query: string,
  view: ModelInView,
): readonly ModelChoice[] {
  const needle = query.trim().toLowerCase();
  const ids = [...new Set([view.model, view.defaultModel, ...listed])];
  const rank = (id: string): number => (id === view.model ? 0 : id === view.defaultModel ? 1 : 2);
  return ids
    .filter((id) => needle === '' || id.toLowerCase().includes(needle))
    .sort((a, b) => rank(a) - rank(b))
    .slice(0, MAX_SHOWN_MODELS)
    .map((id) => ({ id, inUse: id === view.model, isDefault: id === view.defaultModel }));
}

/** The typed text as a model id of its own, when it is one no choice already names. */
export function typedModel(query: string, choices: readonly ModelChoice[]): string | null {
  const id = query.trim();
  if (id === '' || id.length > 256) return null;
  return choices.some((choice) => choice.id === id) ? null : id;
}

/** What `chat/setModel` is sent for a choice: null for the default (the conversation follows options). */
export function modelToSet(id: string, view: ModelInView): string | null {
  return id === view.defaultModel ? null : id;
}

/** Most characters of a model id's end that the composer's button always shows. */
export const MAX_MODEL_TAIL = 12;
const SEPARATORS = new Set(['-', '_', '/', ':', '@', ' ']);

/**
 * The model id split for the composer's button in a narrow panel: the head gives way (ellipsis)
 * and the tail always shows, since ids differ at their ends ("claude-sonnet-4-5" and
 * "claude-haiku-4-5", "gpt-4.1" and "gpt-4.1-mini"). The tail is the longest run of whole
 * segments (split at - _ / : @ or a space; a dot belongs to a version number) of at most
 * MAX_MODEL_TAIL characters; an id whose last segment is longer keeps its last 8 characters.
 */
export function modelLabelParts(model: string): { readonly head: string; readonly tail: string } {
  if (model.length <= MAX_MODEL_TAIL) return { head: '', tail: model };
  for (let at = model.length - MAX_MODEL_TAIL - 1; at < model.length - 1; at++) {
    if (SEPARATORS.has(model.charAt(at))) {
      return { head: model.slice(0, at + 1), tail: model.slice(at + 1) };
    }
  }
  return { head: model.slice(0, -8), tail: model.slice(-8) };
}
