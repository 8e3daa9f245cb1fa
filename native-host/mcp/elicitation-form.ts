import { z } from 'zod';
import type { ElicitationField } from '../../protocol/elicitation';
import { isVerbatim, safeText } from '../../protocol/untrusted/gate';

/**
 * Reads a server's `elicitation/create` (issue 12) into what the user is shown: the fields of a
 * form, from the restricted JSON Schema MCP allows (a flat object of strings, numbers, booleans
 * and enums), or the URL of a page to open. Anything outside that subset, a value the gate would
 * alter, or a link that is not http(s) refuses the request: the server is told why, and the user
 * is never shown a form that cannot be answered as asked.
 */

export const MAX_ELICITATION_FIELDS = 64;
const LABEL_CHARS = 1_000;
const MESSAGE_CHARS = 4_000;

const Text = z.string().max(65_536);
const Common = { title: Text.optional(), description: Text.optional() };

const RawPropertySchema = z.union([
  z.object({
    type: z.literal('string'),
    ...Common,
    enum: z.array(Text).min(1).max(256),
    enumNames: z.array(Text).optional(),
    default: Text.optional(),
  }),
  z.object({
    type: z.literal('string'),
    ...Common,
    oneOf: z
      .array(z.object({ const: Text, title: Text }))
      .min(1)
      .max(256),
    default: Text.optional(),
  }),
  z.object({
    type: z.literal('array'),
    ...Common,
    minItems: z.number().int().nonnegative().optional(),
    maxItems: z.number().int().nonnegative().optional(),
    items: z.union([
      z.object({ type: z.literal('string'), enum: z.array(Text).min(1).max(256) }),
      z.object({
        anyOf: z
          .array(z.object({ const: Text, title: Text }))
          .min(1)
          .max(256),
      }),
    ]),
    default: z.array(Text).optional(),
  }),
  z.object({ type: z.literal('boolean'), ...Common, default: z.boolean().optional() }),
  z.object({
    type: z.literal('string'),
    ...Common,
    minLength: z.number().int().nonnegative().optional(),
    maxLength: z.number().int().nonnegative().optional(),
    format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
    default: Text.optional(),
  }),
  z.object({
    type: z.enum(['number', 'integer']),
    ...Common,
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    default: z.number().optional(),
  }),
]);

const RawFormSchema = z.object({
  mode: z.literal('form').optional(),
  message: Text,
  requestedSchema: z.object({
    type: z.literal('object'),
    properties: z.record(z.string().min(1).max(256), z.unknown()),
    required: z.array(z.string()).optional(),
  }),
});

const RawUrlSchema = z.object({
  mode: z.literal('url'),
  message: Text,
  url: z.string().max(8_192),
  // Required on 2025-11-25; 2026-07-28 removed it (a server correlates through `requestState`).
  elicitationId: z.string().max(1_024).optional(),
});

export type ElicitationAsk =
  | { readonly mode: 'form'; readonly message: string; readonly fields: ElicitationField[] }
  | {
      readonly mode: 'url';
      readonly message: string;
      readonly url: string;
      readonly origin: string;
      /** Absent on 2026-07-28. */
      readonly elicitationId?: string;
    };

export type ElicitationRead =
  | { readonly ok: true; readonly ask: ElicitationAsk }
  | { readonly ok: false; readonly problem: string };

function label(text: string | undefined): { title?: string } {
  return text === undefined ? {} : { title: safeText(text, { maxChars: LABEL_CHARS }) };
}

function describe(text: string | undefined): { description?: string } {
  return text === undefined ? {} : { description: safeText(text, { maxChars: LABEL_CHARS }) };
}

/** A value sent back verbatim must be shown verbatim: one the gate would change is refused. */
function verbatim(values: readonly string[]): boolean {
  return values.every(isVerbatim);
}

function fieldOf(name: string, raw: unknown, required: boolean): ElicitationField | string {
  const parsed = RawPropertySchema.safeParse(raw);
  if (!parsed.success) return `field '${safeText(name)}' is not a string, number, boolean or enum`;
  const p = parsed.data;
  const base = { name, required, ...label(p.title), ...describe(p.description) };
  if ('enum' in p) {
    if (!verbatim(p.enum))
      return `field '${safeText(name)}' offers a choice with hidden characters`;
    const options = p.enum.map((value, i) => ({
      value,
      label: safeText(p.enumNames?.[i] ?? value, { maxChars: LABEL_CHARS }),
    }));
    return {
      ...base,
      kind: 'choice',
      options,
      ...(p.default === undefined ? {} : { default: p.default }),
    };
  }
  if ('oneOf' in p) {
    const values = p.oneOf.map((o) => o.const);
    if (!verbatim(values))
      return `field '${safeText(name)}' offers a choice with hidden characters`;
    const options = p.oneOf.map((o) => ({
      value: o.const,
      label: safeText(o.title, { maxChars: LABEL_CHARS }),
    }));
    return {
      ...base,
      kind: 'choice',
      options,
      ...(p.default === undefined ? {} : { default: p.default }),
    };
  }
  if (p.type === 'array') {
    const items = p.items;
    const options =
      'enum' in items
        ? items.enum.map((value) => ({ value, label: safeText(value, { maxChars: LABEL_CHARS }) }))
        : items.anyOf.map((o) => ({
            value: o.const,
            label: safeText(o.title, { maxChars: LABEL_CHARS }),
          }));
    if (!verbatim(options.map((o) => o.value))) {
      return `field '${safeText(name)}' offers a choice with hidden characters`;
    }
    // A default outside the choices would sit in the answer with no box to untick, and every
    // submit would be refused: only the defaults the card can show are kept.
    const offered = new Set(options.map((o) => o.value));
    const defaults = p.default?.filter((value) => offered.has(value));
    return {
      ...base,
      kind: 'choices',
      options,
      ...(p.minItems === undefined ? {} : { minItems: p.minItems }),
      ...(p.maxItems === undefined ? {} : { maxItems: p.maxItems }),
      ...(defaults === undefined ? {} : { default: defaults }),
    };
  }
  if (p.type === 'boolean') {
    return { ...base, kind: 'boolean', ...(p.default === undefined ? {} : { default: p.default }) };
  }
  if (p.type === 'string') {
    // A default goes back to the server as it is if the user accepts it unchanged: one with a
    // character the field cannot show (bidi, zero-width) could say other than what they saw.
    const shown = p.default !== undefined && verbatim([p.default]);
    return {
      ...base,
      kind: 'text',
      ...(p.minLength === undefined ? {} : { minLength: p.minLength }),
      ...(p.maxLength === undefined ? {} : { maxLength: p.maxLength }),
      ...(p.format === undefined ? {} : { format: p.format }),
      ...(shown ? { default: p.default } : {}),
    };
  }
  return {
    ...base,
    kind: 'number',
    integer: p.type === 'integer',
    ...(p.minimum === undefined ? {} : { minimum: p.minimum }),
    ...(p.maximum === undefined ? {} : { maximum: p.maximum }),
    ...(p.default === undefined ? {} : { default: p.default }),
  };
}

/** A loopback host, where plain http is acceptable. */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}

/** The server's `elicitation/create` params, read into a card's content or refused with why. */
export function readElicitation(params: unknown): ElicitationRead {
  const url = RawUrlSchema.safeParse(params);
  if (url.success) {
    let parsed: URL;
    try {
      parsed = new URL(url.data.url);
    } catch {
      return { ok: false, problem: 'the URL to open is not a URL' };
    }
    const secure =
      parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopback(parsed.hostname));
    if (!secure) return { ok: false, problem: 'the URL to open is not https' };
    if (parsed.username !== '' || parsed.password !== '') {
      return { ok: false, problem: 'the URL to open carries a user name or password' };
    }
    return {
      ok: true,
      ask: {
        mode: 'url',
        message: safeText(url.data.message, { maxChars: MESSAGE_CHARS }),
        url: parsed.href,
        origin: parsed.origin,
        ...(url.data.elicitationId === undefined ? {} : { elicitationId: url.data.elicitationId }),
      },
    };
  }
  const form = RawFormSchema.safeParse(params);
  if (!form.success)
    return { ok: false, problem: 'the request is neither a form nor a URL to open' };
  const { properties, required = [] } = form.data.requestedSchema;
  const names = Object.keys(properties);
  if (names.length > MAX_ELICITATION_FIELDS) {
    return { ok: false, problem: `the form has more than ${MAX_ELICITATION_FIELDS} fields` };
  }
  const fields: ElicitationField[] = [];
  for (const name of names) {
    if (!verbatim([name])) return { ok: false, problem: 'a field name has hidden characters' };
    const field = fieldOf(name, properties[name], required.includes(name));
    if (typeof field === 'string') return { ok: false, problem: field };
    fields.push(field);
  }
  return {
    ok: true,
    ask: {
      mode: 'form',
      message: safeText(form.data.message, { maxChars: MESSAGE_CHARS }),
      fields,
    },
  };
}
