import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  APICallError,
  RetryError,
  stepCountIs,
  streamText,
  type FinishReason as SdkFinishReason,
  type LanguageModel,
} from 'ai';
import { imageRoute, toModelMessages, toToolSet } from './ai-sdk-messages';
import type { FinishReason, ModelProvider, ProviderEvent, ProviderRequest } from './provider';
import {
  ProviderSettingsSchema,
  effectiveBaseUrl,
  providerLabel,
  type ProviderSettings,
} from '../../messaging/provider';
import { isRecord, messageOf } from '../../../protocol/guards';
import { classifyProbe, serverWords } from './connection-test';
import { diagnoseNetworkFailure, isNetworkFailure, type ReachDeps } from './provider-reach';

/**
 * A ModelProvider over the AI SDK's `streamText`, for OpenAI, Anthropic and any
 * OpenAI-compatible server. One `stream` call is one model step: tools carry no `execute`, so
 * the SDK reports the calls and the agent loop runs them. Failures become an `error` event with
 * a message saying what to do next; the stream never throws.
 */

export interface AiSdkProviderOptions {
  /** Injected in tests; defaults to the global `fetch`. */
  readonly fetch?: typeof globalThis.fetch;
  /** Retries of rate limits, 5xx and network errors (the SDK's backoff). Default 2. */
  readonly maxRetries?: number;
  /**
   * The browser's site access and a plain fetch, to say why a request failed before any HTTP
   * answer (provider-reach.ts). Without it such a failure is worded as "cannot reach".
   */
  readonly reach?: ReachDeps;
}

function languageModel(settings: ProviderSettings, fetch?: typeof globalThis.fetch): LanguageModel {
  const injected = fetch === undefined ? {} : { fetch };
  switch (settings.kind) {
    case 'openai': {
      const openai = createOpenAI({
        apiKey: settings.apiKey,
        ...(settings.baseURL === undefined ? {} : { baseURL: settings.baseURL }),
        ...injected,
      });
      // Chat completions unless the user chose the Responses API (issue 14): the same wire
      // format as every OpenAI-compatible server. Both are used statelessly (see below).
      return settings.api === 'responses'
        ? openai.responses(settings.model)
        : openai.chat(settings.model);
    }
    case 'anthropic':
      return createAnthropic({
        apiKey: settings.apiKey,
        ...(settings.baseURL === undefined ? {} : { baseURL: settings.baseURL }),
        // The extension calls the API from the browser with the user's own key; Anthropic
        // refuses browser-origin requests (CORS) without this opt-in.
        headers: { 'anthropic-dangerous-direct-browser-access': 'true' },
        ...injected,
      })(settings.model);
    case 'openai-compatible':
      return createOpenAICompatible({
        name: settings.name,
        baseURL: settings.baseURL,
        ...(settings.apiKey === undefined ? {} : { apiKey: settings.apiKey }),
        // Asks for `usage` in the last chunk (stream_options.include_usage).
        includeUsage: true,
        ...injected,
      }).chatModel(settings.model);
  }
}

function finishReason(reason: SdkFinishReason): FinishReason {
  switch (reason) {
    case 'stop':
    case 'length':
    case 'content-filter':
    case 'tool-calls':
    case 'other':
      return reason;
    case 'error':
      return 'other';
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/**
 * What a failure says. A provider's error event mid-stream (Anthropic's `overloaded_error` after
 * a 200, OpenAI's `{"error": ...}` chunk) reaches us as the provider's plain `{type, message}`
 * object, not an Error: its message and kind, never "[object Object]".
 */
function reasonOf(cause: unknown): string {
  if (!isRecord(cause) || cause instanceof Error) return messageOf(cause);
  const message = typeof cause['message'] === 'string' ? cause['message'] : undefined;
  const kind = [cause['type'], cause['code']].find((v) => typeof v === 'string' && v !== '');
  if (message === undefined) return typeof kind === 'string' ? kind : 'no reason given';
  return typeof kind === 'string' ? `${message} (${kind})` : message;
}

/**
 * Why the server refused a request, in its words. The SDK reads only its provider's own error
 * shape (`{"error": {"message"}}`) and otherwise keeps the status text, which says nothing more
 * than the status and is empty over HTTP/2; the body then has the reason (LM Studio's
 * `{"error": "..."}`, vLLM's `{"message"}`, a proxy's plain text). An HTML page is no reason.
 */
function refusalReason(cause: APICallError): string {
  const body = cause.responseBody?.trim() ?? '';
  if (cause.data === undefined && body !== '' && !body.startsWith('<')) {
    let parsed: unknown = body;
    try {
      parsed = JSON.parse(body);
    } catch {
      // Plain text: quoted as it is.
    }
    const words = serverWords(parsed);
    if (words !== '') return words;
  }
  return cause.message.trim();
}

/** Retry-After (seconds or an HTTP date) as "in 30 s"; undefined when absent or past. */
function retryAfter(cause: APICallError, now: number): string | undefined {
  const value = cause.responseHeaders?.['retry-after']?.trim() ?? '';
  if (value === '') return undefined;
  const seconds = /^\d+(\.\d+)?$/.test(value) ? Number(value) : (Date.parse(value) - now) / 1000;
  if (!(seconds > 0)) return undefined;
  return seconds < 90 ? `in ${Math.ceil(seconds)} s` : `in ${Math.ceil(seconds / 60)} min`;
}

/**
 * A 429 says what the provider said (OpenAI's `insufficient_quota` is a 429 that waiting never
 * clears) and when it said to come back.
 */
function rateLimited(label: string, cause: APICallError, now: number): string {
  const head = `${label} is rate-limiting requests (HTTP 429): `;
  const reason = refusalReason(cause);
  const when = retryAfter(cause, now);
  if (reason === '') {
    return (
      head + (when === undefined ? 'wait a moment and try again.' : `wait and try again ${when}.`)
    );
  }
  const sentence = /[.!?]$/.test(reason) ? reason : `${reason}.`;
  return head + sentence + (when === undefined ? '' : ` Wait and try again ${when}.`);
}

/** Turns an SDK error into a sentence for the user; exported for table tests. */
export function describeError(
  error: unknown,
  settings: ProviderSettings,
  now: number = Date.now(),
): string {
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  const label = providerLabel(settings);
  if (APICallError.isInstance(cause)) {
    const status = cause.statusCode;
    if (status === undefined) {
      return `Cannot reach ${effectiveBaseUrl(settings)}: check the base URL and that the server is running.`;
    }
    if (status === 401) {
      return `The API key was refused by ${label} (HTTP 401): check it in the provider settings.`;
    }
    if (status === 403) {
      return `${label} refused the request (HTTP 403): the API key may lack access to model '${settings.model}'.`;
    }
    if (status === 404) {
      return `${label} does not know model '${settings.model}' or the endpoint (HTTP 404): check the model name and base URL.`;
    }
    if (status === 429) return rateLimited(label, cause, now);
    const reason = refusalReason(cause);
    return reason === ''
      ? `${label} answered HTTP ${status} without a readable reason.`
      : `${label} answered HTTP ${status}: ${reason}`;
  }
  if (isNetworkFailure(cause)) {
    return `Cannot reach ${effectiveBaseUrl(settings)}: check the base URL and that the server is running.`;
  }
  return `The request to ${label} failed: ${reasonOf(cause)}`;
}

/** A stream that ended before the provider said how the answer ended. */
function cutShort(settings: ProviderSettings): string {
  return `${providerLabel(settings)}'s reply ended before it was complete (the connection closed early): what arrived is kept; try again.`;
}

/**
 * The URL of a request that failed before any HTTP answer, or null for any other failure. The
 * SDK wraps Node's "fetch failed" (which has a cause) as an APICallError without a status, but
 * passes on the browser's bare `TypeError: Failed to fetch` (which has none) as it is.
 */
function networkFailureUrl(cause: unknown, settings: ProviderSettings): string | null {
  if (APICallError.isInstance(cause)) return cause.statusCode === undefined ? cause.url : null;
  return isNetworkFailure(cause) ? effectiveBaseUrl(settings) : null;
}

/**
 * An `error` event for a failed request. A failure before any HTTP answer (the browser's
 * "Failed to fetch") is diagnosed: missing site access is named, with the access to grant.
 */
export async function errorEvent(
  error: unknown,
  settings: ProviderSettings,
  reach: ReachDeps | undefined,
): Promise<Extract<ProviderEvent, { type: 'error' }>> {
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  const failedUrl = networkFailureUrl(cause, settings);
  if (reach !== undefined && failedUrl !== null) {
    const diagnosis = await diagnoseNetworkFailure(settings, failedUrl, reach);
    const { message, access } = classifyProbe({ kind: 'network', diagnosis }, settings);
    return { type: 'error', message, ...(access === undefined ? {} : { access }) };
  }
  return { type: 'error', message: describeError(error, settings) };
}

/**
 * Builds a provider from settings (parsed again here, so unvalidated settings fail at once rather
 * than on the first request).
 */
export function createAiSdkProvider(
  settings: ProviderSettings,
  options: AiSdkProviderOptions = {},
): ModelProvider {
  const parsed = ProviderSettingsSchema.parse(settings);
  const model = languageModel(parsed, options.fetch);
  const maxRetries = options.maxRetries ?? 2;

  return {
    async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
      let result;
      try {
        result = streamText({
          model,
          system: request.system,
          messages: toModelMessages(request.messages, imageRoute(parsed)),
          tools: toToolSet(request.tools),
          stopWhen: stepCountIs(1),
          // The Responses API keeps every response on OpenAI's side unless told not to; the
          // transcript is re-sent each turn, so nothing needs storing there.
          ...(parsed.kind === 'openai' && parsed.api === 'responses'
            ? { providerOptions: { openai: { store: false } } }
            : {}),
          maxRetries,
          abortSignal: request.signal,
          // Errors arrive as `error` parts below; the default handler would also log them.
          onError: () => undefined,
        });
      } catch (error) {
        yield await errorEvent(error, parsed, options.reach);
        return;
      }
      try {
        for await (const part of result.fullStream) {
          switch (part.type) {
            case 'text-delta':
              if (part.text !== '') yield { type: 'text-delta', text: part.text };
              break;
            case 'tool-call':
              // Invalid calls (unknown tool, unparsable input) are passed on too: the loop
              // answers them with a result that tells the model what was wrong.
              yield {
                type: 'tool-call',
                id: part.toolCallId,
                name: part.toolName,
                arguments: part.input,
              };
              break;
            case 'finish': {
              // Every adapter starts at 'other' with no raw reason and sets both from the
              // provider's last event (Anthropic's message_delta, a chunk's finish_reason,
              // response.completed), so both unset means that event never came: the stream
              // was closed mid-answer. (openai-compatible reports this as an error itself.)
              if (part.finishReason === 'other' && part.rawFinishReason === undefined) {
                yield { type: 'error', message: cutShort(parsed) };
                return;
              }
              // A server that reports no usage (an OpenAI-compatible one may not) gets none shown.
              const { inputTokens, outputTokens } = part.totalUsage;
              const reported = inputTokens !== undefined || outputTokens !== undefined;
              yield {
                type: 'finish',
                reason: finishReason(part.finishReason),
                ...(reported
                  ? { usage: { inputTokens: inputTokens ?? 0, outputTokens: outputTokens ?? 0 } }
                  : {}),
              };
              return;
            }
            case 'error':
              if (request.signal.aborted || isAbort(part.error)) return;
              yield await errorEvent(part.error, parsed, options.reach);
              return;
            case 'abort':
              return;
            // Listed so a part type added by an SDK update is a lint error, not silently dropped.
            // Tool results, errors and approvals come only from tools with `execute` or
            // approval; ours have neither.
            case 'start':
            case 'start-step':
            case 'finish-step':
            case 'text-start':
            case 'text-end':
            case 'reasoning-start':
            case 'reasoning-delta':
            case 'reasoning-end':
            case 'tool-input-start':
            case 'tool-input-delta':
            case 'tool-input-end':
            case 'tool-result':
            case 'tool-error':
            case 'tool-output-denied':
            case 'tool-approval-request':
            case 'source':
            case 'file':
            case 'raw':
              break;
          }
        }
      } catch (error) {
        if (request.signal.aborted || isAbort(error)) return;
        yield await errorEvent(error, parsed, options.reach);
      }
    },
  };
}
