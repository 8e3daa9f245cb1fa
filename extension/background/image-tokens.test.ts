import { expect, test } from 'vitest';
import type { ProviderSettings } from '../messaging/provider';
import { imageTokenRule, imageTokens, type ImageTokenRule } from './image-tokens';

/*
 * The per-provider image estimate (issue 14), checked against the providers' own worked
 * examples. Dangerous direction: an under-count (the meter says a request fits when the provider
 * will refuse it); an image that is not sent must cost nothing here (its stand-in is text).
 */

const DATA = 'AAAA';

test.each<[string, ImageTokenRule, number | undefined, number | undefined, number]>([
  // Anthropic's table: 200x200 ≈ 54, 1000x1000 ≈ 1334, 1092x1092 ≈ 1590.
  ['Anthropic 200x200', 'anthropic', 200, 200, 54],
  ['Anthropic 1000x1000', 'anthropic', 1000, 1000, 1334],
  ['Anthropic 1092x1092', 'anthropic', 1092, 1092, 1590],
  ['Anthropic 4000x3000 scaled down to the cap', 'anthropic', 4000, 3000, 1598],
  ['Anthropic, size unknown', 'anthropic', undefined, undefined, 1600],
  // OpenAI's examples: 1024x1024 high = 765; 2048x4096 high = 1105; 4096x8192 = 1105.
  ['OpenAI 1024x1024', 'openai', 1024, 1024, 765],
  ['OpenAI 2048x4096', 'openai', 2048, 4096, 1105],
  ['OpenAI 4096x8192', 'openai', 4096, 8192, 1105],
  ['OpenAI 1x1 (one tile)', 'openai', 1, 1, 255],
  ['OpenAI, size unknown', 'openai', undefined, undefined, 765],
  ['not sent', 'none', 1024, 1024, 0],
])('%s', (_name, rule, width, height, tokens) => {
  expect(
    imageTokens(rule, {
      data: DATA,
      ...(width === undefined ? {} : { width }),
      ...(height === undefined ? {} : { height }),
    }),
  ).toBe(tokens);
});

test('an image whose pixels are no longer kept costs nothing (it is not sent)', () => {
  expect(imageTokens('anthropic', { width: 1000, height: 1000 })).toBe(0);
});

const base = { model: 'm', apiKey: 'k' } as const;
test.each<[string, ProviderSettings | null, ImageTokenRule]>([
  ['Anthropic', { ...base, kind: 'anthropic' }, 'anthropic'],
  ['OpenAI', { ...base, kind: 'openai' }, 'openai'],
  [
    'a compatible server that takes images',
    {
      ...base,
      kind: 'openai-compatible',
      name: 'x',
      baseURL: 'http://l',
      acceptsImages: true,
    },
    'openai',
  ],
  [
    'a text-only compatible server',
    { ...base, kind: 'openai-compatible', name: 'x', baseURL: 'http://l' },
    'none',
  ],
  ['no provider', null, 'none'],
])('%s: %s', (_name, settings, rule) => {
  expect(imageTokenRule(settings)).toBe(rule);
});
