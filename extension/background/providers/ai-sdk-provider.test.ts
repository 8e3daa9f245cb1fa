import { afterEach, describe, expect, it } from 'vitest';
import {
  sse,
  startLoopbackServer,
  type LoopbackReply,
  type LoopbackServer,
} from '../../../test/support/loopback-server';
import type { ChatMessage } from '../../messaging/conversation';
import { createAiSdkProvider } from './ai-sdk-provider';
import type { ModelProvider, ProviderEvent, ProviderTool } from './provider';
import { ProviderSettingsSchema } from '../../messaging/provider';

const READ_FILE: ProviderTool = {
  name: 'fs__read_file',
  description: 'Reads a file.',
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string', description: 'Absolute path' } },
    required: ['path'],
    additionalProperties: false,
  },
};

const USER: ChatMessage = { role: 'user', content: 'What is in /tmp/a?' };
const ROUND: ChatMessage[] = [
  USER,
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Let me look.' },
      { type: 'tool-call', id: 'call_1', name: 'fs__read_file', arguments: { path: '/tmp/a' } },
    ],
  },
  {
    role: 'tool',
    results: [
      {
        type: 'tool-result',
        callId: 'call_1',
        name: 'fs__read_file',
        status: 'ok',
        content: 'hello',
      },
    ],
  },
];

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(reply: (index: number) => LoopbackReply): Promise<LoopbackServer> {
  server = await startLoopbackServer((_, index) => reply(index));
  return server;
}

async function collect(
  provider: ModelProvider,
  messages: readonly ChatMessage[] = [USER],
  signal: AbortSignal = new AbortController().signal,
): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of provider.stream({
    system: 'Be brief.',
    messages,
    tools: [READ_FILE],
    signal,
  })) {
    events.push(event);
  }
  return events;
}

// OpenAI chat-completions streaming wire format.
function chunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  return sse({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'test-model',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
}
function usageChunk(prompt: number, completion: number): string {
  return sse({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'test-model',
    choices: [],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
    },
  });
}
const DONE = sse('[DONE]');

const OPENAI_TEXT: LoopbackReply = {
  kind: 'sse',
  events: [
    chunk({ role: 'assistant', content: '' }),
    chunk({ content: 'Hel' }),
    chunk({ content: 'lo, ' }),
    chunk({ content: 'world' }),
    chunk({}, 'stop'),
    usageChunk(12, 3),
    DONE,
  ],
};

const OPENAI_TOOL_CALL: LoopbackReply = {
  kind: 'sse',
  events: [
    chunk({ role: 'assistant', content: null }),
    chunk({
      tool_calls: [
        {
          index: 0,
          id: 'call_abc',
          type: 'function',
          function: { name: 'fs__read_file', arguments: '' },
        },
      ],
    }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '{"pa' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: 'th": "/tm' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: 'p/a"}' } }] }),
    chunk({}, 'tool_calls'),
    usageChunk(40, 9),
    DONE,
  ],
};

/** Anthropic's first stream event, the same for every test reply. */
function anthropicMessageStart(): string {
  return sse(
    {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-test',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 25, output_tokens: 1 },
      },
    },
    'message_start',
  );
}

describe('createAiSdkProvider over OpenAI chat completions', () => {
  it('streams text deltas in order and finishes with usage (openai-compatible)', async () => {
    const { baseURL, requests } = await serve(() => OPENAI_TEXT);
    const provider = createAiSdkProvider(
      { kind: 'openai-compatible', name: 'ollama', baseURL, model: 'llama3.2' },
      { maxRetries: 0 },
    );

    const events = await collect(provider);

    expect(events).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo, ' },
      { type: 'text-delta', text: 'world' },
      { type: 'finish', reason: 'stop', usage: { inputTokens: 12, outputTokens: 3 } },
    ]);
    expect(requests[0]?.url).toBe('/v1/chat/completions');
    expect(requests[0]?.body).toMatchObject({
      model: 'llama3.2',
      stream: true,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'What is in /tmp/a?' },
      ],
    });
  });

  it('assembles a tool call split across chunks and sends the tool with its JSON schema', async () => {
    const { baseURL, requests } = await serve(() => OPENAI_TOOL_CALL);
    const provider = createAiSdkProvider(
      { kind: 'openai', apiKey: 'sk-test', model: 'gpt-test', baseURL },
      { maxRetries: 0 },
    );

    const events = await collect(provider);

    expect(events).toEqual([
      { type: 'tool-call', id: 'call_abc', name: 'fs__read_file', arguments: { path: '/tmp/a' } },
      { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 40, outputTokens: 9 } },
    ]);
    expect(requests).toHaveLength(1); // one step: no execute, so the SDK does not loop
    expect(requests[0]?.url).toBe('/v1/chat/completions');
    expect(requests[0]?.headers.authorization).toBe('Bearer sk-test');
    expect(requests[0]?.body).toMatchObject({
      tools: [
        {
          type: 'function',
          function: {
            name: 'fs__read_file',
            description: 'Reads a file.',
            parameters: READ_FILE.inputSchema,
          },
        },
      ],
    });
  });

  it('sends the assistant tool call and its result after a round', async () => {
    const { baseURL, requests } = await serve(() => OPENAI_TEXT);
    const provider = createAiSdkProvider(
      { kind: 'openai', apiKey: 'sk-test', model: 'gpt-test', baseURL },
      { maxRetries: 0 },
    );

    await collect(provider, ROUND);

    expect(requests[0]?.body).toMatchObject({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'What is in /tmp/a?' },
        {
          role: 'assistant',
          content: 'Let me look.',
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'fs__read_file', arguments: '{"path":"/tmp/a"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'hello' },
      ],
    });
  });

  it('ends the iteration when aborted mid-stream, and closes the connection', async () => {
    const live = await serve(() => ({
      kind: 'sse',
      events: [chunk({ content: 'Thinking' })],
      hang: true,
    }));
    const provider = createAiSdkProvider(
      { kind: 'openai-compatible', name: 'lmstudio', baseURL: live.baseURL, model: 'qwen' },
      { maxRetries: 0 },
    );
    const controller = new AbortController();
    const events: ProviderEvent[] = [];

    for await (const event of provider.stream({
      system: '',
      messages: [USER],
      tools: [],
      signal: controller.signal,
    })) {
      events.push(event);
      controller.abort();
    }

    expect(events).toEqual([{ type: 'text-delta', text: 'Thinking' }]);
    await live.clientClosed(0);
  });

  it('turns a 401 into an error event instead of throwing', async () => {
    const { baseURL } = await serve(() => ({
      kind: 'json',
      status: 401,
      body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } },
    }));
    const provider = createAiSdkProvider(
      { kind: 'openai', apiKey: 'sk-wrong', model: 'gpt-test', baseURL },
      { maxRetries: 0 },
    );

    const events = await collect(provider);

    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'error' });
    expect(events[0]?.type === 'error' && events[0].message).toContain('The API key was refused');
  });

  it('says which URL it cannot reach when the connection is refused', async () => {
    const dead = await startLoopbackServer(() => OPENAI_TEXT);
    await dead.close();
    const provider = createAiSdkProvider(
      { kind: 'openai-compatible', name: 'vllm', baseURL: dead.baseURL, model: 'm' },
      { maxRetries: 0 },
    );

    const events = await collect(provider);

    expect(events).toHaveLength(1);
    expect(events[0]?.type === 'error' && events[0].message).toContain(
      `Cannot reach ${dead.baseURL}`,
    );
  });

  // Issue 14: the browser's "Failed to fetch" is one error for missing site access and a server
  // that is down; with `reach` the message says which (provider-reach.ts).
  it('names missing site access when the server answers a plain request, with the access', async () => {
    const { baseURL } = await serve(() => OPENAI_TEXT);
    const settings = { kind: 'openai-compatible', name: 'vllm', baseURL, model: 'm' } as const;
    const provider = createAiSdkProvider(settings, {
      maxRetries: 0,
      // As Chromium refuses a cross-origin request without access when the server sends no CORS.
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
      reach: {
        fetch: (input, init) => fetch(input, init),
        hasAccess: () => Promise.resolve(false),
      },
    });

    const events = await collect(provider);

    const origin = new URL(baseURL).host;
    expect(events).toEqual([
      {
        type: 'error',
        message: expect.stringContaining(
          `Switchyard has no permission to reach ${origin}`,
        ) as unknown,
        access: { origin, pattern: `${new URL(baseURL).origin}/*` },
      },
    ]);
  });

  it('says the connection was refused when nothing answers, access or not', async () => {
    const dead = await startLoopbackServer(() => OPENAI_TEXT);
    await dead.close();
    const provider = createAiSdkProvider(
      { kind: 'openai-compatible', name: 'vllm', baseURL: dead.baseURL, model: 'm' },
      {
        maxRetries: 0,
        reach: {
          fetch: (input, init) => fetch(input, init),
          hasAccess: () => Promise.resolve(false),
        },
      },
    );

    const events = await collect(provider);

    expect(events).toHaveLength(1);
    expect(events[0]).not.toHaveProperty('access');
    expect(events[0]?.type === 'error' && events[0].message).toContain(
      'the name does not resolve or the connection was refused',
    );
  });

  it('uses the injected fetch', async () => {
    const { baseURL } = await serve(() => OPENAI_TEXT);
    const seen: string[] = [];
    const provider = createAiSdkProvider(
      { kind: 'openai-compatible', name: 'openrouter', baseURL, apiKey: 'or-key', model: 'm' },
      {
        maxRetries: 0,
        fetch: (input, init) => {
          seen.push(input instanceof Request ? input.url : String(input));
          return fetch(input, init);
        },
      },
    );

    await collect(provider);

    expect(seen).toEqual([`${baseURL}/chat/completions`]);
  });
});

describe('createAiSdkProvider over Anthropic messages', () => {
  const ANTHROPIC_TOOL_TURN: LoopbackReply = {
    kind: 'sse',
    events: [
      anthropicMessageStart(),
      sse(
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        'content_block_start',
      ),
      sse(
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me ' } },
        'content_block_delta',
      ),
      sse(
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'look.' } },
        'content_block_delta',
      ),
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
      sse(
        {
          type: 'content_block_start',
          index: 1,
          content_block: { type: 'tool_use', id: 'toolu_01', name: 'fs__read_file', input: {} },
        },
        'content_block_start',
      ),
      sse(
        {
          type: 'content_block_delta',
          index: 1,
          delta: { type: 'input_json_delta', partial_json: '{"path":' },
        },
        'content_block_delta',
      ),
      sse(
        {
          type: 'content_block_delta',
          index: 1,
          delta: { type: 'input_json_delta', partial_json: ' "/tmp/a"}' },
        },
        'content_block_delta',
      ),
      sse({ type: 'content_block_stop', index: 1 }, 'content_block_stop'),
      sse(
        {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { output_tokens: 17 },
        },
        'message_delta',
      ),
      sse({ type: 'message_stop' }, 'message_stop'),
    ],
  };

  it('streams text, one tool call and the finish, then sends the tool result next round', async () => {
    const { baseURL, requests } = await serve(() => ANTHROPIC_TOOL_TURN);
    const provider = createAiSdkProvider(
      { kind: 'anthropic', apiKey: 'sk-ant-test', model: 'claude-test', baseURL },
      { maxRetries: 0 },
    );

    const first = await collect(provider);

    expect(first).toEqual([
      { type: 'text-delta', text: 'Let me ' },
      { type: 'text-delta', text: 'look.' },
      { type: 'tool-call', id: 'toolu_01', name: 'fs__read_file', arguments: { path: '/tmp/a' } },
      { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 25, outputTokens: 17 } },
    ]);
    expect(requests[0]?.url).toBe('/v1/messages');
    expect(requests[0]?.headers['x-api-key']).toBe('sk-ant-test');
    expect(requests[0]?.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    expect(requests[0]?.body).toMatchObject({
      model: 'claude-test',
      stream: true,
      system: [{ type: 'text', text: 'Be brief.' }],
      tools: [
        {
          name: 'fs__read_file',
          description: 'Reads a file.',
          input_schema: READ_FILE.inputSchema,
        },
      ],
    });

    const denied: ChatMessage[] = [
      ...ROUND.slice(0, 2),
      {
        role: 'tool',
        results: [
          {
            type: 'tool-result',
            callId: 'call_1',
            name: 'fs__read_file',
            status: 'denied',
            content: 'The user denied this call.',
          },
        ],
      },
    ];
    await collect(provider, denied);

    expect(requests[1]?.body).toMatchObject({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What is in /tmp/a?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool_use', id: 'call_1', name: 'fs__read_file', input: { path: '/tmp/a' } },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'call_1',
              is_error: true,
              content: 'The user denied this call.',
            },
          ],
        },
      ],
    });
  });

  it('turns a 401 into an error event', async () => {
    const { baseURL } = await serve(() => ({
      kind: 'json',
      status: 401,
      body: {
        type: 'error',
        error: { type: 'authentication_error', message: 'invalid x-api-key' },
      },
    }));
    const provider = createAiSdkProvider(
      { kind: 'anthropic', apiKey: 'bad', model: 'claude-test', baseURL },
      { maxRetries: 0 },
    );

    const events = await collect(provider);

    expect(events).toEqual([
      {
        type: 'error',
        message: expect.stringContaining('The API key was refused by Anthropic') as unknown,
      },
    ]);
  });
});

describe('createAiSdkProvider: what a failed turn says', () => {
  // Anthropic sends `overloaded_error` as an SSE event after a 200 when it is busy; the SDK
  // passes the event's plain `{type, message}` object on, which is no Error.
  it("names a provider's mid-stream error, not [object Object] (Anthropic)", async () => {
    const { baseURL } = await serve(() => ({
      kind: 'sse',
      events: [
        anthropicMessageStart(),
        sse({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error'),
      ],
    }));
    const provider = createAiSdkProvider(
      { kind: 'anthropic', apiKey: 'sk-ant-test', model: 'claude-test', baseURL },
      { maxRetries: 0 },
    );

    const events = await collect(provider);

    expect(events).toEqual([
      {
        type: 'error',
        message: 'The request to Anthropic failed: Overloaded (overloaded_error)',
      },
    ]);
  });

  it("names a provider's mid-stream error, not [object Object] (OpenAI chat)", async () => {
    const { baseURL } = await serve(() => ({
      kind: 'sse',
      events: [
        chunk({ content: 'Hel' }),
        sse({ error: { message: 'The server had an error', type: 'server_error' } }),
      ],
    }));
    const provider = createAiSdkProvider(
      { kind: 'openai', apiKey: 'sk', model: 'gpt-test', baseURL },
      { maxRetries: 0 },
    );

    const events = await collect(provider);

    expect(events).toEqual([
      { type: 'text-delta', text: 'Hel' },
      {
        type: 'error',
        message: 'The request to OpenAI failed: The server had an error (server_error)',
      },
    ]);
  });
});

describe('createAiSdkProvider: a stream that ends before its last event', () => {
  const CUT = 'ended before it was complete (the connection closed early)';
  const responsesEvent = (data: Record<string, unknown>): string => sse(data);

  // A proxy or a dropped connection can close a 200 stream cleanly mid-answer. Without the
  // provider's stop reason the SDK reports finish reason 'other', which read as a finished reply.
  // Each wire format is cut after one text delta: the text is kept, then the error.
  it.each<[string, string, Record<string, unknown>, string[]]>([
    [
      'Anthropic',
      "Anthropic's reply",
      { kind: 'anthropic', apiKey: 'sk-ant-test', model: 'claude-test' },
      [
        anthropicMessageStart(),
        sse(
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          'content_block_start',
        ),
        sse(
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'The fi' } },
          'content_block_delta',
        ),
      ],
    ],
    [
      'OpenAI chat completions',
      "OpenAI's reply",
      { kind: 'openai', apiKey: 'sk', model: 'gpt-test' },
      [chunk({ content: 'The fi' })],
    ],
    [
      'the Responses API',
      "OpenAI's reply",
      { kind: 'openai', apiKey: 'sk', model: 'gpt-test', api: 'responses' },
      [
        responsesEvent({
          type: 'response.created',
          sequence_number: 0,
          response: { id: 'resp_1', created_at: 1, model: 'gpt-test', object: 'response' },
        }),
        responsesEvent({
          type: 'response.output_item.added',
          sequence_number: 1,
          output_index: 0,
          item: {
            type: 'message',
            id: 'msg_1',
            role: 'assistant',
            status: 'in_progress',
            content: [],
          },
        }),
        responsesEvent({
          type: 'response.output_text.delta',
          sequence_number: 2,
          item_id: 'msg_1',
          output_index: 0,
          content_index: 0,
          delta: 'The fi',
        }),
      ],
    ],
  ])('is an error for %s, after the text that arrived', async (_, reply, settings, events) => {
    const { baseURL } = await serve(() => ({ kind: 'sse', events }));
    const provider = createAiSdkProvider(ProviderSettingsSchema.parse({ ...settings, baseURL }), {
      maxRetries: 0,
    });

    expect(await collect(provider)).toEqual([
      { type: 'text-delta', text: 'The fi' },
      { type: 'error', message: expect.stringContaining(`${reply} ${CUT}`) as unknown },
    ]);
  });
});

describe('createAiSdkProvider: an error body the SDK does not understand', () => {
  async function failWith(reply: LoopbackReply): Promise<ProviderEvent[]> {
    const { baseURL } = await serve(() => reply);
    const provider = createAiSdkProvider(
      { kind: 'openai-compatible', name: 'lmstudio', baseURL, model: 'qwen' },
      { maxRetries: 0 },
    );
    return collect(provider);
  }

  // Servers that do not use OpenAI's {"error": {"message"}} shape: the SDK then keeps only the
  // status text, and the reason the server gave was never shown.
  it.each([
    [{ error: 'Model is still loading' }, 'Model is still loading'],
    [
      { object: 'error', message: 'max_tokens is too large', type: 'BadRequestError' },
      'max_tokens is too large',
    ],
    [{ detail: 'Not enough memory to load qwen' }, 'Not enough memory to load qwen'],
  ])('shows the reason in %j', async (body, reason) => {
    const events = await failWith({ kind: 'json', status: 400, body });

    expect(events).toEqual([{ type: 'error', message: `lmstudio answered HTTP 400: ${reason}` }]);
  });

  it('shows a plain-text body, capped', async () => {
    const events = await failWith({
      kind: 'text',
      status: 500,
      contentType: 'text/plain',
      body: `upstream failed: ${'x'.repeat(1000)}\nstack trace`,
    });

    const message = events[0]?.type === 'error' ? events[0].message : '';
    expect(message).toMatch(/^lmstudio answered HTTP 500: upstream failed: x{183}…$/);
    expect(message.length).toBeLessThan(400);
  });

  // Over HTTP/2 (most hosted APIs, and proxies in front of local ones) a response has no status
  // text, so an HTML error page left the message ending in ": ".
  it('says there was no readable reason for an HTML page without a status text', async () => {
    const provider = createAiSdkProvider(
      {
        kind: 'openai-compatible',
        name: 'lmstudio',
        baseURL: 'https://llm.example/v1',
        model: 'm',
      },
      {
        maxRetries: 0,
        fetch: () =>
          Promise.resolve(
            new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', {
              status: 502,
              headers: { 'content-type': 'text/html' },
            }),
          ),
      },
    );

    const events = await collect(provider);

    expect(events).toEqual([
      { type: 'error', message: 'lmstudio answered HTTP 502 without a readable reason.' },
    ]);
  });
});

describe('createAiSdkProvider: a rate limit', () => {
  async function limited(headers: Record<string, string>, body: unknown): Promise<string> {
    const provider = createAiSdkProvider(
      { kind: 'openai', apiKey: 'sk', model: 'gpt-test' },
      {
        maxRetries: 0,
        fetch: () =>
          Promise.resolve(
            new Response(JSON.stringify(body), {
              status: 429,
              headers: { 'content-type': 'application/json', ...headers },
            }),
          ),
      },
    );
    const events = await collect(provider);
    return events[0]?.type === 'error' ? events[0].message : '';
  }

  // OpenAI answers an account without credit with a 429 that waiting never clears.
  it("quotes the provider's reason, which may not be a matter of waiting", async () => {
    const message = await limited(
      {},
      {
        error: {
          message: 'You exceeded your current quota, please check your plan and billing details.',
          type: 'insufficient_quota',
        },
      },
    );

    expect(message).toBe(
      'OpenAI is rate-limiting requests (HTTP 429): You exceeded your current quota, please check your plan and billing details.',
    );
  });

  it.each([
    ['30', 'try again in 30 s'],
    ['600', 'try again in 10 min'],
  ])('says when to try again from Retry-After: %s', async (retryAfter, when) => {
    const message = await limited(
      { 'retry-after': retryAfter },
      { error: { message: 'Rate limit reached for requests', type: 'requests' } },
    );

    expect(message).toBe(
      `OpenAI is rate-limiting requests (HTTP 429): Rate limit reached for requests. Wait and ${when}.`,
    );
  });

  it('keeps the advice when the provider says nothing', async () => {
    expect(await limited({}, {})).toBe(
      'OpenAI is rate-limiting requests (HTTP 429): wait a moment and try again.',
    );
  });
});

describe('ProviderSettingsSchema', () => {
  it.each([
    [{ kind: 'openai', apiKey: 'sk', model: 'gpt-4.1' }, true],
    [
      {
        kind: 'anthropic',
        apiKey: 'sk-ant',
        model: 'claude-sonnet-4-5',
        baseURL: 'https://proxy.example/v1',
      },
      true,
    ],
    [
      {
        kind: 'openai-compatible',
        name: 'ollama',
        baseURL: 'http://127.0.0.1:11434/v1',
        model: 'llama3.2',
      },
      true,
    ],
    [{ kind: 'openai', apiKey: '', model: 'gpt-4.1' }, false],
    [{ kind: 'anthropic', apiKey: 'sk-ant', model: ' ' }, false],
    [{ kind: 'openai-compatible', name: 'x', model: 'm' }, false],
    [{ kind: 'openai-compatible', name: 'x', baseURL: 'file:///etc/passwd', model: 'm' }, false],
    [{ kind: 'gemini', apiKey: 'k', model: 'm' }, false],
  ])('%j valid: %s', (input, valid) => {
    expect(ProviderSettingsSchema.safeParse(input).success).toBe(valid);
  });
});
