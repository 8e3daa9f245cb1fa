import { expect, test } from 'vitest';
import { providerProblem } from './provider-status';

test.each([
  ['none', null, /No model provider/],
  [
    'OpenAI without a key',
    { kind: 'openai', model: 'm', hasApiKey: false } as const,
    /OpenAI API key/,
  ],
  [
    'Anthropic without a key',
    { kind: 'anthropic', model: 'm', hasApiKey: false } as const,
    /Anthropic API key/,
  ],
  ['OpenAI with a key', { kind: 'openai', model: 'm', hasApiKey: true } as const, null],
  [
    'a local server needs no key',
    {
      kind: 'openai-compatible',
      name: 'Ollama',
      baseURL: 'http://localhost:11434/v1',
      model: 'm',
      hasApiKey: false,
    } as const,
    null,
  ],
])('%s', (_name, provider, expected) => {
  const problem = providerProblem(provider);
  if (expected === null) expect(problem).toBeNull();
  else expect(problem).toMatch(expected);
});
