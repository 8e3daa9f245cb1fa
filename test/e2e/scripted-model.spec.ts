import type { Browser } from 'wxt/browser';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../extension/messaging/conversation';
import { createAiSdkProvider } from '../../extension/background/providers/ai-sdk-provider';
import type { ProviderEvent, ProviderTool } from '../../extension/background/providers/provider';
import { startScriptedModel, type ModelApi, type ScriptedModel } from './support/scripted-model';
import { useSwitchyard } from './support/session';

// The harness's model: checked against the extension's real provider adapter (the AI SDK over
// fetch, in Node), and reached from the extension's service worker in Chromium, so the browser
// journeys can rely on it.

declare const chrome: typeof Browser;

const READ_FILE: ProviderTool = {
  name: 'filesystem__read_text_file',
  description: 'Reads a file.',
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
  },
};

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function turn(
  api: ModelApi,
  scripted: ScriptedModel,
  messages: readonly ChatMessage[],
): Promise<ProviderEvent[]> {
  const provider = createAiSdkProvider(scripted.settings(api), { maxRetries: 0 });
  const events: ProviderEvent[] = [];
  for await (const event of provider.stream({
    system: 'Be brief.',
    messages,
    tools: [READ_FILE],
    signal: new AbortController().signal,
  })) {
    events.push(event);
  }
  return events;
}

function textOf(events: readonly ProviderEvent[]): string {
  return events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
}

describe.each<ModelApi>(['openai', 'openai-responses', 'anthropic'])(
  'the scripted model over %s',
  (api) => {
    it('calls a tool, then answers quoting the result it was sent', async () => {
      model = await startScriptedModel([
        { kind: 'tool-call', name: READ_FILE.name, arguments: { path: '/w/notes.txt' } },
        {
          kind: 'text',
          text: (seen) => `The file says: ${seen.toolResults.at(-1)?.content ?? ''}`,
        },
      ]);
      const user: ChatMessage = { role: 'user', content: 'What is in notes.txt?' };

      const first = await turn(api, model, [user]);
      const call = first.find((event) => event.type === 'tool-call');
      expect(call).toMatchObject({ name: READ_FILE.name, arguments: { path: '/w/notes.txt' } });
      const callId = call?.type === 'tool-call' ? call.id : '';
      const second = await turn(api, model, [
        user,
        {
          role: 'assistant',
          content: [
            {
              type: 'tool-call',
              id: callId,
              name: READ_FILE.name,
              arguments: { path: '/w/notes.txt' },
            },
          ],
        },
        {
          role: 'tool',
          results: [
            {
              type: 'tool-result',
              callId,
              name: READ_FILE.name,
              status: 'ok',
              content: 'hello from the workspace',
            },
          ],
        },
      ]);

      expect(textOf(second)).toBe('The file says: hello from the workspace');
      expect(second.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
      expect(model.requests.map((request) => request.tools)).toEqual([
        [READ_FILE.name],
        [READ_FILE.name],
      ]);
      expect(model.requests[0]?.lastUserText).toBe('What is in notes.txt?');
      expect(model.requests.map((request) => request.api)).toEqual([api, api]);
      // The Responses API is used statelessly: nothing kept on OpenAI's side.
      if (api === 'openai-responses')
        expect(model.requests[0]?.raw.body).toMatchObject({ store: false });
      expect(model.requests[1]?.toolResults).toEqual([
        { callId, content: 'hello from the workspace', isError: false },
      ]);
    });

    it('records a denial as the model receives it', async () => {
      model = await startScriptedModel([{ kind: 'text', text: 'Understood.' }]);

      await turn(api, model, [
        { role: 'user', content: 'Read it.' },
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', id: 'c1', name: READ_FILE.name, arguments: { path: '/x' } },
          ],
        },
        {
          role: 'tool',
          results: [
            {
              type: 'tool-result',
              callId: 'c1',
              name: READ_FILE.name,
              status: 'denied',
              content: 'The user denied this call.',
            },
          ],
        },
      ]);

      expect(model.requests[0]?.toolResults).toEqual([
        { callId: 'c1', content: 'The user denied this call.', isError: api === 'anthropic' },
      ]);
    });

    it('fails a request it has no turn for, with a message that says so', async () => {
      model = await startScriptedModel([]);

      const events = await turn(api, model, [{ role: 'user', content: 'Hello?' }]);

      expect(events).toHaveLength(1);
      expect(events[0]?.type === 'error' && events[0].message).toContain('no turn left');
    });
  },
);

describe('the scripted model seen from the extension', () => {
  // No host: only the worker's origin matters here.
  const session = useSwitchyard({ servers: () => ({}), installed: false });

  it.each<ModelApi>(['openai', 'anthropic'])(
    "is reachable from the service worker's origin (%s, CORS preflight included)",
    async (api) => {
      model = await startScriptedModel([{ kind: 'text', text: 'pong' }]);
      const url = `${model.baseURL}/${api === 'openai' ? 'chat/completions' : 'messages'}`;

      const body = await session.browser.worker.evaluate(
        async ({ url: target, anthropic }) => {
          const response = await fetch(target, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              authorization: 'Bearer sk-e2e',
              ...(anthropic ? { 'anthropic-dangerous-direct-browser-access': 'true' } : {}),
            },
            body: JSON.stringify({
              model: 'scripted-model',
              stream: true,
              messages: [{ role: 'user', content: 'ping' }],
              ...(anthropic ? { max_tokens: 16 } : {}),
            }),
          });
          return `${response.status} ${chrome.runtime.id} ${await response.text()}`;
        },
        { url, anthropic: api === 'anthropic' },
      );

      expect(body).toMatch(new RegExp(`^200 ${session.browser.extensionId} `));
      expect(body).toContain('pong');
      expect(model.requests).toHaveLength(1);
      expect(model.requests[0]?.raw.headers.origin).toBe(session.browser.origin);
    },
  );
});
