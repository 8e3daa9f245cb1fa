import { z } from 'zod';
import { BUILTIN_TOOL_NAMES, type BuiltinToolName } from '../../../protocol/builtin-tools';
import type { ProviderSettingsInput } from '../../messaging/provider';
import { ProviderSettingsSchema, type ProviderSettings } from '../../messaging/provider';
import type { BuiltinApprovals } from '../tool-router';
import type { KeyValueStorage } from './key-value';

/**
 * The user's settings the worker keeps: the model provider (with its API key, which never leaves
 * the worker), autopilot, and the built-in tools the user allowed "always". Stored values are
 * parsed on load; one that does not parse is dropped with a warning, never trusted.
 */

const SETTINGS_KEY = 'settings.v1';

const StoredSettingsSchema = z.object({
  provider: ProviderSettingsSchema.nullable().catch(null),
  autopilot: z.boolean().catch(false),
  alwaysAllowedBuiltins: z.array(z.enum(BUILTIN_TOOL_NAMES)).catch([]),
});
type StoredSettings = z.infer<typeof StoredSettingsSchema>;

const EMPTY: StoredSettings = { provider: null, autopilot: false, alwaysAllowedBuiltins: [] };

export class SettingsError extends Error {
  override name = 'SettingsError';
}

export class SettingsStore implements BuiltinApprovals {
  private constructor(
    private readonly storage: KeyValueStorage,
    private current: StoredSettings,
  ) {}

  static async open(storage: KeyValueStorage): Promise<SettingsStore> {
    const raw = await storage.get(SETTINGS_KEY);
    const parsed = raw === undefined ? EMPTY : StoredSettingsSchema.safeParse(raw).data;
    if (parsed === undefined) {
      console.warn('[switchyard] stored settings were unreadable and have been reset');
    }
    return new SettingsStore(storage, parsed ?? EMPTY);
  }

  get provider(): ProviderSettings | null {
    return this.current.provider;
  }

  autopilot(): boolean {
    return this.current.autopilot;
  }

  isAlwaysAllowed(name: BuiltinToolName): boolean {
    return this.current.alwaysAllowedBuiltins.includes(name);
  }

  allowAlways(name: BuiltinToolName): void {
    if (this.isAlwaysAllowed(name)) return;
    // Holds for this session at once, even if it cannot be saved.
    this.current = {
      ...this.current,
      alwaysAllowedBuiltins: [...this.current.alwaysAllowedBuiltins, name],
    };
    this.storage.set(SETTINGS_KEY, this.current).catch((error: unknown) => {
      console.error('[switchyard] could not save the "always" choice', error);
    });
  }

  async setAutopilot(on: boolean): Promise<void> {
    await this.save({ ...this.current, autopilot: on });
  }

  /**
   * Saves provider settings from the options page. An omitted key keeps the stored one, but only
   * for the same kind of provider at the same base URL: a key is never sent to another server
   * than the one it was saved for. `forgetApiKey` drops the stored key instead (a local server
   * that needs none).
   */
  async setProvider(
    input: ProviderSettingsInput,
    options: { readonly forgetApiKey?: boolean } = {},
  ): Promise<ProviderSettings> {
    const resolved = this.resolveProvider(input, options);
    await this.save({ ...this.current, provider: resolved });
    return resolved;
  }

  /**
   * The settings `input` would save, without saving them (Test connection on the form as typed):
   * an omitted key is the stored one only for the same kind of provider at the same base URL, so
   * a key is never sent to another server than the one it was saved for.
   */
  resolveProvider(
    input: ProviderSettingsInput,
    options: { readonly forgetApiKey?: boolean } = {},
  ): ProviderSettings {
    const previous = this.current.provider;
    const sameServer =
      previous !== null &&
      previous.kind === input.kind &&
      (previous.baseURL ?? '') === (input.baseURL ?? '');
    const keptKey =
      input.apiKey === undefined && sameServer && options.forgetApiKey !== true
        ? previous.apiKey
        : undefined;
    const parsed = ProviderSettingsSchema.safeParse({ ...input, apiKey: input.apiKey ?? keptKey });
    if (!parsed.success) {
      throw new SettingsError(parsed.error.issues.map((issue) => issue.message).join(' '));
    }
    return parsed.data;
  }

  /** Writes, then applies: a change that could not be saved does not take effect. */
  private async save(next: StoredSettings): Promise<void> {
    await this.storage.set(SETTINGS_KEY, next);
    this.current = next;
  }
}
