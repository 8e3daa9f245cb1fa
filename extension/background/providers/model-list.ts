import type { ProviderSettings } from '../../messaging/provider';
import type { ModelListing } from '../../messaging/ui-protocol';
import { ModelListSchema, classifyProbe, modelsRequest, observe } from './connection-test';
import type { ConnectionTestDeps } from './connection-test';

/**
 * The provider's models for the side panel's picker (issue 14), from its own models endpoint
 * (`GET {base}/models`, the request Test connection makes): OpenAI, Anthropic and most
 * OpenAI-compatible servers have one. A list read is kept for MODEL_LIST_CACHE_MS per settings
 * (opening the picker twice asks once); a failure is not kept, and says why in the words of Test
 * connection, so the user can still type a model id.
 */

export const MODEL_LIST_CACHE_MS = 60_000;
/** Most ids offered (OpenRouter lists several hundred). */
export const MAX_LISTED_MODELS = 1_000;

export interface ModelListerDeps extends ConnectionTestDeps {
  readonly now?: () => number;
  readonly cacheMs?: number;
}

export function createModelLister(
  deps: ModelListerDeps,
): (settings: ProviderSettings) => Promise<ModelListing> {
  const now = deps.now ?? (() => Date.now());
  const cacheMs = deps.cacheMs ?? MODEL_LIST_CACHE_MS;
  let cached:
    | { readonly settings: ProviderSettings; readonly at: number; readonly listing: ModelListing }
    | undefined;
  return async (settings) => {
    // Saved settings are a new object: a new key or base URL is asked again.
    if (cached?.settings === settings && now() - cached.at < cacheMs) return cached.listing;
    const seen = await observe('models', modelsRequest(settings), settings, deps);
    if (seen.kind === 'response' && seen.status >= 200 && seen.status < 300) {
      const list = ModelListSchema.safeParse(seen.body);
      if (list.success) {
        const ids = [...new Set(list.data.data.map((entry) => entry.id.trim()))]
          .filter((id) => id !== '' && id.length <= 256)
          .sort((a, b) => a.localeCompare(b))
          .slice(0, MAX_LISTED_MODELS);
        const listing = { models: ids, problem: null };
        cached = { settings, at: now(), listing };
        return listing;
      }
    }
    if (seen.kind === 'response' && seen.status === 404) {
      return { models: [], problem: 'This provider lists no models: type the model id.' };
    }
    return { models: [], problem: classifyProbe(seen, settings).message };
  };
}
