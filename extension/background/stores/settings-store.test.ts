import { afterEach, describe, expect, test, vi } from 'vitest';
import type { ProviderSettingsInput } from '../../messaging/provider';
import type { ProviderSettings } from '../../messaging/provider';
import { memoryStorage, type KeyValueStorage } from './key-value';
import { SettingsError, SettingsStore } from './settings-store';

/*
 * The settings the worker keeps, over an in-memory storage. Dangerous direction: a stored API key
 * sent to a server it was not saved for (another kind of provider, another base URL). Dropping a
 * key the user must then re-enter is only an annoyance.
 */

// The stored key is part of the format: renaming it silently loses every user's settings.
const SETTINGS_KEY = 'settings.v1';
const KEY = 'sk-saved-key-0123456789';

afterEach(() => {
  vi.restoreAllMocks();
});

async function storeWith(provider: ProviderSettingsInput | null): Promise<SettingsStore> {
  const store = await SettingsStore.open(memoryStorage());
  if (provider !== null) await store.setProvider(provider);
  return store;
}

describe('SettingsStore', () => {
  test('an empty storage opens with the defaults', async () => {
    const store = await SettingsStore.open(memoryStorage());
    expect(store.provider).toBeNull();
    expect(store.autopilot()).toBe(false);
    expect(store.isAlwaysAllowed('browser_read_page')).toBe(false);
  });

  test('what is saved is what a later open reads back', async () => {
    const storage = memoryStorage();
    const store = await SettingsStore.open(storage);
    const saved = await store.setProvider({
      kind: 'openai-compatible',
      name: 'Ollama',
      baseURL: 'http://localhost:11434/v1',
      model: 'llama3.2',
    });
    await store.setAutopilot(true);
    store.allowAlways('browser_list_tabs');

    const reopened = await SettingsStore.open(storage);
    expect(reopened.provider).toEqual(saved);
    expect(reopened.autopilot()).toBe(true);
    expect(reopened.isAlwaysAllowed('browser_list_tabs')).toBe(true);
    expect(reopened.isAlwaysAllowed('browser_read_page')).toBe(false);
  });

  test('autopilot persists both ways', async () => {
    const storage = memoryStorage();
    const store = await SettingsStore.open(storage);
    await store.setAutopilot(true);
    expect((await SettingsStore.open(storage)).autopilot()).toBe(true);
    await store.setAutopilot(false);
    expect((await SettingsStore.open(storage)).autopilot()).toBe(false);
  });

  test('"always" persists, once per tool', async () => {
    const storage = memoryStorage();
    const writes = vi.spyOn(storage, 'set');
    const store = await SettingsStore.open(storage);
    store.allowAlways('browser_read_page');
    store.allowAlways('browser_read_page');
    store.allowAlways('browser_get_selection');
    expect(writes).toHaveBeenCalledTimes(2);
    const reopened = await SettingsStore.open(storage);
    expect(reopened.isAlwaysAllowed('browser_read_page')).toBe(true);
    expect(reopened.isAlwaysAllowed('browser_get_selection')).toBe(true);
    expect(reopened.isAlwaysAllowed('browser_get_tab')).toBe(false);
  });

  test('"always" holds for this session even when storage fails, and nothing is left unhandled', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failing: KeyValueStorage = {
      ...memoryStorage(),
      set: () => Promise.reject(new Error('QUOTA_BYTES quota exceeded')),
    };
    const store = await SettingsStore.open(failing);
    store.allowAlways('browser_read_page');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.isAlwaysAllowed('browser_read_page')).toBe(true);
    expect(error).toHaveBeenCalledOnce();
  });

  describe('a stored value that does not parse is reset, never trusted', () => {
    test.each<[string, unknown]>([
      ['a string', 'garbage'],
      ['a number', 42],
      ['null', null],
      ['an array', [{ provider: null }]],
    ])('%s: defaults, with a warning', async (_label, raw) => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      const store = await SettingsStore.open(memoryStorage({ [SETTINGS_KEY]: raw }));
      expect(store.provider).toBeNull();
      expect(store.autopilot()).toBe(false);
      expect(store.isAlwaysAllowed('browser_read_page')).toBe(false);
      expect(warn).toHaveBeenCalledOnce();
    });

    test('each bad field falls back on its own; the good ones are kept', async () => {
      const provider: ProviderSettings = { kind: 'openai', apiKey: KEY, model: 'gpt-4o-mini' };
      const store = await SettingsStore.open(
        memoryStorage({
          [SETTINGS_KEY]: { provider, autopilot: 'yes', alwaysAllowedBuiltins: ['rm_rf_home'] },
        }),
      );
      expect(store.provider).toEqual(provider);
      expect(store.autopilot()).toBe(false);
      expect(store.isAlwaysAllowed('browser_read_page')).toBe(false);
    });

    test('a provider that does not parse (a key-less OpenAI) is dropped', async () => {
      const store = await SettingsStore.open(
        memoryStorage({
          [SETTINGS_KEY]: {
            provider: { kind: 'openai', model: 'gpt-4o-mini' },
            autopilot: true,
            alwaysAllowedBuiltins: ['browser_list_tabs'],
          },
        }),
      );
      expect(store.provider).toBeNull();
      expect(store.autopilot()).toBe(true);
      expect(store.isAlwaysAllowed('browser_list_tabs')).toBe(true);
    });
  });

  describe('setProvider', () => {
    // What the options page shows under the form: a sentence that says what to fix.
    test.each<[string, ProviderSettingsInput, string]>([
      ['no key for OpenAI', { kind: 'openai', model: 'gpt-4o' }, 'Enter an OpenAI API key.'],
      [
        'no key for Anthropic',
        { kind: 'anthropic', model: 'claude-sonnet-4-5' },
        'Enter an Anthropic API key.',
      ],
      [
        'a blank key',
        { kind: 'openai', apiKey: '   ', model: 'gpt-4o' },
        'Enter an OpenAI API key.',
      ],
      ['a blank model', { kind: 'openai', apiKey: KEY, model: ' ' }, 'Choose a model.'],
      [
        'a base URL that is not http(s)',
        { kind: 'anthropic', apiKey: KEY, model: 'claude', baseURL: 'file:///etc/passwd' },
        'The base URL must be an http(s) URL.',
      ],
      [
        'an unnamed compatible server',
        { kind: 'openai-compatible', name: '', baseURL: 'http://localhost:1234/v1', model: 'm' },
        'Name this provider.',
      ],
    ])('%s: %s', async (_label, input, message) => {
      const store = await storeWith(null);
      const attempt = store.setProvider(input);
      await expect(attempt).rejects.toBeInstanceOf(SettingsError);
      await expect(attempt).rejects.toThrow(message);
      expect(store.provider).toBeNull();
    });

    test('every problem is listed, each as a sentence', async () => {
      const store = await storeWith(null);
      await expect(
        store.setProvider({ kind: 'openai-compatible', name: ' ', baseURL: 'ftp://x', model: '' }),
      ).rejects.toThrow('Name this provider. The base URL must be an http(s) URL. Choose a model.');
    });

    test('a refused change keeps the saved provider, in memory and in storage', async () => {
      const storage = memoryStorage();
      const store = await SettingsStore.open(storage);
      const saved = await store.setProvider({ kind: 'openai', apiKey: KEY, model: 'gpt-4o' });
      await expect(store.setProvider({ kind: 'anthropic', model: 'claude' })).rejects.toThrow(
        SettingsError,
      );
      expect(store.provider).toEqual(saved);
      expect((await SettingsStore.open(storage)).provider).toEqual(saved);
    });

    // Dangerous direction: a `kept` row that should be `dropped` sends the key to another server.
    test.each<{
      case: string;
      saved: ProviderSettingsInput;
      next: ProviderSettingsInput;
      expected: 'kept' | 'dropped' | RegExp;
    }>([
      {
        case: 'same kind, default URL',
        saved: { kind: 'openai', apiKey: KEY, model: 'gpt-4o' },
        next: { kind: 'openai', model: 'gpt-4o-mini' },
        expected: 'kept',
      },
      {
        case: 'same kind, same custom URL',
        saved: { kind: 'anthropic', apiKey: KEY, model: 'c', baseURL: 'https://gw.example/v1' },
        next: { kind: 'anthropic', model: 'c2', baseURL: 'https://gw.example/v1' },
        expected: 'kept',
      },
      {
        case: 'compatible server, same URL, renamed',
        saved: {
          kind: 'openai-compatible',
          name: 'OpenRouter',
          baseURL: 'https://openrouter.ai/api/v1',
          apiKey: KEY,
          model: 'a',
        },
        next: {
          kind: 'openai-compatible',
          name: 'Router',
          baseURL: 'https://openrouter.ai/api/v1',
          model: 'b',
        },
        expected: 'kept',
      },
      {
        case: 'OpenAI key, now Anthropic',
        saved: { kind: 'openai', apiKey: KEY, model: 'gpt-4o' },
        next: { kind: 'anthropic', model: 'claude' },
        expected: /^Enter an Anthropic API key\.$/,
      },
      {
        case: 'Anthropic key, now OpenAI',
        saved: { kind: 'anthropic', apiKey: KEY, model: 'claude' },
        next: { kind: 'openai', model: 'gpt-4o' },
        expected: /^Enter an OpenAI API key\.$/,
      },
      {
        case: 'OpenAI key, now a compatible server',
        saved: { kind: 'openai', apiKey: KEY, model: 'gpt-4o' },
        next: {
          kind: 'openai-compatible',
          name: 'Ollama',
          baseURL: 'http://localhost:11434/v1',
          model: 'llama3.2',
        },
        expected: 'dropped',
      },
      {
        case: 'OpenAI key, same kind but a custom URL',
        saved: { kind: 'openai', apiKey: KEY, model: 'gpt-4o' },
        next: { kind: 'openai', model: 'gpt-4o', baseURL: 'https://proxy.example/v1' },
        expected: /^Enter an OpenAI API key\.$/,
      },
      {
        case: 'compatible server, URL changed',
        saved: {
          kind: 'openai-compatible',
          name: 'LM Studio',
          baseURL: 'http://localhost:1234/v1',
          apiKey: KEY,
          model: 'm',
        },
        next: {
          kind: 'openai-compatible',
          name: 'LM Studio',
          baseURL: 'https://attacker.example/v1',
          model: 'm',
        },
        expected: 'dropped',
      },
    ])('omitted key, $case: $expected', async ({ saved, next, expected }) => {
      const store = await storeWith(saved);
      if (expected instanceof RegExp) {
        await expect(store.setProvider(next)).rejects.toThrow(expected);
        expect(store.provider?.apiKey).toBe(KEY);
        expect(store.provider?.kind).toBe(saved.kind);
        return;
      }
      const result = await store.setProvider(next);
      expect(result.apiKey).toBe(expected === 'kept' ? KEY : undefined);
      expect(store.provider).toEqual(result);
    });

    test('a key that is sent replaces the stored one, whatever the server', async () => {
      const store = await storeWith({ kind: 'openai', apiKey: KEY, model: 'gpt-4o' });
      const result = await store.setProvider({
        kind: 'anthropic',
        apiKey: 'sk-ant-new',
        model: 'claude',
      });
      expect(result.apiKey).toBe('sk-ant-new');
    });
  });
});

describe('SettingsStore: forgetting a key and failed writes', () => {
  test('forgetApiKey drops the stored key of a local server at the same URL', async () => {
    const local = {
      kind: 'openai-compatible',
      name: 'Ollama',
      baseURL: 'http://localhost:11434/v1',
      model: 'llama3',
    } as const;
    const store = await storeWith({ ...local, apiKey: KEY });
    const kept = await store.setProvider(local);
    expect(kept.apiKey).toBe(KEY);
    const dropped = await store.setProvider(local, { forgetApiKey: true });
    expect(dropped.apiKey).toBeUndefined();
  });

  test('a change that cannot be saved does not take effect', async () => {
    const storage: KeyValueStorage = {
      ...memoryStorage(),
      set: () => Promise.reject(new Error('quota')),
    };
    const store = await SettingsStore.open(storage);
    await expect(store.setAutopilot(true)).rejects.toThrow('quota');
    expect(store.autopilot()).toBe(false);
    await expect(store.setProvider({ kind: 'openai', apiKey: KEY, model: 'gpt' })).rejects.toThrow(
      'quota',
    );
    expect(store.provider).toBeNull();
  });
});
