import { describe, expect, test } from 'vitest';
import {
  MAX_MODEL_TAIL,
  modelChoices,
  modelInView,
  modelLabelParts,
  modelToSet,
  providerName,
  typedModel,
} from './model-picker';

const openai = { kind: 'openai', model: 'gpt-4.1', hasApiKey: true } as const;
const view = { provider: 'OpenAI', model: 'gpt-4o', defaultModel: 'gpt-4.1' };

test.each([
  [openai, 'OpenAI'],
  [{ kind: 'anthropic', model: 'claude-sonnet-4-5', hasApiKey: true } as const, 'Anthropic'],
  [
    {
      kind: 'openai-compatible',
      name: 'Ollama',
      baseURL: 'http://127.0.0.1:11434/v1',
      model: 'llama3.1',
      hasApiKey: false,
    } as const,
    'Ollama',
  ],
])('providerName %#', (provider, name) => {
  expect(providerName(provider)).toBe(name);
});

describe('modelInView', () => {
  test('the conversation model over the saved one; none without a provider', () => {
    expect(modelInView(null, 'x')).toBeNull();
    expect(modelInView(openai, undefined)).toEqual({
      provider: 'OpenAI',
      model: 'gpt-4.1',
      defaultModel: 'gpt-4.1',
    });
    expect(modelInView(openai, 'gpt-4o')?.model).toBe('gpt-4o');
  });
});

describe('modelChoices', () => {
  const listed = ['gpt-3.5-turbo', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'o3'];
  test.each([
    ['', ['gpt-4o', 'gpt-4.1', 'gpt-3.5-turbo', 'gpt-4.1-mini', 'o3']],
    ['4.1', ['gpt-4.1', 'gpt-4.1-mini']],
    ['MINI', ['gpt-4.1-mini']],
    ['  o3 ', ['o3']],
    ['claude', []],
  ])('search %j', (query, ids) => {
    expect(modelChoices(listed, query, view).map((c) => c.id)).toEqual(ids);
  });

  test('marks the model in use and the default; offers a typed-in model the list lacks', () => {
    const choices = modelChoices([], '', { ...view, model: 'my-finetune' });
    expect(choices).toEqual([
      { id: 'my-finetune', inUse: true, isDefault: false },
      { id: 'gpt-4.1', inUse: false, isDefault: true },
    ]);
  });

  test('at most 50 drawn', () => {
    const many = Array.from({ length: 80 }, (_, i) => `m${i}`);
    expect(modelChoices(many, '', view)).toHaveLength(50);
  });
});

test.each([
  ['', null],
  ['   ', null],
  ['gpt-4o', null],
  ['gpt-4o-2024-08-06', 'gpt-4o-2024-08-06'],
  [' llama3.1:8b ', 'llama3.1:8b'],
  ['x'.repeat(257), null],
])('typedModel %j', (query, expected) => {
  expect(typedModel(query, modelChoices(['gpt-4o'], query, view))).toBe(expected);
});

test('modelToSet: the default goes back to following options', () => {
  expect(modelToSet('gpt-4.1', view)).toBeNull();
  expect(modelToSet('gpt-4o', view)).toBe('gpt-4o');
});

describe('modelLabelParts: the tail a narrow button keeps', () => {
  test.each([
    ['gpt-4.1', '', 'gpt-4.1'],
    ['gpt-4.1-mini', '', 'gpt-4.1-mini'],
    ['claude-sonnet-4-5', 'claude-', 'sonnet-4-5'],
    ['claude-haiku-4-5', 'claude-', 'haiku-4-5'],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-', '4-5-20250929'],
    [
      'accounts/fireworks/models/llama-v3p1-70b-instruct',
      'accounts/fireworks/models/llama-v3p1-',
      '70b-instruct',
    ],
    ['models/gemini-2.5-flash', 'models/gemini-', '2.5-flash'],
    ['qwen2.5-coder:32b', 'qwen2.5-', 'coder:32b'],
    ['averyveryverylongfinetunename', 'averyveryverylongfine', 'unename'.padStart(8, 't')],
  ])('%s', (model, head, tail) => {
    const parts = modelLabelParts(model);
    expect(parts).toEqual({ head, tail });
    expect(parts.head + parts.tail).toBe(model);
    expect(parts.tail.length).toBeLessThanOrEqual(MAX_MODEL_TAIL);
  });
});
