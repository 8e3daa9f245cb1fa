import type { ModelProvider, ProviderEvent, ProviderRequest } from './provider';
import type { ProviderSettings } from '../../messaging/provider';

/** Shown when the user has not chosen a model yet. */
export const NO_PROVIDER_MESSAGE =
  "No model is set up yet: open Switchyard's options, choose a provider and model, and save.";

/**
 * A ModelProvider that follows the user's settings: every turn uses the settings saved at that
 * moment, so a change on the options page applies to the next turn without a restart. The
 * adapter is rebuilt only when the settings object changes.
 */
export function settingsProvider(
  current: () => ProviderSettings | null,
  create: (settings: ProviderSettings) => ModelProvider,
): ModelProvider {
  let built: { readonly settings: ProviderSettings; readonly provider: ModelProvider } | undefined;
  return {
    async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
      const settings = current();
      if (settings === null) {
        yield { type: 'error', message: NO_PROVIDER_MESSAGE };
        return;
      }
      if (built?.settings !== settings) built = { settings, provider: create(settings) };
      yield* built.provider.stream(request);
    },
  };
}

/**
 * The settings a conversation's requests use: the saved provider with the model the conversation
 * chose in the panel (issue 14), else as saved. The returned function keeps the object it made
 * while its inputs stay the same, so `settingsProvider` does not rebuild the adapter every turn.
 */
export function withConversationModel(): (
  saved: ProviderSettings | null,
  model: string | undefined,
) => ProviderSettings | null {
  let made:
    | {
        readonly saved: ProviderSettings;
        readonly model: string;
        readonly settings: ProviderSettings;
      }
    | undefined;
  return (saved, model) => {
    if (saved === null || model === undefined || model === saved.model) return saved;
    if (made?.saved !== saved || made.model !== model) {
      made = { saved, model, settings: { ...saved, model } };
    }
    return made.settings;
  };
}
