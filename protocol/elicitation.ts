import { z } from 'zod';

/**
 * A server asking the user something mid-call (MCP elicitation, issue 12). The host turns the
 * server's `elicitation/create` into a card: a form of typed fields (form mode) or a link to open
 * (URL mode). It never answers for the user: the extension shows the card in the side panel, and
 * with no side panel open it declines, saying why. Every string on a card came from the server and
 * has been through the untrusted-text gate; the fields are the host's own reading of the server's
 * schema, so the form the user sees and the check the host applies are the same.
 *
 * `checkAnswer` is shared: the side panel runs it before sending (a value the schema refuses is
 * never sent), and the host runs it again before anything reaches the server.
 */

const Label = z.string().max(4_096);

const FieldBase = {
  /** The property name the server asked for. */
  name: z.string().min(1).max(256),
  title: Label.optional(),
  description: Label.optional(),
  required: z.boolean(),
};

export const ElicitationFieldSchema = z.discriminatedUnion('kind', [
  z.object({
    ...FieldBase,
    kind: z.literal('text'),
    minLength: z.number().int().nonnegative().optional(),
    maxLength: z.number().int().nonnegative().optional(),
    format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
    default: z.string().optional(),
  }),
  z.object({
    ...FieldBase,
    kind: z.literal('number'),
    integer: z.boolean(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    default: z.number().optional(),
  }),
  z.object({ ...FieldBase, kind: z.literal('boolean'), default: z.boolean().optional() }),
  z.object({
    ...FieldBase,
    /** One of `options`. */
    kind: z.literal('choice'),
    options: z
      .array(z.object({ value: z.string(), label: Label }))
      .min(1)
      .max(256),
    default: z.string().optional(),
  }),
  z.object({
    ...FieldBase,
    /** Any of `options`. */
    kind: z.literal('choices'),
    options: z
      .array(z.object({ value: z.string(), label: Label }))
      .min(1)
      .max(256),
    minItems: z.number().int().nonnegative().optional(),
    maxItems: z.number().int().nonnegative().optional(),
    default: z.array(z.string()).optional(),
  }),
]);
export type ElicitationField = z.infer<typeof ElicitationFieldSchema>;

const CardBase = {
  /** Host-chosen, opaque. */
  id: z.string().min(1).max(64),
  server: z.string(),
  /** What the server says it wants, gated. */
  message: z.string(),
  /** When the host stops waiting and cancels, ms since the epoch. */
  expiresAt: z.number(),
};

export const ElicitationRequestSchema = z.discriminatedUnion('mode', [
  z.object({ ...CardBase, mode: z.literal('form'), fields: z.array(ElicitationFieldSchema) }),
  z.object({
    ...CardBase,
    mode: z.literal('url'),
    /** The page the server wants the user to open; opened only after the user agrees. */
    url: z.string(),
    /** Where it leads, shown first: `https://auth.example.com`. */
    origin: z.string(),
  }),
]);
export type ElicitationRequest = z.infer<typeof ElicitationRequestSchema>;

export const ElicitationValueSchema = z.union([
  z.string().max(65_536),
  z.number(),
  z.boolean(),
  z.array(z.string().max(4_096)).max(256),
]);
export type ElicitationValue = z.infer<typeof ElicitationValueSchema>;

export const ElicitationActionSchema = z.enum(['accept', 'decline', 'cancel']);
export type ElicitationAction = z.infer<typeof ElicitationActionSchema>;

/** Who ended a card: the user, the server (it cancelled), the clock, or nobody to ask. */
export const ElicitationSettledBySchema = z.enum(['user', 'server', 'timeout', 'no-page', 'host']);
export type ElicitationSettledBy = z.infer<typeof ElicitationSettledBySchema>;

export const elicitationMethods = {
  'elicitation/pending': {
    params: z.object({}).optional(),
    result: z.object({ requests: z.array(ElicitationRequestSchema) }),
  },
  'elicitation/respond': {
    params: z.object({
      id: z.string().min(1).max(64),
      action: ElicitationActionSchema,
      /** With `accept` in form mode: the form's values by field name. */
      content: z.record(z.string().min(1).max(256), ElicitationValueSchema).optional(),
      /** Why the extension declined without asking (`no-page`): logged, not sent to the server. */
      unanswered: z.literal('no-page').optional(),
    }),
    result: z.object({ settled: z.literal(true) }),
  },
} as const satisfies Record<string, { params: z.ZodType; result: z.ZodType }>;

export const elicitationNotifications = {
  'notifications/elicitation/requested': z.object({ request: ElicitationRequestSchema }),
  'notifications/elicitation/settled': z.object({
    id: z.string(),
    action: ElicitationActionSchema,
    by: ElicitationSettledBySchema,
  }),
} as const satisfies Record<string, z.ZodType>;

/** The form's starting values: each field's default where the server gave one. */
export function initialValues(
  fields: readonly ElicitationField[],
): Record<string, ElicitationValue> {
  const values: Record<string, ElicitationValue> = {};
  for (const field of fields) {
    if (field.default !== undefined) values[field.name] = field.default;
  }
  return values;
}

export interface AnswerIssue {
  readonly field: string;
  readonly message: string;
}

export type AnswerCheck =
  | { readonly ok: true; readonly content: Record<string, ElicitationValue> }
  | { readonly ok: false; readonly issues: AnswerIssue[] };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function formatProblem(
  format: 'email' | 'uri' | 'date' | 'date-time',
  text: string,
): string | undefined {
  switch (format) {
    case 'email':
      return EMAIL.test(text) ? undefined : 'is not an email address';
    case 'uri':
      return URI.test(text) ? undefined : 'is not a URL';
    case 'date':
      return DATE.test(text) && !Number.isNaN(Date.parse(text))
        ? undefined
        : 'is not a date (YYYY-MM-DD)';
    case 'date-time':
      return DATE_TIME.test(text) && !Number.isNaN(Date.parse(text))
        ? undefined
        : 'is not a date and time (YYYY-MM-DDTHH:MM:SSZ)';
  }
}

/** An absolute URI (RFC 3986: a scheme, a colon, no spaces). */
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$/;

/** Why one field's value is refused, or undefined when it is acceptable. */
function fieldProblem(field: ElicitationField, value: ElicitationValue): string | undefined {
  switch (field.kind) {
    case 'text': {
      if (typeof value !== 'string') return 'must be text';
      if (field.minLength !== undefined && value.length < field.minLength) {
        return `must be at least ${field.minLength} characters`;
      }
      if (field.maxLength !== undefined && value.length > field.maxLength) {
        return `must be at most ${field.maxLength} characters`;
      }
      return field.format === undefined ? undefined : formatProblem(field.format, value);
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.integer && !Number.isInteger(value)) return 'must be a whole number';
      if (field.minimum !== undefined && value < field.minimum)
        return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum)
        return `must be at most ${field.maximum}`;
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be yes or no';
    case 'choice':
      return typeof value === 'string' && field.options.some((o) => o.value === value)
        ? undefined
        : 'must be one of the choices offered';
    case 'choices': {
      if (!Array.isArray(value)) return 'must be a list of choices';
      if (!value.every((v) => field.options.some((o) => o.value === v))) {
        return 'must be among the choices offered';
      }
      if (new Set(value).size !== value.length) return 'lists a choice twice';
      if (field.minItems !== undefined && value.length < field.minItems) {
        return `needs at least ${field.minItems} choices`;
      }
      if (field.maxItems !== undefined && value.length > field.maxItems) {
        return `allows at most ${field.maxItems} choices`;
      }
      return undefined;
    }
  }
}

/**
 * Checks a form's values against its fields: every required field present (a default counts),
 * every value of its field's type and within its bounds, nothing the form did not ask for. An
 * omitted optional field with a default gets the default (SEP-1034). An empty text counts as
 * omitted (a form cannot tell an empty input from an untouched one).
 */
export function checkAnswer(
  fields: readonly ElicitationField[],
  values: Readonly<Record<string, ElicitationValue | undefined>>,
): AnswerCheck {
  const issues: AnswerIssue[] = [];
  const content: Record<string, ElicitationValue> = {};
  const known = new Set(fields.map((f) => f.name));
  for (const name of Object.keys(values)) {
    if (!known.has(name) && values[name] !== undefined) {
      issues.push({ field: name, message: 'was not asked for' });
    }
  }
  for (const field of fields) {
    let value = Object.hasOwn(values, field.name) ? values[field.name] : undefined;
    if (value === '') value = undefined;
    value ??= field.default;
    if (value === undefined) {
      if (field.required) issues.push({ field: field.name, message: 'is required' });
      continue;
    }
    const problem = fieldProblem(field, value);
    if (problem === undefined) content[field.name] = value;
    else issues.push({ field: field.name, message: problem });
  }
  return issues.length === 0 ? { ok: true, content } : { ok: false, issues };
}
