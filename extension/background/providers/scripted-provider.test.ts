import { describe, expect, it } from 'vitest';
import type { ProviderEvent, ProviderRequest } from './provider';
import { ScriptedProvider, textTurn } from './scripted-provider';

/*
 * The scripted provider stands in for the model in every loop test. Dangerous direction: a script
 * that silently runs out or ignores a failed expectation lets a loop test pass that should fail.
 */

function request(signal = new AbortController().signal): ProviderRequest {
  return { system: 's', messages: [{ role: 'user', content: 'hi' }], tools: [], signal };
}

async function collect(stream: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('ScriptedProvider', () => {
  it('plays its turns in order and records what it was sent', async () => {
    const provider = new ScriptedProvider([textTurn('one'), textTurn('two')]);
    expect(await collect(provider.stream(request()))).toContainEqual({
      type: 'text-delta',
      text: 'one',
    });
    expect(await collect(provider.stream(request()))).toContainEqual({
      type: 'text-delta',
      text: 'two',
    });
    expect(provider.requests).toHaveLength(2);
    expect(provider.remaining).toBe(0);
  });

  it('fails loudly when the script runs out', async () => {
    const provider = new ScriptedProvider([]);
    await expect(collect(provider.stream(request()))).rejects.toThrow(/no turn left/);
  });

  it('fails the turn when its expectation about the request fails', async () => {
    const provider = new ScriptedProvider([
      textTurn('x', (sent) => {
        if (sent.system !== 'other') throw new Error('unexpected system prompt');
      }),
    ]);
    await expect(collect(provider.stream(request()))).rejects.toThrow('unexpected system prompt');
  });

  it('a hang ends with an AbortError when the request is aborted', async () => {
    const controller = new AbortController();
    const provider = new ScriptedProvider([{ steps: [{ type: 'hang' }] }]);
    const pending = collect(provider.stream(request(controller.signal)));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
