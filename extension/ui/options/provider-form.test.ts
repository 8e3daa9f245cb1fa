import { describe, expect, it, test } from 'vitest';
import type { ProviderSettingsView } from '../../messaging/provider';
import {
  applyPreset,
  contextWindowHint,
  EMPTY_PROVIDER_FIELDS,
  fieldsFromView,
  keyStatus,
  MODEL_PLACEHOLDERS,
  parseProviderForm,
  PROVIDER_KINDS,
  testResultView,
  presetOf,
  type ProviderField,
  type ProviderFields,
} from './provider-form';

type ProviderFieldErrorPatterns = Partial<Record<ProviderField, RegExp>>;
const FIELDS: readonly ProviderField[] = ['kind', 'name', 'baseURL', 'model', 'apiKey'];

// The dangerous direction is a key going where the user did not mean it to: a saved key silently
// reused for another provider or another server, or a key shown back on the page. A form that
// asks for the key again is only a nuisance.

function fields(overrides: Partial<ProviderFields>): ProviderFields {
  return { ...EMPTY_PROVIDER_FIELDS, ...overrides };
}

const storedOpenAi: ProviderSettingsView = { kind: 'openai', model: 'gpt-4.1', hasApiKey: true };
const storedOllama: ProviderSettingsView = {
  kind: 'openai-compatible',
  name: 'Ollama',
  baseURL: 'http://localhost:11434/v1',
  model: 'llama3.1',
  hasApiKey: false,
};

describe('filling the form', () => {
  it('never has a key in it', () => {
    expect(fieldsFromView(storedOpenAi)).toEqual(fields({ model: 'gpt-4.1' }));
  });

  it('fills name and base URL of a compatible provider', () => {
    expect(fieldsFromView(storedOllama)).toEqual(
      fields({
        kind: 'openai-compatible',
        name: 'Ollama',
        baseURL: 'http://localhost:11434/v1',
        model: 'llama3.1',
      }),
    );
    expect(presetOf(fieldsFromView(storedOllama))).toBe('ollama');
  });

  test.each([
    ['ollama', 'Ollama', 'http://localhost:11434/v1'],
    ['lm-studio', 'LM Studio', 'http://localhost:1234/v1'],
    ['openrouter', 'OpenRouter', 'https://openrouter.ai/api/v1'],
    ['vllm', 'vLLM', 'http://localhost:8000/v1'],
  ])('preset %s', (id, name, baseURL) => {
    const filled = applyPreset(fields({ model: 'm' }), id);
    expect(filled).toEqual(fields({ kind: 'openai-compatible', name, baseURL, model: 'm' }));
    expect(presetOf(filled)).toBe(id);
  });

  it('ignores an unknown preset', () => {
    expect(applyPreset(fields({ model: 'm' }), '')).toEqual(fields({ model: 'm' }));
  });
});

describe('the saved key', () => {
  test.each<[string, ProviderFields, ProviderSettingsView | null, string]>([
    ['same provider, same server', fields({ kind: 'openai' }), storedOpenAi, 'saved'],
    ['no saved settings', fields({}), null, 'none'],
    ['another provider', fields({ kind: 'anthropic' }), storedOpenAi, 'saved-for-other-server'],
    [
      'another base URL',
      fields({ kind: 'openai', baseURL: 'https://proxy.example/v1' }),
      storedOpenAi,
      'saved-for-other-server',
    ],
    ['saved settings without a key', fieldsFromView(storedOllama), storedOllama, 'none'],
  ])('%s', (_, form, stored, status) => {
    expect(keyStatus(form, stored)).toBe(status);
  });
});

describe('parsing', () => {
  it('omits an empty key so the worker keeps the saved one', () => {
    expect(parseProviderForm(fields({ model: ' gpt-4.1 ' }), storedOpenAi)).toEqual({
      ok: true,
      input: { kind: 'openai', model: 'gpt-4.1' },
    });
  });

  it('sends a new key, trimmed', () => {
    expect(parseProviderForm(fields({ model: 'm', apiKey: ' sk-1 ' }), null)).toEqual({
      ok: true,
      input: { kind: 'openai', model: 'm', apiKey: 'sk-1' },
    });
  });

  test.each<[string, ProviderFields, ProviderSettingsView | null, ProviderFieldErrorPatterns]>([
    ['OpenAI without any key', fields({ model: 'm' }), null, { apiKey: /OpenAI API key/ }],
    [
      'Anthropic where only an OpenAI key is saved',
      fields({ kind: 'anthropic', model: 'm' }),
      storedOpenAi,
      { apiKey: /Anthropic API key/ },
    ],
    [
      'the saved key for another base URL',
      fields({ model: 'm', baseURL: 'https://proxy.example/v1' }),
      storedOpenAi,
      { apiKey: /OpenAI API key/ },
    ],
    ['no model', fields({ apiKey: 'k' }), null, { model: /Choose a model/ }],
    [
      'a base URL that is not http(s)',
      fields({ model: 'm', apiKey: 'k', baseURL: 'ftp://x' }),
      null,
      { baseURL: /http\(s\) URL/ },
    ],
    [
      'a compatible provider without name and URL',
      fields({ kind: 'openai-compatible', model: 'm' }),
      null,
      { name: /Name this provider/, baseURL: /http\(s\) URL/ },
    ],
  ])('refuses %s', (_, form, stored, expected) => {
    const result = parseProviderForm(form, stored);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(Object.keys(expected).sort());
    for (const field of FIELDS) {
      const message = expected[field];
      if (message !== undefined) expect(result.errors[field]).toMatch(message);
    }
  });

  it('needs no key for a local compatible server', () => {
    expect(parseProviderForm(applyPreset(fields({ model: 'llama3.1' }), 'ollama'), null)).toEqual({
      ok: true,
      input: {
        kind: 'openai-compatible',
        name: 'Ollama',
        baseURL: 'http://localhost:11434/v1',
        model: 'llama3.1',
      },
    });
  });
});

describe('the Model field and the Test connection result', () => {
  // An example must not read as a value already filled in (issue 14).
  test.each(PROVIDER_KINDS.map((entry) => entry.kind))(
    '%s: the placeholder says it is an example',
    (kind) => {
      expect(MODEL_PLACEHOLDERS[kind]).toMatch(/^e\.g\. \S+$/);
    },
  );

  test.each([
    [{ cause: 'ok', tone: 'success' }, 'info', 'Connection works'],
    [{ cause: 'model-not-listed', tone: 'warning' }, 'warning', 'Connected, but check this'],
    [{ cause: 'rate-limited', tone: 'warning' }, 'warning', 'Reached, but limited'],
    [{ cause: 'no-access', tone: 'error' }, 'error', 'Access not granted'],
    [{ cause: 'key-rejected', tone: 'error' }, 'error', 'Connection failed'],
    [{ cause: 'unreachable', tone: 'error' }, 'error', 'Connection failed'],
  ] as const)('%o is shown as %s, "%s"', (result, tone, title) => {
    expect(testResultView({ ...result, message: 'm' })).toEqual({ tone, title });
  });
});

describe("OpenAI's API choice (issue 14)", () => {
  test('settings saved before the choice read as Chat Completions, Responses as saved', () => {
    expect(fieldsFromView(storedOpenAi).api).toBe('chat');
    expect(fieldsFromView({ ...storedOpenAi, api: 'responses' }).api).toBe('responses');
  });

  test.each([
    ['chat', { kind: 'openai', apiKey: 'sk-1', model: 'gpt-4.1' }],
    ['responses', { kind: 'openai', api: 'responses', apiKey: 'sk-1', model: 'gpt-4.1' }],
  ] as const)('%s is sent as chosen (Chat Completions as before: no field)', (api, input) => {
    expect(parseProviderForm(fields({ api, apiKey: 'sk-1', model: 'gpt-4.1' }), null)).toEqual({
      ok: true,
      input,
    });
  });

  test('another kind never carries it', () => {
    const parsed = parseProviderForm(
      fields({ kind: 'anthropic', api: 'responses', apiKey: 'k', model: 'claude-sonnet-4-5' }),
      null,
    );
    expect(parsed).toEqual({
      ok: true,
      input: { kind: 'anthropic', apiKey: 'k', model: 'claude-sonnet-4-5' },
    });
  });
});

describe('the context window field (issue 14)', () => {
  // Dangerous direction: a typo saved as a window the model does not have (too large: the
  // provider refuses long chats; too small: turns are left out for nothing).
  test.each([
    ['', undefined],
    ['  ', undefined],
    ['16000', 16_000],
    ['16,000', 16_000],
    [' 128 000 ', 128_000],
  ])('%j saves %s', (typed, expected) => {
    const result = parseProviderForm(
      fields({ model: 'm', apiKey: 'sk', contextWindow: typed }),
      null,
    );
    expect(result.ok && result.input.contextWindow).toBe(expected ?? undefined);
  });

  test.each([
    ['16k', /whole number/],
    ['1.5', /whole number/],
    ['-5', /whole number/],
    ['100', /at least 1024/],
    ['99999999999', /at most 10000000/],
  ])('%j is refused on its own field', (typed, message) => {
    const result = parseProviderForm(
      fields({ model: 'm', apiKey: 'sk', contextWindow: typed }),
      null,
    );
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.contextWindow).toMatch(message);
  });

  test('a saved window fills the form again', () => {
    expect(fieldsFromView({ ...storedOpenAi, contextWindow: 64_000 }).contextWindow).toBe('64000');
    expect(fieldsFromView(storedOpenAi).contextWindow).toBe('');
  });

  test.each([
    ['gpt-4o', /empty uses 128,000 tokens, the published window of gpt-4o/],
    ['my-finetune', /empty assumes 32,768 tokens \(Switchyard does not know my-finetune\)/],
    ['', /empty assumes 32,768 tokens\./],
  ])('hint for %j', (model, hint) => {
    expect(contextWindowHint(model)).toMatch(hint);
  });
});

describe('"this model accepts images" (issue 14)', () => {
  it('is off unless the user ticks it, and saved only for an OpenAI-compatible server', () => {
    expect(fieldsFromView(storedOllama).acceptsImages).toBe(false);
    expect(fieldsFromView({ ...storedOllama, acceptsImages: true }).acceptsImages).toBe(true);
    const ticked = fields({ ...fieldsFromView(storedOllama), acceptsImages: true });
    expect(parseProviderForm(ticked, storedOllama)).toMatchObject({
      ok: true,
      input: { kind: 'openai-compatible', acceptsImages: true },
    });
    const untouched = parseProviderForm(fieldsFromView(storedOllama), storedOllama);
    expect(untouched.ok && 'acceptsImages' in untouched.input).toBe(false);
    // OpenAI takes images anyway; the box does not exist there.
    const openAi = parseProviderForm(
      fields({ model: 'gpt-4.1', acceptsImages: true }),
      storedOpenAi,
    );
    expect(openAi.ok && 'acceptsImages' in openAi.input).toBe(false);
  });
});
