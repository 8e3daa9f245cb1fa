import { describe, expect, test } from 'vitest';
import type { ModelProvider, ProviderEvent } from './provider';
import type { ProviderSettings } from '../../messaging/provider';
import { NO_PROVIDER_MESSAGE, settingsProvider, withConversationModel } from './settings-provider';

const request = {
  system: '',
  messages: [],
  tools: [],
  signal: new AbortController().signal,
};

async function collect(provider: ModelProvider): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of provider.stream(request)) events.push(event);
  return events;
}

function named(model: string): ModelProvider {
  return {
    async *stream() {
      await Promise.resolve();
      yield { type: 'text-delta', text: model };
      yield { type: 'finish', reason: 'stop' };
    },
  };
}

describe('settingsProvider', () => {
  test('without settings, the turn fails with a message that says where to set them', async () => {
    const provider = settingsProvider(
      () => null,
      () => named('never'),
    );
    expect(await collect(provider)).toEqual([{ type: 'error', message: NO_PROVIDER_MESSAGE }]);
  });

  test('follows the saved settings turn by turn and rebuilds only when they change', async () => {
    let settings: ProviderSettings = { kind: 'openai', apiKey: 'k', model: 'one' };
    const built: string[] = [];
    const provider = settingsProvider(
      () => settings,
      (s) => {
        built.push(s.model);
        return named(s.model);
      },
    );
    expect((await collect(provider))[0]).toEqual({ type: 'text-delta', text: 'one' });
    await collect(provider);
    settings = { kind: 'anthropic', apiKey: 'k', model: 'two' };
    expect((await collect(provider))[0]).toEqual({ type: 'text-delta', text: 'two' });
    expect(built).toEqual(['one', 'two']);
  });
});

describe('withConversationModel', () => {
  const saved: ProviderSettings = { kind: 'openai', apiKey: 'sk', model: 'gpt-4.1' };
  test('the saved settings unless the conversation chose another model', () => {
    const settingsFor = withConversationModel();
    expect(settingsFor(null, 'gpt-4o')).toBeNull();
    expect(settingsFor(saved, undefined)).toBe(saved);
    expect(settingsFor(saved, 'gpt-4.1')).toBe(saved);
    expect(settingsFor(saved, 'gpt-4o')).toEqual({ ...saved, model: 'gpt-4o' });
  });

  test('the same object while nothing changed, so the adapter is built once', () => {
    const settingsFor = withConversationModel();
    const first = settingsFor(saved, 'gpt-4o');
    expect(settingsFor(saved, 'gpt-4o')).toBe(first);
    expect(settingsFor(saved, 'gpt-4o-mini')).not.toBe(first);
    expect(settingsFor({ ...saved }, 'gpt-4o-mini')?.model).toBe('gpt-4o-mini');
  });
});
