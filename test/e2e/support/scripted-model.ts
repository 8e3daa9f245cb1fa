import { z } from 'zod';
import type { ProviderSettings } from '../../../extension/messaging/provider';
import {
  sse,
  startLoopbackServer,
  type LoopbackReply,
  type RecordedRequest,
} from '../../support/loopback-server';

/**
 * A model the test plays turn by turn, served on 127.0.0.1 in the two wire formats the extension
 * speaks: OpenAI chat completions (`POST /v1/chat/completions`) and Anthropic messages
 * (`POST /v1/messages`), both streamed. Each request takes the next scripted turn; every request
 * is recorded and parsed, so a test asserts what the model saw: the tools offered, the tool
 * results (or the denial) sent back. A request with no turn left is answered with an HTTP 500
 * that names the problem, so a runaway agent loop fails the test instead of hanging it.
 */

/** What the model answers to one request. */
export type ModelTurn =
  /** Calls one tool (after optional text), then stops with `tool_calls` / `tool_use`. */
  | {
      readonly kind: 'tool-call';
      readonly name: string;
      readonly arguments: Record<string, unknown>;
      readonly text?: string;
    }
  /** Streams text, computed from what the model was sent when given a function. */
  | { readonly kind: 'text'; readonly text: string | ((seen: ModelRequest) => string) }
  /** Streams `text`, then keeps the response open until the client goes (a Stop button test). */
  | { readonly kind: 'hang'; readonly text: string };

/** OpenAI chat completions, OpenAI's Responses API (issue 14), Anthropic messages. */
export type ModelApi = 'openai' | 'openai-responses' | 'anthropic';

/** A tool result as the model received it. */
export interface SeenToolResult {
  readonly callId: string;
  readonly content: string;
  /** Anthropic's `is_error`; OpenAI has no such flag (always false). */
  readonly isError: boolean;
}

/** One request to the model, parsed. */
export interface ModelRequest {
  readonly index: number;
  readonly api: ModelApi;
  /** Names of the tools offered on this turn. */
  readonly tools: readonly string[];
  /** Tool results in the transcript, oldest first. */
  readonly toolResults: readonly SeenToolResult[];
  /** Text of the last user message (tool results left out). */
  readonly lastUserText: string;
  /** Text of every user message sent, oldest first (tool results left out). */
  readonly userTexts: readonly string[];
  /** The model the request named (the body's `model`). */
  readonly model: string;
  /** The raw request, for assertions this summary does not cover. */
  readonly raw: RecordedRequest;
}

export interface ScriptedModel {
  /** e.g. `http://127.0.0.1:54321/v1`: the provider's base URL. */
  readonly baseURL: string;
  readonly requests: readonly ModelRequest[];
  /** Queues turns; each later request takes the next one. */
  script(...turns: ModelTurn[]): void;
  /** Resolves with request `index` (0-based) once it has arrived. */
  request(index: number): Promise<ModelRequest>;
  /**
   * Answers the next request (a model turn or the model list) with this HTTP status and an
   * error body in the provider's shape instead, e.g. 401 for a refused key (Test connection).
   */
  failNext(status: number, message?: string): void;
  /** Provider settings that point the extension at this model. */
  settings(api: ModelApi): ProviderSettings;
  close(): Promise<void>;
}

/**
 * Model ids the SDKs know (an unknown one makes the Anthropic adapter warn and cap output); the
 * scripted model answers the same whatever the id.
 */
export const SCRIPTED_MODEL_IDS: Readonly<Record<ModelApi, string>> = {
  openai: 'gpt-4.1',
  'openai-responses': 'gpt-4.1',
  anthropic: 'claude-sonnet-4-5',
};
const SCRIPTED_MODEL_NAME = 'scripted-model';
/** A second model per API in the model list, for the panel's picker (issue 14). */
export const SCRIPTED_ALTERNATE_IDS: Readonly<Record<ModelApi, string>> = {
  openai: 'gpt-4.1-mini',
  'openai-responses': 'gpt-4.1-mini',
  anthropic: 'claude-haiku-4-5',
};
const ModelFieldSchema = z.looseObject({ model: z.string().catch('') });

/** Streams text in pieces of this many characters, so the UI really sees a stream. */
const TEXT_PIECE_CHARS = 12;

const TextPartsSchema = z.union([
  z.string(),
  z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
]);

const OpenAiBodySchema = z.looseObject({
  tools: z.array(z.looseObject({ function: z.looseObject({ name: z.string() }) })).optional(),
  messages: z.array(
    z.looseObject({
      role: z.string(),
      content: TextPartsSchema.nullish(),
      tool_call_id: z.string().optional(),
    }),
  ),
});

// The Responses API's `input`: messages, and the function calls and their outputs as items.
const ResponsesBodySchema = z.looseObject({
  tools: z.array(z.looseObject({ name: z.string() })).optional(),
  input: z.array(
    z.looseObject({
      type: z.string().optional(),
      role: z.string().optional(),
      call_id: z.string().optional(),
      content: TextPartsSchema.optional(),
      output: TextPartsSchema.optional(),
    }),
  ),
});

const AnthropicBodySchema = z.looseObject({
  tools: z.array(z.looseObject({ name: z.string() })).optional(),
  messages: z.array(
    z.looseObject({
      role: z.string(),
      content: z.union([
        z.string(),
        z.array(
          z.looseObject({
            type: z.string(),
            text: z.string().optional(),
            tool_use_id: z.string().optional(),
            content: TextPartsSchema.optional(),
            is_error: z.boolean().optional(),
          }),
        ),
      ]),
    }),
  ),
});

function textOf(content: z.infer<typeof TextPartsSchema> | null | undefined): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => part.text ?? '').join('');
}

function parseRequest(raw: RecordedRequest, index: number): ModelRequest | string {
  if (raw.method !== 'POST') return `${raw.method} ${raw.url}: the model only answers POST`;
  if (raw.url.endsWith('/chat/completions')) {
    const body = OpenAiBodySchema.safeParse(raw.body);
    if (!body.success) return `not a chat-completions body: ${body.error.message}`;
    const { messages } = body.data;
    return {
      index,
      api: 'openai',
      raw,
      tools: (body.data.tools ?? []).map((tool) => tool.function.name),
      toolResults: messages
        .filter((message) => message.role === 'tool')
        .map((message) => ({
          callId: message.tool_call_id ?? '',
          content: textOf(message.content),
          isError: false,
        })),
      lastUserText: textOf(messages.filter((message) => message.role === 'user').at(-1)?.content),
      userTexts: messages.filter((m) => m.role === 'user').map((m) => textOf(m.content)),
      model: ModelFieldSchema.parse(raw.body).model,
    };
  }
  if (raw.url.endsWith('/responses')) {
    const body = ResponsesBodySchema.safeParse(raw.body);
    if (!body.success) return `not a responses body: ${body.error.message}`;
    const items = body.data.input;
    return {
      index,
      api: 'openai-responses',
      raw,
      tools: (body.data.tools ?? []).map((tool) => tool.name),
      toolResults: items.flatMap((item) =>
        item.type === 'function_call_output'
          ? [{ callId: item.call_id ?? '', content: textOf(item.output), isError: false }]
          : [],
      ),
      lastUserText: textOf(
        items.flatMap((item) => (item.role === 'user' ? [item.content] : [])).at(-1),
      ),
      userTexts: items.flatMap((item) => (item.role === 'user' ? [textOf(item.content)] : [])),
      model: ModelFieldSchema.parse(raw.body).model,
    };
  }
  if (raw.url.endsWith('/messages')) {
    const body = AnthropicBodySchema.safeParse(raw.body);
    if (!body.success) return `not a messages body: ${body.error.message}`;
    const parts = body.data.messages
      .filter((message) => message.role === 'user')
      .map((message) =>
        typeof message.content === 'string'
          ? [{ type: 'text', text: message.content }]
          : message.content,
      );
    const userTexts = parts
      .filter((m) => m.some((part) => part.type === 'text'))
      .map((m) => m.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join(''));
    return {
      index,
      api: 'anthropic',
      raw,
      tools: (body.data.tools ?? []).map((tool) => tool.name),
      toolResults: parts.flat().flatMap((part) =>
        part.type === 'tool_result'
          ? [
              {
                callId: part.tool_use_id ?? '',
                content: textOf(part.content),
                isError: part.is_error === true,
              },
            ]
          : [],
      ),
      lastUserText: userTexts.at(-1) ?? '',
      userTexts,
      model: ModelFieldSchema.parse(raw.body).model,
    };
  }
  return `${raw.url}: the model serves /v1/chat/completions, /v1/responses and /v1/messages only`;
}

function turnText(turn: ModelTurn, seen: ModelRequest): string {
  if (turn.kind === 'text') return typeof turn.text === 'function' ? turn.text(seen) : turn.text;
  return turn.text ?? '';
}

function pieces(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += TEXT_PIECE_CHARS) {
    out.push(text.slice(i, i + TEXT_PIECE_CHARS));
  }
  return out;
}

// OpenAI chat-completions streaming: one `chat.completion.chunk` per delta, usage, then [DONE].
function openAiChunk(
  index: number,
  delta: Record<string, unknown>,
  finishReason: string | null = null,
): string {
  return sse({
    id: `chatcmpl-${index}`,
    object: 'chat.completion.chunk',
    created: 1,
    model: SCRIPTED_MODEL_NAME,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
}

function openAiReply(turn: ModelTurn, seen: ModelRequest): LoopbackReply {
  const n = seen.index;
  const events = [openAiChunk(n, { role: 'assistant', content: '' })];
  const text = turnText(turn, seen);
  for (const piece of pieces(text)) events.push(openAiChunk(n, { content: piece }));
  if (turn.kind === 'hang') return { kind: 'sse', events, hang: true };
  if (turn.kind === 'tool-call') {
    const call = {
      index: 0,
      id: `call_${n}`,
      type: 'function',
      function: { name: turn.name, arguments: JSON.stringify(turn.arguments) },
    };
    events.push(openAiChunk(n, { tool_calls: [call] }));
  }
  events.push(openAiChunk(n, {}, turn.kind === 'tool-call' ? 'tool_calls' : 'stop'));
  events.push(
    sse({
      id: `chatcmpl-${n}`,
      object: 'chat.completion.chunk',
      created: 1,
      model: SCRIPTED_MODEL_NAME,
      choices: [],
      usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
    }),
    sse('[DONE]'),
  );
  return { kind: 'sse', events };
}

// OpenAI Responses streaming: response.created, output items (a message with text deltas, a
// function call with argument deltas), then response.completed with the usage.
function responsesReply(turn: ModelTurn, seen: ModelRequest): LoopbackReply {
  const n = seen.index;
  const event = (type: string, data: Record<string, unknown>): string =>
    sse({ type, ...data }, type);
  const events = [
    event('response.created', {
      response: { id: `resp_${n}`, created_at: 1, model: SCRIPTED_MODEL_NAME },
    }),
  ];
  const text = turnText(turn, seen);
  let output = 0;
  if (text !== '') {
    const item = { type: 'message', id: `msg_${n}` };
    events.push(event('response.output_item.added', { output_index: output, item }));
    for (const piece of pieces(text)) {
      events.push(
        event('response.output_text.delta', {
          item_id: item.id,
          output_index: output,
          content_index: 0,
          delta: piece,
        }),
      );
    }
    if (turn.kind === 'hang') return { kind: 'sse', events, hang: true };
    events.push(event('response.output_item.done', { output_index: output++, item }));
  }
  if (turn.kind === 'hang') return { kind: 'sse', events, hang: true };
  if (turn.kind === 'tool-call') {
    const args = JSON.stringify(turn.arguments);
    const call = { type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name: turn.name };
    events.push(
      event('response.output_item.added', {
        output_index: output,
        item: { ...call, arguments: '' },
      }),
      event('response.function_call_arguments.delta', {
        item_id: call.id,
        output_index: output,
        delta: args,
      }),
      event('response.output_item.done', {
        output_index: output,
        item: { ...call, arguments: args, status: 'completed' },
      }),
    );
  }
  events.push(
    event('response.completed', {
      response: {
        incomplete_details: null,
        usage: { input_tokens: 100, output_tokens: 10, total_tokens: 110 },
      },
    }),
  );
  return { kind: 'sse', events };
}

// Anthropic messages streaming: message_start, content blocks with deltas, message_delta, stop.
function anthropicReply(turn: ModelTurn, seen: ModelRequest): LoopbackReply {
  const n = seen.index;
  const events = [
    sse(
      {
        type: 'message_start',
        message: {
          id: `msg_${n}`,
          type: 'message',
          role: 'assistant',
          model: SCRIPTED_MODEL_NAME,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 100, output_tokens: 1 },
        },
      },
      'message_start',
    ),
  ];
  const blockStart = (index: number, block: unknown): string =>
    sse({ type: 'content_block_start', index, content_block: block }, 'content_block_start');
  const blockDelta = (index: number, delta: unknown): string =>
    sse({ type: 'content_block_delta', index, delta }, 'content_block_delta');
  const blockStop = (index: number): string =>
    sse({ type: 'content_block_stop', index }, 'content_block_stop');

  const text = turnText(turn, seen);
  let next = 0;
  if (text !== '') {
    events.push(blockStart(next, { type: 'text', text: '' }));
    for (const piece of pieces(text)) {
      events.push(blockDelta(next, { type: 'text_delta', text: piece }));
    }
    if (turn.kind === 'hang') return { kind: 'sse', events, hang: true };
    events.push(blockStop(next++));
  }
  if (turn.kind === 'hang') return { kind: 'sse', events, hang: true };
  if (turn.kind === 'tool-call') {
    events.push(
      blockStart(next, { type: 'tool_use', id: `toolu_${n}`, name: turn.name, input: {} }),
      blockDelta(next, { type: 'input_json_delta', partial_json: JSON.stringify(turn.arguments) }),
      blockStop(next),
    );
  }
  events.push(
    sse(
      {
        type: 'message_delta',
        delta: {
          stop_reason: turn.kind === 'tool-call' ? 'tool_use' : 'end_turn',
          stop_sequence: null,
        },
        usage: { output_tokens: 10 },
      },
      'message_delta',
    ),
    sse({ type: 'message_stop' }, 'message_stop'),
  );
  return { kind: 'sse', events };
}

function failure(message: string): LoopbackReply {
  // Both SDKs surface `error.message` from this shape.
  return {
    kind: 'json',
    status: 500,
    body: { type: 'error', error: { type: 'scripted_model_error', message } },
  };
}

export interface ScriptedModelOptions {
  /**
   * Send CORS headers (default true), as OpenAI's and Anthropic's APIs do. Without them the
   * extension reaches the model only with the site access for its origin, as with a local server
   * that sends none (Test connection's "no access" case).
   */
  readonly cors?: boolean;
}

/** The model list both APIs answer at `GET /v1/models` (one shape fits both). */
function modelList(): LoopbackReply {
  return {
    kind: 'json',
    status: 200,
    body: {
      object: 'list',
      data: [
        ...new Set([
          ...Object.values(SCRIPTED_MODEL_IDS),
          ...Object.values(SCRIPTED_ALTERNATE_IDS),
        ]),
      ].map((id) => ({
        id,
        object: 'model',
        type: 'model',
        created: 1,
        owned_by: 'scripted',
      })),
      has_more: false,
    },
  };
}

/** Starts a scripted model; `close()` it in the test's teardown. */
export async function startScriptedModel(
  turns: readonly ModelTurn[] = [],
  options: ScriptedModelOptions = {},
): Promise<ScriptedModel> {
  const queue = [...turns];
  const failures: { readonly status: number; readonly message: string }[] = [];
  const requests: ModelRequest[] = [];
  const arrivals = new Set<() => void>();
  const server = await startLoopbackServer(
    (raw) => {
      const failing = failures.shift();
      if (failing !== undefined) {
        return {
          kind: 'json',
          status: failing.status,
          body: { type: 'error', error: { type: 'scripted_error', message: failing.message } },
        };
      }
      if (raw.method === 'GET' && /\/models(\?|$)/.test(raw.url)) return modelList();
      const seen = parseRequest(raw, requests.length);
      if (typeof seen === 'string') return failure(`scripted model: ${seen}`);
      requests.push(seen);
      for (const arrival of arrivals) arrival();
      const turn = queue.shift();
      if (turn === undefined) {
        return failure(`scripted model: no turn left for request ${seen.index + 1}`);
      }
      switch (seen.api) {
        case 'openai':
          return openAiReply(turn, seen);
        case 'openai-responses':
          return responsesReply(turn, seen);
        case 'anthropic':
          return anthropicReply(turn, seen);
      }
    },
    { cors: options.cors ?? true },
  );
  const { baseURL } = server;
  return {
    baseURL,
    requests,
    script: (...more) => {
      queue.push(...more);
    },
    failNext: (status, message = `scripted HTTP ${status}`) => {
      failures.push({ status, message });
    },
    request: (index) =>
      new Promise((resolve) => {
        const check = (): void => {
          const seen = requests[index];
          if (seen === undefined) return;
          arrivals.delete(check);
          resolve(seen);
        };
        arrivals.add(check);
        check();
      }),
    settings: (api) =>
      api === 'anthropic'
        ? { kind: 'anthropic', apiKey: 'sk-ant-e2e', model: SCRIPTED_MODEL_IDS.anthropic, baseURL }
        : {
            kind: 'openai',
            apiKey: 'sk-e2e',
            model: SCRIPTED_MODEL_IDS[api],
            baseURL,
            ...(api === 'openai-responses' ? { api: 'responses' as const } : {}),
          },
    close: () => server.close(),
  };
}
