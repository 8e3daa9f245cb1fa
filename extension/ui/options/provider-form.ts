import {
  AnthropicSettingsSchema,
  OpenAiSettingsSchema,
  type OpenAiApi,
  type ProviderSettings,
} from '../../messaging/provider';
import { DEFAULT_CONTEXT_WINDOW_TOKENS, knownContextWindow } from '../../messaging/context-window';
import type { ConnectionTestResult } from '../../messaging/connection-test';
import {
  ProviderSettingsInputSchema,
  type ProviderSettingsInput,
  type ProviderSettingsView,
} from '../../messaging/provider';

/**
 * The options page's provider form (issue 4): which model the agent talks to. Pure: fields in,
 * `settings/set` params or errors per field out, checked with the same zod schema the worker uses.
 *
 * The API key is write-only. The worker never sends a stored key to a page; an empty key field
 * means "keep the saved key", which the worker honours only for the same kind of provider at the
 * same base URL (a key is never sent to another server than the one it was saved for), so the form
 * says "A key is saved" only in that case.
 */

export type ProviderKind = ProviderSettings['kind'];

export const PROVIDER_KINDS: readonly { readonly kind: ProviderKind; readonly label: string }[] = [
  { kind: 'openai', label: 'OpenAI' },
  { kind: 'anthropic', label: 'Anthropic' },
  { kind: 'openai-compatible', label: 'OpenAI-compatible' },
];

export function isProviderKind(value: string): value is ProviderKind {
  return PROVIDER_KINDS.some((entry) => entry.kind === value);
}

/** Servers that speak OpenAI chat completions, with their usual local or public address. */
export const COMPATIBLE_PRESETS: readonly {
  readonly id: string;
  readonly name: string;
  readonly baseURL: string;
}[] = [
  { id: 'ollama', name: 'Ollama', baseURL: 'http://localhost:11434/v1' },
  { id: 'lm-studio', name: 'LM Studio', baseURL: 'http://localhost:1234/v1' },
  { id: 'openrouter', name: 'OpenRouter', baseURL: 'https://openrouter.ai/api/v1' },
  { id: 'vllm', name: 'vLLM', baseURL: 'http://localhost:8000/v1' },
];

/**
 * The Model field's placeholder: an example that reads as one ("e.g. …", styled as placeholder
 * text), so an empty field never looks filled in (issue 14).
 */
export const MODEL_PLACEHOLDERS: Readonly<Record<ProviderKind, string>> = {
  openai: 'e.g. gpt-4.1-mini',
  anthropic: 'e.g. claude-sonnet-4-5',
  'openai-compatible': 'e.g. llama3.1',
};

/** How the options page shows a Test connection result: the notice's tone and title. */
export function testResultView(result: ConnectionTestResult): {
  readonly tone: 'info' | 'warning' | 'error';
  readonly title: string;
} {
  switch (result.tone) {
    case 'success':
      return { tone: 'info', title: 'Connection works' };
    case 'warning':
      return {
        tone: 'warning',
        title:
          result.cause === 'rate-limited' ? 'Reached, but limited' : 'Connected, but check this',
      };
    case 'error':
      return {
        tone: 'error',
        title: result.cause === 'no-access' ? 'Access not granted' : 'Connection failed',
      };
  }
}

/** OpenAI's APIs, for the form's select (issue 14). */
export const OPENAI_APIS: readonly { readonly api: OpenAiApi; readonly label: string }[] = [
  { api: 'chat', label: 'Chat Completions' },
  { api: 'responses', label: 'Responses' },
];

export function isOpenAiApi(value: string): value is OpenAiApi {
  return OPENAI_APIS.some((entry) => entry.api === value);
}

export interface ProviderFields {
  readonly kind: ProviderKind;
  /** OpenAI only. */
  readonly api: OpenAiApi;
  /** OpenAI-compatible only. */
  readonly name: string;
  readonly baseURL: string;
  readonly model: string;
  /** A new key; empty keeps the saved one (see keyIsKept). */
  readonly apiKey: string;
  /** The model's context window in tokens as typed; empty: the table's figure (issue 14). */
  readonly contextWindow: string;
  /** OpenAI-compatible only: the user says the model accepts images (issue 14). */
  readonly acceptsImages: boolean;
}

export type ProviderField = keyof ProviderFields;
export type ProviderFieldErrors = Partial<Record<ProviderField, string>>;

export const EMPTY_PROVIDER_FIELDS: ProviderFields = {
  kind: 'openai',
  api: 'chat',
  name: '',
  baseURL: '',
  model: '',
  apiKey: '',
  contextWindow: '',
  acceptsImages: false,
};

/** The form as the stored settings fill it (never with a key: pages do not get one). */
export function fieldsFromView(view: ProviderSettingsView | null): ProviderFields {
  if (view === null) return EMPTY_PROVIDER_FIELDS;
  return {
    kind: view.kind,
    api: view.kind === 'openai' ? (view.api ?? 'chat') : 'chat',
    name: view.kind === 'openai-compatible' ? view.name : '',
    baseURL: view.baseURL ?? '',
    model: view.model,
    apiKey: '',
    contextWindow: view.contextWindow === undefined ? '' : String(view.contextWindow),
    acceptsImages: view.kind === 'openai-compatible' && view.acceptsImages === true,
  };
}

/** The preset whose address the form has, if any (for the preset select). */
export function presetOf(fields: ProviderFields): string {
  return COMPATIBLE_PRESETS.find((preset) => preset.baseURL === fields.baseURL.trim())?.id ?? '';
}

/** Fills name and base URL from a preset; an unknown id leaves the fields as they are. */
export function applyPreset(fields: ProviderFields, presetId: string): ProviderFields {
  const preset = COMPATIBLE_PRESETS.find((entry) => entry.id === presetId);
  if (preset === undefined) return fields;
  return { ...fields, kind: 'openai-compatible', name: preset.name, baseURL: preset.baseURL };
}

/**
 * Whether an empty key field keeps the saved key: only for the same kind at the same base URL
 * (the worker's rule, settings-store.ts).
 */
export function keyIsKept(fields: ProviderFields, stored: ProviderSettingsView | null): boolean {
  return (
    stored !== null &&
    stored.hasApiKey &&
    stored.kind === fields.kind &&
    (stored.baseURL ?? '') === fields.baseURL.trim()
  );
}

/** What the form says next to the key field. */
export function keyStatus(
  fields: ProviderFields,
  stored: ProviderSettingsView | null,
): 'saved' | 'saved-for-other-server' | 'none' {
  if (keyIsKept(fields, stored)) return 'saved';
  return stored?.hasApiKey === true ? 'saved-for-other-server' : 'none';
}

export type ProviderFormResult =
  | { readonly ok: true; readonly input: ProviderSettingsInput }
  | { readonly ok: false; readonly errors: ProviderFieldErrors };

function fieldOf(path: readonly PropertyKey[]): ProviderField {
  const [first] = path;
  return first === 'name' ||
    first === 'baseURL' ||
    first === 'model' ||
    first === 'apiKey' ||
    first === 'contextWindow'
    ? first
    : 'kind';
}

/** The message the stored schema gives for a missing key ("Enter an OpenAI API key."). */
function missingKeyMessage(kind: 'openai' | 'anthropic'): string {
  const schema = kind === 'openai' ? OpenAiSettingsSchema : AnthropicSettingsSchema;
  return schema.shape.apiKey.safeParse('').error?.issues[0]?.message ?? 'Enter an API key.';
}

/** The fields as `settings/set` params, or the schema's errors per field. */
export function parseProviderForm(
  fields: ProviderFields,
  stored: ProviderSettingsView | null,
): ProviderFormResult {
  const baseURL = fields.baseURL.trim();
  const apiKey = fields.apiKey.trim();
  const window = fields.contextWindow.trim().replace(/[,_\s]/g, '');
  const common = {
    model: fields.model.trim(),
    // Not a number (NaN) fails the schema with its own message, on this field.
    ...(window !== '' ? { contextWindow: /^\d+$/.test(window) ? Number(window) : Number.NaN } : {}),
    ...(baseURL !== '' ? { baseURL } : {}),
    ...(apiKey !== '' ? { apiKey } : {}),
  };
  const candidate =
    fields.kind === 'openai-compatible'
      ? {
          kind: fields.kind,
          name: fields.name.trim(),
          ...common,
          ...(fields.acceptsImages ? { acceptsImages: true } : {}),
        }
      : fields.kind === 'openai' && fields.api === 'responses'
        ? { kind: fields.kind, api: fields.api, ...common }
        : { kind: fields.kind, ...common };
  const parsed = ProviderSettingsInputSchema.safeParse(candidate);
  const errors: ProviderFieldErrors = {};
  for (const issue of parsed.error?.issues ?? []) {
    const field = fieldOf(issue.path);
    errors[field] ??= issue.message;
  }
  // The input schema lets the key be omitted (keep the saved one); without a key to keep, OpenAI
  // and Anthropic need one.
  if (
    fields.kind !== 'openai-compatible' &&
    apiKey === '' &&
    !keyIsKept(fields, stored) &&
    errors.apiKey === undefined
  ) {
    errors.apiKey = missingKeyMessage(fields.kind);
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, input: parsed.data };
}

/** What the context-window field says under it: the figure used when it is left empty. */
export function contextWindowHint(model: string): string {
  const id = model.trim();
  const known = id === '' ? null : knownContextWindow(id);
  const tokens = (n: number): string => n.toLocaleString('en-US');
  if (known !== null) {
    return `Optional: empty uses ${tokens(known)} tokens, the published window of ${id}. Set it if your server runs the model with less.`;
  }
  return `Optional: empty assumes ${tokens(DEFAULT_CONTEXT_WINDOW_TOKENS)} tokens${id === '' ? '' : ` (Switchyard does not know ${id})`}. The oldest turns of a longer chat are left out.`;
}
