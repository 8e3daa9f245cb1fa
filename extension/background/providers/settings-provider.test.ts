import { describe, expect, test } from 'vitest';
import type { ModelProvider, ProviderEvent } from './provider';
import type { ProviderSettings } from '../../messaging/provider';
import { NO_PROVIDER_MESSAGE, settingsProvider } from './settings-provider';

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
