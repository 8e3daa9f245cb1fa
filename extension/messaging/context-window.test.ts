import { describe, expect, test } from 'vitest';
import {
  DEFAULT_CONTEXT_WINDOW_TOKENS,
  contextWindowFor,
  knownContextWindow,
  outputReserve,
} from './context-window';

// A window too large is the dangerous error (the request is refused, or trimming comes too
// late); too small only trims earlier than needed.
describe('knownContextWindow: the longest matching prefix', () => {
  test.each([
    ['gpt-4.1', 1_047_576],
    ['gpt-4.1-mini', 1_047_576],
    ['gpt-4o', 128_000],
    ['gpt-4o-mini-2024-07-18', 128_000],
    ['gpt-4', 8_192],
    ['gpt-4-0613', 8_192],
    ['gpt-4-32k', 32_768],
    ['gpt-4-turbo-preview', 128_000],
    ['gpt-3.5-turbo-0125', 16_385],
    ['gpt-5', 400_000],
    ['gpt-5-mini', 400_000],
    ['gpt-5-chat-latest', 128_000],
    ['o1', 200_000],
    ['o1-mini', 128_000],
    ['o3-mini', 200_000],
    ['o4-mini', 200_000],
    ['claude-sonnet-4-5', 200_000],
    ['claude-3-5-haiku-20241022', 200_000],
    ['claude-opus-4-1', 200_000],
    ['claude-2.1', 100_000],
    ['Claude-Sonnet-4-5', 200_000],
    ['anthropic/claude-sonnet-4', 200_000],
    ['openai/gpt-4o', 128_000],
    ['llama3.1:8b', 131_072],
    ['qwen2.5-coder:7b', 32_768],
    ['gemini-2.5-pro', 1_048_576],
  ])('%s -> %i', (model, tokens) => {
    expect(knownContextWindow(model)).toBe(tokens);
  });

  test.each(['my-finetune', 'phi3', '', 'gpt', 'claude'])('%j is unknown', (model) => {
    expect(knownContextWindow(model)).toBeNull();
  });
});

describe('contextWindowFor: setting, then table, then the stated default', () => {
  test.each([
    ['gpt-4o', undefined, { tokens: 128_000, source: 'known' }],
    ['gpt-4o', 16_000, { tokens: 16_000, source: 'setting' }],
    ['my-finetune', undefined, { tokens: DEFAULT_CONTEXT_WINDOW_TOKENS, source: 'default' }],
    ['my-finetune', 4_096, { tokens: 4_096, source: 'setting' }],
  ] as const)('%s with setting %s', (model, setting, expected) => {
    expect(contextWindowFor(model, setting)).toEqual(expected);
  });
});

test.each([
  [200_000, 4_096],
  [8_192, 2_048],
  [2_000, 500],
])('outputReserve(%i) = %i', (window, reserve) => {
  expect(outputReserve(window)).toBe(reserve);
});
