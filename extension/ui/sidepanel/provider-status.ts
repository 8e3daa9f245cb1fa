import type { ProviderSettingsView } from '../../messaging/provider';

/** Why the chat cannot talk to a model yet (a sentence that says what to do), or null. */
export function providerProblem(provider: ProviderSettingsView | null): string | null {
  if (provider === null) {
    return 'No model provider is set up yet: choose one and a model in the settings.';
  }
  if (provider.kind !== 'openai-compatible' && !provider.hasApiKey) {
    return `Add your ${provider.kind === 'openai' ? 'OpenAI' : 'Anthropic'} API key in the settings.`;
  }
  return null;
}
