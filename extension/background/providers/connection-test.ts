import { z } from 'zod';
import type { ConnectionTestResult } from '../../messaging/connection-test';
import {
  effectiveBaseUrl,
  providerAccess,
  providerLabel,
  type ProviderSettings,
} from '../../messaging/provider';
import { diagnoseNetworkFailure, isNetworkFailure, type NetworkDiagnosis } from './provider-reach';
import type { ReachDeps } from './provider-reach';

/**
 * "Test connection" on the options page (issue 14): one cheap request to the provider as
 * configured, from the worker (where the chat's requests come from), and a result that names
 * the real cause. The request is the provider's model list (`GET {base}/models`: OpenAI,
 * Anthropic and every OpenAI-compatible server we know); a compatible server without one is
 * asked for a one-token completion instead. `classifyProbe` is pure and table-tested.
 */

export const CONNECTION_TEST_TIMEOUT_MS = 15_000;
const ANTHROPIC_VERSION = '2023-06-01';
/** Longest piece of the server's own error text quoted in a result. */
const MAX_QUOTED_CHARS = 200;

export interface ProbeRequest {
  readonly url: string;
  readonly init: { readonly method: 'GET' | 'POST'; readonly headers: Record<string, string> } & {
    readonly body?: string;
  };
}

function baseOf(settings: ProviderSettings): string {
  return effectiveBaseUrl(settings).replace(/\/+$/, '');
}

function authHeaders(settings: ProviderSettings): Record<string, string> {
  switch (settings.kind) {
    case 'anthropic':
      return {
        'x-api-key': settings.apiKey,
        'anthropic-version': ANTHROPIC_VERSION,
        // As for the chat (ai-sdk-provider.ts): Anthropic refuses browser requests without it.
        'anthropic-dangerous-direct-browser-access': 'true',
      };
    case 'openai':
      return { authorization: `Bearer ${settings.apiKey}` };
    case 'openai-compatible':
      return settings.apiKey === undefined ? {} : { authorization: `Bearer ${settings.apiKey}` };
  }
}

/** The model-list request: it costs no tokens and checks address, key and (listed) model. */
export function modelsRequest(settings: ProviderSettings): ProbeRequest {
  // Anthropic pages its list (20 by default); 1000 is its maximum.
  const query = settings.kind === 'anthropic' ? '?limit=1000' : '';
  return {
    url: `${baseOf(settings)}/models${query}`,
    init: { method: 'GET', headers: authHeaders(settings) },
  };
}

/** A one-token chat completion, for a compatible server that lists no models. */
export function completionRequest(settings: ProviderSettings): ProbeRequest {
  return {
    url: `${baseOf(settings)}/chat/completions`,
    init: {
      method: 'POST',
      headers: { ...authHeaders(settings), 'content-type': 'application/json' },
      body: JSON.stringify({
        model: settings.model,
        messages: [{ role: 'user', content: 'Say OK.' }],
        max_tokens: 1,
        stream: false,
      }),
    },
  };
}

/** What one probe saw. */
export type ProbeObservation =
  | {
      readonly kind: 'response';
      readonly endpoint: 'models' | 'completion';
      readonly status: number;
      /** The JSON body, or the text when it was not JSON. */
      readonly body: unknown;
    }
  | { readonly kind: 'network'; readonly diagnosis: NetworkDiagnosis }
  | { readonly kind: 'timeout'; readonly afterMs: number };

export const ModelListSchema = z.looseObject({
  data: z.array(z.looseObject({ id: z.string() })),
  has_more: z.boolean().optional(),
});

const ErrorBodySchema = z.looseObject({
  error: z.union([z.string(), z.looseObject({ message: z.string() })]),
});
/** vLLM's `{"object": "error", "message"}` and FastAPI's `{"detail"}`. */
const BareErrorBodySchema = z.union([
  z.looseObject({ message: z.string() }).transform((body) => body.message),
  z.looseObject({ detail: z.string() }).transform((body) => body.detail),
]);

/**
 * The server's own words about an error (the JSON body, or the text when it was not JSON),
 * shortened (text only: it is shown as text); '' when it gave none.
 */
export function serverWords(body: unknown): string {
  const parsed = ErrorBodySchema.safeParse(body);
  const bare = BareErrorBodySchema.safeParse(body);
  const text = parsed.success
    ? typeof parsed.data.error === 'string'
      ? parsed.data.error
      : parsed.data.error.message
    : bare.success
      ? bare.data
      : typeof body === 'string'
        ? body
        : '';
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '';
  return flat.length > MAX_QUOTED_CHARS ? `${flat.slice(0, MAX_QUOTED_CHARS)}…` : flat;
}

function quoted(body: unknown): string {
  const words = serverWords(body);
  return words === '' ? '' : ` It said: "${words}"`;
}

/** Whether a listed id names the configured model (Ollama lists `llama3.1:latest`). */
function lists(ids: readonly string[], model: string): boolean {
  return ids.some((id) => id === model || id === `${model}:latest` || id.endsWith(`/${model}`));
}

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

/** The result for what a probe saw. Pure. */
export function classifyProbe(
  observation: ProbeObservation,
  settings: ProviderSettings,
): ConnectionTestResult {
  const label = providerLabel(settings);
  const base = effectiveBaseUrl(settings);
  const access = providerAccess(settings);
  const origin = access?.origin ?? base;
  if (observation.kind === 'timeout') {
    return {
      cause: 'timeout',
      tone: 'error',
      message: `${origin} did not answer within ${Math.round(observation.afterMs / 100) / 10} s: check the base URL and that the server is running.`,
    };
  }
  if (observation.kind === 'network') {
    switch (observation.diagnosis) {
      case 'no-access':
        return {
          cause: 'no-access',
          tone: 'error',
          message: `Switchyard has no permission to reach ${origin}, and the server does not accept requests from the browser without it: allow Switchyard access to ${origin}.`,
          ...(access === null ? {} : { access }),
        };
      case 'unreachable':
        return {
          cause: 'unreachable',
          tone: 'error',
          message: `Cannot reach ${origin}: the name does not resolve or the connection was refused. Check the base URL (${base}) and that the server is running.`,
        };
      case 'blocked':
        return {
          cause: 'blocked',
          tone: 'error',
          message: `${origin} answers, but the browser refused the request although Switchyard has access: check the base URL; another extension or a proxy may be blocking it.`,
        };
    }
  }
  const { status, body, endpoint } = observation;
  const where = endpoint === 'models' ? `${base}/models` : `${base}/chat/completions`;
  if (status >= 200 && status < 300) {
    if (endpoint === 'completion') {
      return {
        cause: 'ok',
        tone: 'success',
        message: `Connected to ${label}: model '${settings.model}' answered.`,
      };
    }
    const list = ModelListSchema.safeParse(body);
    if (!list.success) {
      return {
        cause: 'unexpected',
        tone: 'error',
        message: `${where} answered, but not with a model list: check the base URL (it usually ends in /v1).`,
      };
    }
    const ids = list.data.data.map((entry) => entry.id);
    const partial = list.data.has_more === true;
    const count = partial ? `${ids.length}+ models` : plural(ids.length, 'model');
    if (lists(ids, settings.model)) {
      return {
        cause: 'ok',
        tone: 'success',
        message: `Connected to ${label}: ${count} available, including '${settings.model}'.`,
      };
    }
    if (partial) {
      return {
        cause: 'ok',
        tone: 'success',
        message: `Connected to ${label}: ${count} available.`,
      };
    }
    return {
      cause: 'model-not-listed',
      tone: 'warning',
      message: `Connected to ${label} (${count}), but '${settings.model}' is not among them: check the model name.`,
    };
  }
  if (status === 401) {
    const keyless = settings.kind === 'openai-compatible' && settings.apiKey === undefined;
    return {
      cause: 'key-rejected',
      tone: 'error',
      message: keyless
        ? `${label} wants an API key (HTTP 401): enter one.`
        : `${label} rejected the API key (HTTP 401): check the key.`,
    };
  }
  if (status === 403) {
    return {
      cause: 'forbidden',
      tone: 'error',
      message: `${label} refused the request (HTTP 403): check the key and what it may access.${quoted(body)}`,
    };
  }
  if (status === 404) {
    return {
      cause: 'not-found',
      tone: 'error',
      message:
        endpoint === 'models'
          ? `${label} has no ${where} (HTTP 404): check the base URL.`
          : `${label} does not know model '${settings.model}' or the address (HTTP 404): check the model name and the base URL.`,
    };
  }
  if (status === 429) {
    return {
      cause: 'rate-limited',
      tone: 'warning',
      message: `${label} is limiting requests (HTTP 429): wait a moment, or check the key's quota.${quoted(body)}`,
    };
  }
  if (status >= 500) {
    return {
      cause: 'server-error',
      tone: 'error',
      message: `${label} had a server error (HTTP ${status}): try again later.${quoted(body)}`,
    };
  }
  return {
    cause: 'unexpected',
    tone: 'error',
    message: `${label} answered HTTP ${status} at ${where}.${quoted(body)}`,
  };
}

export interface ConnectionTestDeps extends ReachDeps {
  /** The whole test's limit (default CONNECTION_TEST_TIMEOUT_MS). */
  readonly testTimeoutMs?: number;
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError';
}

/** One probe: its answer, or what kept it from one (never throws for the network). */
export async function observe(
  endpoint: 'models' | 'completion',
  request: ProbeRequest,
  settings: ProviderSettings,
  deps: ConnectionTestDeps,
): Promise<ProbeObservation> {
  const afterMs = deps.testTimeoutMs ?? CONNECTION_TEST_TIMEOUT_MS;
  let response: Response;
  try {
    response = await deps.fetch(request.url, {
      ...request.init,
      credentials: 'omit',
      cache: 'no-store',
      signal: AbortSignal.timeout(afterMs),
    });
  } catch (error) {
    if (isTimeout(error)) return { kind: 'timeout', afterMs };
    if (!isNetworkFailure(error)) throw error;
    return {
      kind: 'network',
      diagnosis: await diagnoseNetworkFailure(settings, request.url, deps),
    };
  }
  let text = '';
  try {
    text = await response.text();
  } catch (error) {
    if (isTimeout(error)) return { kind: 'timeout', afterMs };
    // A body cut off mid-way: the status still says what happened.
  }
  let body: unknown = text;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    // Not JSON: kept as text.
  }
  return { kind: 'response', endpoint, status: response.status, body };
}

/** Runs the test for `settings` (the key resolved by the caller). Never throws for the network. */
export async function testProviderConnection(
  settings: ProviderSettings,
  deps: ConnectionTestDeps,
): Promise<ConnectionTestResult> {
  const models = await observe('models', modelsRequest(settings), settings, deps);
  // Some OpenAI-compatible servers serve chat completions without a model list.
  if (
    settings.kind === 'openai-compatible' &&
    models.kind === 'response' &&
    models.status === 404
  ) {
    return classifyProbe(
      await observe('completion', completionRequest(settings), settings, deps),
      settings,
    );
  }
  return classifyProbe(models, settings);
}
